// ophost_detail.h: what ophost.cpp (the registry, contexts, inference) and host_kernel.cpp (the
// kernel that launches an Ascend C operator's CPU twin) share. Private to ophost.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "asc/ophost/ophost.h"
#include "asc/ops/kernel.h"
#include "asc/ops/registry.h"
#include "register/op_def_registry.h"
#include "register/register.h"

namespace asc::ophost::detail {

struct Entry {
  std::string op_type, kernel;
  std::vector<int> dtypes;  // inputs, then outputs
  KernelEntry fn = nullptr;
  bool mixed = false;  // uses the cube (addMixedKernelEntry): both vector cores on split chips
};

/// A registered operator: its prototype, its ONNX mapping and its kernels.
struct HostOp {
  std::unique_ptr<::ops::OpDef> def;
  std::vector<Entry> entries;
};

struct State {
  std::mutex mu;
  // What the plugin being loaded added (static initializers run at dlopen).
  std::vector<std::unique_ptr<::ops::OpDef>> pending_defs;
  std::vector<domi::OpRegistrationData> pending_maps;
  std::vector<Entry> pending_entries;
  // Registered operators by type; never removed (the plugin stays loaded).
  std::map<std::string, std::unique_ptr<HostOp>> ops;
};

State& state();
const HostOp* findOp(const std::string& type);
int toGe(ir::DType t);
ir::DType toIr(int t);
std::string columnText(const std::vector<int>& col);
/// A GE float type (float, float16, bfloat16).
bool isFloat(int t);
Status shapeOf(const ir::Shape& s, gert::Shape* out, const std::string& what);
Status fillAttrs(const ::ops::OpDef& d, const ir::Node& n, gert::RuntimeAttrs* out);
void fillNames(const ir::Node& n, gert::ExtendedKernelContext* c);
/// What the tiling function is run on: the tensors (inputs, then outputs) and the attributes.
struct LaunchQuery {
  std::string where;        // "node 'x'" or "aclnnXGetWorkspaceSize", for messages
  std::string node_name;    // TilingContext::GetNodeName
  std::string soc;          // the chip (PlatformAscendC); empty: the default chip
  std::vector<int> dtypes;  // ge::DataType of each tensor; DT_UNDEFINED for an absent one
  std::vector<gert::Shape> shapes;
  std::vector<const void*> data;  // the inputs' data where the caller has it (may be empty)
  /// Per input: the tensors of a DYNAMIC one (a list; its entry in shapes and data unused),
  /// empty for any other (may be empty: no lists).
  std::vector<std::vector<gert::Shape>> list_shapes;
  std::vector<std::vector<const void*>> list_data;
  gert::RuntimeAttrs attrs;
  bool convert_floats = false;  // may pick a kernel of another float type
};
/// The kernel picked for the dtypes and what the tiling function set for it.
struct Launch {
  const Entry* entry = nullptr;
  uint32_t blocks = 1;
  uint64_t tiling_key = 0;
  std::vector<uint8_t> tiling;
  size_t workspace = 0;  // the user workspaces' bytes, summed
};
/// How a node's inputs fall on the prototype's: per prototype input, its first node input and
/// how many (a DYNAMIC input takes what the others leave, at least one); empty when the
/// prototype has no DYNAMIC input (one node input each). InvalidParam when it has more than one
/// (which node inputs belong to which is then not known) or the node has too few inputs.
Result<std::vector<std::pair<uint32_t, uint32_t>>> irInputs(const ::ops::OpDef& d,
                                                            size_t node_inputs);
/// Picks the kernel of the dtypes and runs the tiling function on the shapes and attributes.
Result<Launch> planLaunch(const HostOp& op, const LaunchQuery& q);
/// The unwritten-output check: fillUnwritten before the launch puts a pattern no kernel computes
/// by chance in each of `numel` elements of `elem` bytes; checkUnwritten after it fails
/// (KernelCheckFailed) naming where, the kernel, the output and the range still holding it.
void fillUnwritten(uint8_t* data, int64_t numel, size_t elem);
Status checkUnwritten(const uint8_t* data, int64_t numel, size_t elem, const std::string& where,
                      const std::string& kernel, size_t output);
/// The kernel of a host operator's node: its tiling function, then its CPU-twin kernel.
Result<std::unique_ptr<ops::Kernel>> makeHostKernel(const ops::KernelInit& k);

}  // namespace asc::ophost::detail
