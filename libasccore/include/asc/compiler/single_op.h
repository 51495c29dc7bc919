// single_op.h: single-operator models, as CANN makes and runs them. `atc --singleop=ops.json
// --output=DIR` compiles each op a JSON file describes (its type, input and output tensors,
// attributes) into its own .om in DIR; AscendCL's aclopSetModelDir loads such a folder and
// aclopExecuteV2 runs the model whose op matches a call (type, tensors, attributes), and
// aclopCompileAndExecuteV2 compiles the call's op in memory. The description is stored in the
// OM (ModelInfo::single_op) so the runtime matches calls against what was compiled, not against
// the graph the passes made of it (docs/acl.md, "Single operators").
#pragma once

#include <string>
#include <vector>

#include "asc/asc.h"
#include "asc/compiler/compile.h"
#include "asc/ir/attr.h"
#include "asc/ir/dtype.h"
#include "asc/ir/graph.h"
#include "asc/om/om_file.h"
#include "asc/support/status.h"

namespace asc::singleop {

struct TensorDesc {
  std::string name;  // "" when the description gives none
  ir::DType dtype = ir::DType::Undefined;
  std::string format = "ND";  // as GE spells it: ND, NCHW, NHWC, ...
  ir::Shape dims;             // -1: known at run time (within `ranges`)
  /// Per dim: the sizes a run may give (min == max for a fixed dim; max -1: no bound). Empty
  /// when every dim is fixed.
  std::vector<om::DimRange> ranges;
  bool dynamic() const;
};

struct OpDesc {
  std::string op;  // the CANN op type: a built-in operator's or a custom operator's
  std::vector<TensorDesc> inputs, outputs;
  /// As the IR holds them: bool and data_type become integers, list_bool a list of integers.
  ir::Attrs attrs;
  bool dynamic() const;
};

/// Parses a --singleop file (`source` names it in messages): a JSON list of op descriptions,
/// each {"op", "input_desc": [...], "output_desc": [...], "attr": [{"name", "type", "value"}]},
/// tensors {"name", "format", "shape", "shape_range", "type", "param_type"}; dtype and format
/// names in any case (GE's spellings: float16/half/fp16, float/float32, int8 ... bfloat16; ND,
/// NCHW, NHWC ...). E10025 when it is no such list, E10026 for an op without a type, E10027 for
/// a tensor whose dtype, format, shape or shape_range is not valid, E10029 for an attribute
/// without a name, E10030 for one whose value is missing or not of its type; E10055 for what
/// asc-tools does not implement (list_list_int attributes, constant inputs, origin formats
/// other than the format), each naming the op's index and the field.
ASC_API Result<std::vector<OpDesc>> parseJson(const std::string& text, const std::string& source);
/// One description in the file's form (a list of one op), as the OM records it.
ASC_API std::string toJson(const OpDesc& d);
/// The file CANN's atc writes op `index` of a --singleop file to: "<index>_<op>", then per
/// input and output "_<dtype>_<format>" and "_<dim>" per dim (AscendCL's enum numbers), cut to
/// 128 characters, then ".om".
ASC_API std::string fileName(const OpDesc& d, size_t index);

/// AscendCL's (and GE's) numbers for dtypes and formats: ACL_FLOAT16 = 1, ACL_FORMAT_ND = 2.
/// -1 for a dtype or format they have no number for.
ASC_API int aclDtype(ir::DType t);
ASC_API ir::DType dtypeFromAcl(int t);
ASC_API int aclFormat(const std::string& format);
/// The format's GE spelling, "" for a number that names none.
ASC_API std::string formatFromAcl(int f);

/// The graph of one op: the described inputs as graph inputs, one node of the op (a built-in
/// operator by its CANN type, or a loaded custom operator), its outputs as graph outputs. A
/// static op's output dtypes and shapes are inferred and checked against the description
/// (E10027 naming the output and both); a dynamic one (a -1 dim) is a dynamic graph, compiled
/// per input shape at run time. E2002 when no operator has the type (naming where custom
/// operators were looked for).
ASC_API Result<ir::Graph> buildGraph(const OpDesc& d);

/// buildGraph() compiled with `options` (its soc_version, precision and level; a dynamic op's
/// input ranges become the model's), the description recorded in the model's info.
ASC_API Result<CompiledModel> compileOp(const OpDesc& d, CompileOptions options);

/// How a call's op differs from a compiled one, in the order AscendCL checks: the type, the
/// inputs (count, dtype, format, rank, a fixed dim, a dim outside its range), the outputs, the
/// attributes (the same names with equal values).
enum class Mismatch { None, Type, Input, Output, Attr };
ASC_API Mismatch match(const OpDesc& compiled, const OpDesc& call, std::string* why);

}  // namespace asc::singleop
