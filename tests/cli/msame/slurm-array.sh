# scripts/batch/msame-array.sbatch on a real Slurm: a single-node cluster (slurmctld + slurmd,
# Debian's slurm-wlm) configured in this test's folder for localhost, auth/none, a random port.
# A 4-task array shards a 40-file folder; merge.sh then finds every input exactly once. Where
# Slurm is not installed or its daemons cannot start, the test is skipped, never passed.
for b in slurmctld slurmd sbatch sinfo scontrol; do
  command -v $b >/dev/null || skip "Slurm ($b) is not installed (scripts/install-deps.sh --test)"
done
[ "$(id -u)" = 0 ] || skip "the local Slurm runs its daemons as root (SlurmUser=root)"
run atc --model="$DATA/tiny_conv.onnx" --framework=5 --output=m --soc_version=Ascend310
expect_exit 0
mkdir inputs
for i in $(seq 10 49); do
  awk -v s=$i 'BEGIN { srand(s); for (k = 0; k < 192; k++) printf "%c%c%c%c", 0, 0, int(rand() * 64), 63 }' > inputs/in$i.bin
done
# Slurm's spool, state, pid and log files live in a short private folder under /tmp, not in the
# build folder: slurmd makes a Unix socket under its spool, and a socket path may hold only 108
# bytes, so a deep build folder kept the node from ever running a job.
d=$(mktemp -d /tmp/asc-slurm.XXXXXX)
mkdir -p "$d/state" "$d/spool"
host=$(cat /proc/sys/kernel/hostname)
port=$((20000 + RANDOM % 20000))
cat > "$d/slurm.conf" <<CONF
ClusterName=asctest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/none
CredType=cred/none
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=asc Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$d/slurm.conf
slurm_down() {
  scontrol shutdown >/dev/null 2>&1 || true
  for p in "$d"/slurmctld.pid "$d"/slurmd.pid; do [ -f "$p" ] && kill "$(cat "$p")" 2>/dev/null; done
  mkdir -p slurm-logs && cp "$d"/*.log slurm-logs/ 2>/dev/null
  rm -rf "$d"
  true
}
trap 'st=$?; slurm_down; (exit $st); on_exit' EXIT
slurmctld -f "$SLURM_CONF" >/dev/null 2>&1 || skip "slurmctld did not start ($(tail -2 "$d/slurmctld.log" 2>/dev/null))"
slurmd -f "$SLURM_CONF" >/dev/null 2>&1 || skip "slurmd did not start ($(tail -2 "$d/slurmd.log" 2>/dev/null))"
up=0
for _ in $(seq 1 40); do
  sinfo -h -o %t 2>/dev/null | grep -qx idle && { up=1; break; }
  sleep 0.5
done
[ $up = 1 ] || skip "the local Slurm node did not come up ($(sinfo 2>&1 | tail -1))"

run env MSAME="$BIN/msame" timeout 120 sbatch --wait --array=0-3 --output="$d/task_%a.log" \
  "$ROOT/scripts/batch/msame-array.sbatch" m.om inputs out
expect_exit 0
expect_stdout_contains "Submitted batch job"
run "$ROOT/scripts/batch/merge.sh" out inputs
expect_exit 0
expect_stdout_contains "merge.sh: 4 shard(s), 40 input set(s): 40 ok, 0 failed, 0 missing"
cat out/shard_*_of_4/manifest.jsonl | grep -o '"input": \["[^"]*"' | sort | uniq -d > twice.txt
[ ! -s twice.txt ] || fail "inputs ran twice: $(head -3 twice.txt)"
grep -q "shard 2/4: 10 of 40 input sets, 10 run" "$d/task_2.log" || fail "task 2's log: $(tail -3 "$d/task_2.log")"
