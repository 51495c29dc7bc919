// dnnl_util.h: the oneDNN side of kernels: the per-session engine and stream (KernelEnv), and
// memory descriptors for TensorRefs in their plain or blocked layout.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <unordered_map>
#include <vector>

#include "asc/ops/kernel.h"
#include "cpu/blocked.h"
#include "support/pages.h"

namespace asc::ops {

struct KernelEnv {
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
  /// The scratchpads of the primitives built in user scratchpad mode (cpu::sharedScratchpad):
  /// kernels run one at a time, so the session backs them all with one buffer of the largest
  /// size, allocated and faulted in at load (bindScratchpads).
  std::vector<dnnl::memory> scratchpads;
  size_t scratchpad_bytes = 0;
  /// Weight reorders at kernel creation (cpu::reorderConstant) run at once, or, when
  /// `defer_weight_reorders` is set (a session sets it), are queued here and run together by
  /// cpu::runWeightReorders once every kernel exists: one reorder keeps about one core busy, so
  /// they run side by side. Kernels must not read their reordered weights before that.
  bool defer_weight_reorders = false;
  struct PendingReorder {
    const ir::Node* node;
    dnnl::memory src, dst;
  };
  std::vector<PendingReorder> pending_reorders;
  /// The buffers behind the reordered weights runWeightReorders made (one per call), or the
  /// address space reserveWeightReorders handed out.
  std::vector<PageBuffer> weight_buffers;
  /// The packed constants (ir::Value::packed) whose weights a kernel took through
  /// cpu::constantWeights: in place, or reordered from their plain bytes. A session checks
  /// that each kernel reading weights the OM stores only packed did so.
  std::vector<const ir::Value*> weights_read;
  /// Buffers a kernel needs only while it runs (cpu::temporary: an input converted to its
  /// primitive's layout, a result before its reorder out). With `share_temporaries` set (a
  /// session sets it) every kernel's temporary of one index is backed by one buffer of the
  /// largest size, bound and faulted in at load, as the scratchpads are; else each owns its own.
  bool share_temporaries = false;
  static constexpr int kTemporaries = 3;
  std::vector<dnnl::memory> temporaries[kTemporaries];
  size_t temporary_bytes[kTemporaries] = {};
};

}  // namespace asc::ops

namespace asc::cpu {

using dnnl::memory;

/// oneDNN dims of a shape (a scalar becomes {1}).
memory::dims dimsOf(const ir::Shape& s);
/// Plain row-major tag for a rank (a, ab, abc, abcd, ...).
memory::format_tag plainTag(size_t rank);
/// The Blocked tag for a rank: nhwc/ndhwc/nwc when channels-last, else nChw8c/nCdhw8c/nCw8c.
memory::format_tag blockedTag(size_t rank);
memory::data_type dnnlType(ir::DType t);
/// The memory descriptor of a tensor in its layout.
memory::desc descOf(const ops::TensorRef& t);
memory::desc descOf(const ir::Shape& shape, ir::DType dtype, ops::Layout layout);
/// A memory object over a tensor's buffer.
memory memOf(const ops::TensorRef& t, const dnnl::engine& eng);

/// Puts a primitive's scratchpad in the user's hands: build the primitive with this attr, then
/// pass sharedScratchpad(pd, env) as its DNNL_ARG_SCRATCHPAD. oneDNN would otherwise give each
/// primitive its own scratchpad, untouched until the first run (ResNet-50's convolutions hold
/// ~30 MB of them, which the first run faults in).
void useSharedScratchpad(dnnl::primitive_attr& attr);
/// The primitive's scratchpad as a memory bound later to the session's shared buffer, or an
/// empty memory when it needs none (then pass no DNNL_ARG_SCRATCHPAD).
memory sharedScratchpad(const dnnl::primitive_desc_base& pd, ops::KernelEnv& env);
/// The same for a kernel of the runtime's own that needs `md.get_size()` bytes only while it
/// runs (`who` names it in the debug log): bound at load to the buffer the primitives share.
memory sharedScratchpad(const memory::desc& md, const std::string& who, ops::KernelEnv& env);

/// Runs a primitive with its arguments on the env's stream and waits.
void execute(ops::KernelEnv& env, const dnnl::primitive& p,
             const std::unordered_map<int, memory>& args);

/// The oneDNN error text as a Status (E19999), naming the node.
Status dnnlError(const ir::Node& n, const dnnl::error& e);

}  // namespace asc::cpu

namespace asc::cpu {

/// A buffer of layout `md` that a kernel uses only inside one run(): temporary number `which`
/// (0 to KernelEnv::kTemporaries - 1; a kernel gives each of its temporaries its own number).
/// Shared across kernels when KernelEnv::share_temporaries is set: its handle is then bound at
/// load, so nothing may be read or written through it before the first run.
memory temporary(const memory::desc& md, int which, ops::KernelEnv& env);

/// A kernel's view of one input in the layout its primitive wants: the tensor's own buffer when
/// the layouts agree, else temporary `which` (cpu::temporary) that a reorder fills at run time.
class AdaptedInput {
 public:
  AdaptedInput() = default;
  /// E19999 (naming the node) if oneDNN cannot reorder between the two layouts.
  Status init(const ir::Node& n, const ops::TensorRef& t, const memory::desc& want,
              ops::KernelEnv& env, int which);
  /// The same for bytes at `data` described by `have` (e.g. a strided view of a tensor).
  Status init(const ir::Node& n, const memory::desc& have, void* data, const memory::desc& want,
              ops::KernelEnv& env, int which);
  /// Reorders into the scratch buffer if needed; call at the start of run().
  void prepare(ops::KernelEnv& env);
  const memory& mem() const { return mem_; }

 private:
  memory src_, mem_;
  dnnl::reorder reorder_;
  bool needs_reorder_ = false;
  BlockedConversion conversion_ = BlockedConversion::None;  // done by cpu/blocked.h instead
};

/// Weights reordered once, at kernel creation, into the layout the primitive chose (or queued,
/// see KernelEnv::defer_weight_reorders).
Result<memory> reorderConstant(const ir::Node& n, const memory::desc& have, const void* data,
                               const memory::desc& want, ops::KernelEnv& env);

/// Runs the weight reorders queued in `env` on up to `threads` threads, largest first, and
/// empties the queue. E19999 naming the node if oneDNN fails one.
Status runWeightReorders(ops::KernelEnv& env, int threads);
/// For a session that only packs weights (atc): gives each queued reorder's destination an
/// address of its own in reserved address space (support/pages.h: no memory behind it) and
/// leaves the queue for the caller, which runs each reorder into a buffer of its choosing.
Status reserveWeightReorders(ops::KernelEnv& env);

/// The exact name of a memory layout, for packed weights: every field of a blocked or Winograd
/// descriptor ("blocked f32 dims=... strides=... inner=..."), or "" for a layout that cannot be
/// packed (plain row-major needs no packing; other kinds are not stored). Two descriptors have
/// the same name exactly when a buffer in one can be read as the other.
std::string packingOf(const memory::desc& md);

/// The layout a packed copy's name describes (packingOf's text, parsed back), for weights an OM
/// stores only packed. A name read from a file is never trusted: only a blocked fp32 layout of
/// dims holding exactly `shape`'s elements (a kernel's view, such as a grouped convolution's
/// 5-D one), with no offsets, whose every element lies inside its `bytes` bytes (which must be
/// oneDNN's own size for it), and whose name packingOf gives back unchanged, is accepted.
/// Otherwise InvalidModel saying what is wrong.
Result<memory::desc> parsePacking(const std::string& packing, const ir::Shape& shape, size_t bytes);

/// Writes the plain row-major bytes of weights held in layout `md` (from parsePacking) into
/// `plain`. False, after an error line, if oneDNN fails.
bool unpackWeights(const memory::desc& md, const void* packed, void* plain);

/// A constant input's weights in the layout `want`: its packed copy in place when atc packed it
/// for that very layout (ir::Value::packed), else `data` (in layout `have`) reordered as above.
/// A packed copy for another layout (made on a CPU whose kernels differ) is logged at debug.
Result<memory> constantWeights(const ir::Node& n, const ops::TensorRef& t, const memory::desc& have,
                               const memory::desc& want, ops::KernelEnv& env);

/// What a kernel reports from packedInputs() for weights it reordered: nothing when the layout is
/// the plain one or cannot be packed.
void notePacked(size_t input, const memory::desc& have, const memory& weights,
                std::vector<ops::PackedInput>* out);

/// oneDNN post-ops for a fused activation recorded on a node ("activation" attribute and its
/// parameters), or nothing. E16001-style error for an unknown activation.
Status appendActivation(const ir::Node& n, dnnl::post_ops& po);

}  // namespace asc::cpu

namespace asc::cpu {

/// A kernel that is one oneDNN primitive over fixed arguments: run() executes it on the
/// session's stream. Subclasses build the primitive in their init and call set().
class PrimitiveKernel : public ops::Kernel {
 public:
  explicit PrimitiveKernel(ops::KernelEnv& env) : env_(env) {}
  void run() override {
    prim_.execute(env_.stream, args_);
    env_.stream.wait();
  }
  std::string implName() const override { return impl_; }
  /// Installs the primitive, its description (for implName) and its fixed arguments.
  void set(dnnl::primitive prim, const dnnl::primitive_desc_base& pd,
           std::unordered_map<int, memory> args) {
    prim_ = std::move(prim);
    impl_ = pd.impl_info_str();
    args_ = std::move(args);
  }

 protected:
  ops::KernelEnv& env_;
  dnnl::primitive prim_;
  std::unordered_map<int, memory> args_;
  std::string impl_;
};

}  // namespace asc::cpu
