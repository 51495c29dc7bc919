// kernel_operator.h: the Ascend C kernel API on the CPU (asc-tools). A kernel written for the
// NPU (`extern "C" __global__ __aicore__ void op(GM_ADDR x, ...)`, `using namespace AscendC;`)
// compiles with g++ against this header unchanged and runs through ICPU_RUN_KF (tikicpulib.h)
// or asc::ascendc::launchKernel (asc/ascendc/launch.h). Supported: GlobalTensor, LocalTensor,
// TPipe, TQue, TBuf, DataCopy/DataCopyPad, the common vector instructions in their count, mask
// and repeat forms, reductions, GatherMask/Gather/Gatherb, Sort32/MrgSort/Sort/Extract, Copy,
// Transpose, Pad/UnPad, SoftMax, DataCopy with SliceInfo, SyncAll and the synchronisation
// intrinsics, GET_TILING_DATA, atomic copies, workspaces, printf/DumpTensor/ASSERT; the checks
// and the differences from the NPU are in docs/ascendc.md.
#pragma once

#include "asc_cpu/kernel_types.h"
#include "asc_cpu/kernel_tensor.h"
#include "asc_cpu/kernel_pipe.h"
#include "asc_cpu/kernel_data_copy.h"
#include "asc_cpu/kernel_vec.h"
#include "asc_cpu/kernel_vec_repeat.h"
#include "asc_cpu/kernel_vec_reduce.h"
#include "asc_cpu/kernel_gather_sort.h"
#include "asc_cpu/kernel_transpose.h"
#include "asc_cpu/kernel_tiling.h"
#include "asc_cpu/kernel_misc.h"
#include "asc_cpu/kernel_pad.h"
#include "asc_cpu/kernel_softmax.h"
