# Every file a tool writes goes through the atomic output path (support/file.h: OutputFile,
# writeFileAtomic: a temporary beside the target, renamed on success), so a failed command
# leaves no partial file. No tool or library source opens a file for writing any other way;
# the exceptions are two append-only journals, whose point is to keep every line written before
# a kill: the trace sink's raw data file, appended to by the profiled process inside msprof's
# PROF_* folder while it runs (trace/trace.cpp), and msame --shard's manifest.jsonl (one line
# per finished input, msame_batch.cpp). opgen's test_files.cpp is the text of the tests it
# generates (they write their own data files), not code of a tool.
srcs=("$ROOT"/atc "$ROOT"/msame "$ROOT"/mscompare "$ROOT"/msprof "$ROOT"/opgen "$ROOT"/libasccore/src)
hits=$(grep -rnE 'std::ofstream|ofstream |fopen\(|O_WRONLY|O_RDWR|O_CREAT|creat\(' "${srcs[@]}" \
         --include='*.cpp' --include='*.h' | grep -v '_test\.cpp:' |
       grep -v '/support/file\.cpp:' | grep -v '/trace/trace\.cpp:' |
       grep -v '/opgen/test_files\.cpp:' | grep -v '/msame/msame_batch\.cpp:.*std::ofstream log(manifest, std::ios::app)' ||
       true)
[ -z "$hits" ] || fail "writes outside the atomic output path: $hits"
# And the exceptions are still what this test says they are.
run grep -c "O_APPEND" "$ROOT/libasccore/src/trace/trace.cpp"
expect_exit 0
run grep -c "rename(" "$ROOT/libasccore/src/support/file.cpp"
expect_exit 0
run grep -c "std::ios::app" "$ROOT/msame/msame_batch.cpp"
expect_exit 0
