# The real tool's spellings (-m -g -out -alg) and the seed's (--comparison --baseline
# --compare_mode) do the same; --help prints usage; only the chosen metrics are columns.
/usr/bin/python3 -c "
import numpy as np
np.save('a.npy', np.array([1, 2, 3, 4], np.float32)); np.save('b.npy', np.array([1, 2, 3, 4.5], np.float32))"
run mscompare --help
expect_exit 0
expect_stdout_contains "-alg, --algorithm"
run mscompare --h
expect_exit 0
run mscompare --comparison=a.npy --baseline=b.npy --output=seed --compare_mode=cosine_similarity --atol=1e-3 --rtol=1e-3
expect_exit 1
expect_stdout_contains "atol=0.001 rtol=0.001"
csv=$(ls seed/result_*.csv)
[ "$(head -n1 "$csv")" = "Index,OpType,NPUDump,DataType,Address,GroundTruth,DataType,Address,TensorIndex,Shape,CosineSimilarity,CompareFailReason" ] || fail "seed header: $(head -n1 "$csv")"
run mscompare -m a.npy -g b.npy -out real -alg 0,1 --atol=1
expect_exit 0
csv=$(ls real/result_*.csv)
grep -q ",CosineSimilarity,MaxAbsoluteError,CompareFailReason" "$csv" || fail "real header"
run mscompare -m a.npy -g b.npy -out=all
expect_exit 1
csv=$(ls all/result_*.csv)
[ "$(head -n1 "$csv")" = "Index,OpType,NPUDump,DataType,Address,GroundTruth,DataType,Address,TensorIndex,Shape,CosineSimilarity,MaxAbsoluteError,AccumulatedRelativeError,RelativeEuclideanDistance,KullbackLeiblerDivergence,StandardDeviation,MeanAbsoluteError,RootMeanSquareError,MaxRelativeError,MeanRelativeError,CompareFailReason" ] || fail "full header"
expect_stdout_contains "default for this dtype"
expect_no_temp_files all
