# install-deps.sh on a machine where another package manager holds the apt lock (a fresh machine
# at boot): it waits and retries instead of failing at once. apt-get and dpkg-query are stand-ins
# on PATH: dpkg-query reports one package missing; apt-get install fails (no lists yet), and
# apt-get update fails twice on the lists lock, then succeeds.
mkdir fake
cat > fake/dpkg-query <<'SH'
#!/usr/bin/env bash
# every package installed except cmake
for a; do last=$a; done
[ "$last" = cmake ] && exit 1
echo "install ok installed"
SH
cat > fake/apt-get <<'SH'
#!/usr/bin/env bash
echo "apt-get $*" >> calls.log
case " $* " in
  *" update "*)
    n=$(grep -c ' update' calls.log)
    if [ "$n" -le 2 ]; then
      echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)" >&2
      exit 100
    fi ;;
  *" install "*)
    grep -q ' update' calls.log || { echo "E: Unable to locate package cmake" >&2; exit 100; } ;;
esac
SH
chmod +x fake/*
run env PATH="$PWD/fake:$PATH" ASC_APT_LOCK_WAIT=60 ASC_APT_RETRY_S=0 bash "$ROOT/scripts/install-deps.sh"
expect_exit 0
expect_stdout_contains "install-deps: installing cmake"
expect_stderr_contains "another package manager holds the apt lock; waiting"
[ "$(grep -c ' update' calls.log)" = 3 ] || fail "apt-get update ran $(grep -c ' update' calls.log) times: $(cat calls.log)"
grep -q "DPkg::Lock::Timeout=60 install" calls.log || fail "install does not wait for the dpkg lock: $(cat calls.log)"
# A failure that is not a lock is retried once, then reported.
cat > fake/apt-get <<'SH'
#!/usr/bin/env bash
echo "apt-get $*" >> calls2.log
echo "E: Failed to fetch http://deb.example/InRelease  Temporary failure resolving" >&2
exit 100
SH
run env PATH="$PWD/fake:$PATH" ASC_APT_LOCK_WAIT=60 ASC_APT_RETRY_S=0 bash "$ROOT/scripts/install-deps.sh"
expect_exit_nonzero
expect_stderr_contains "apt-get update failed; retrying once"
expect_stderr_contains "apt-get update failed twice"
[ "$(grep -c ' update' calls2.log)" = 2 ] || fail "update ran $(grep -c ' update' calls2.log) times"
