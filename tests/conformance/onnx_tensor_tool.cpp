// onnx_tensor_tool.cpp: the conformance runner's helper for one ONNX backend node test (a
// folder with model.onnx and test_data_set_0/{input,output}_<i>.pb, serialized TensorProtos).
//
//   asc_onnx_tensor prepare [--freeze] <test_dir> <work_dir>
//       Writes each input_<i>.pb as <work_dir>/input_<i>.npy (.bin for bfloat16, which .npy
//       cannot name) and prints key<TAB>value lines for the runner:
//         op           the operator the test is about (an _expanded test takes its sibling's)
//         scope        "tensor", or the excluded family (training, sequence, string, optional,
//                      control-flow, random): the rule that defines the tensor-only set
//         input_shape  name:d0,d1;... for atc --input_shape (the test data's shapes)
//         inputs       the converted files, comma-separated, for msame --input
//         model        with --freeze (a diagnostic, not the conformance figure): the model
//                      with every input but the first turned into an initializer holding the
//                      test's data, written to <work_dir>/model.onnx
//       Exit 0; 1 when the test cannot be prepared (the reason on stderr).
//   asc_onnx_tensor compare <test_dir> <msame_output_dir> <msame_log>
//       Compares each <msame_output_dir>/*_output_<i>.bin with output_<i>.pb: dtype and shape
//       against the model description msame printed (--debug true), then the elements through
//       asc::compare with ONNX's backend-test tolerances (rtol 1e-3, atol 1e-7 for floats; exact
//       for integers and bools). Prints "pass" or one line of reason; exit 0 pass, 1 mismatch,
//       2 error.
#include <dirent.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "asc/compare/metrics.h"
#include "asc/ir/dtype.h"
#include "asc/ir/tensor.h"
#include "asc/support/file.h"
#include "asc/tensorio/tensor_file.h"
#include "onnx/onnx.pb.h"

namespace {

using asc::ir::DType;

bool readFile(const std::string& path, std::string* out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::stringstream ss;
  ss << f.rdbuf();
  *out = ss.str();
  return true;
}

bool parseProto(const std::string& path, google::protobuf::MessageLite* m) {
  std::string bytes;
  return readFile(path, &bytes) && m->ParseFromString(bytes);
}

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string baseName(std::string p) {
  while (!p.empty() && p.back() == '/') p.pop_back();
  size_t s = p.rfind('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

std::string parentDir(std::string p) {
  while (!p.empty() && p.back() == '/') p.pop_back();
  size_t s = p.rfind('/');
  return s == std::string::npos ? "." : p.substr(0, s);
}

// The elements of a TensorProto as little-endian bytes in its own dtype. False (with a reason)
// for dtypes asc-tools has no DType for (string, complex) or for external data.
bool tensorBytes(const onnx::TensorProto& t, DType* dtype, std::string* out, std::string* why) {
  *dtype = asc::ir::dtypeFromOnnx(t.data_type());
  if (*dtype == DType::Undefined) {
    *why = fmt::format("tensor '{}' has ONNX data type {}, which asc-tools has no dtype for",
                       t.name(), t.data_type());
    return false;
  }
  if (t.data_location() == onnx::TensorProto::EXTERNAL) {
    *why = fmt::format("tensor '{}' keeps its data in an external file", t.name());
    return false;
  }
  if (t.has_raw_data()) {
    *out = t.raw_data();
    return true;
  }
  out->clear();
  auto put = [&](const void* p, size_t n) { out->append(static_cast<const char*>(p), n); };
  switch (*dtype) {
    case DType::F32:
      for (float v : t.float_data()) put(&v, 4);
      break;
    case DType::F64:
      for (double v : t.double_data()) put(&v, 8);
      break;
    case DType::I64:
      for (int64_t v : t.int64_data()) put(&v, 8);
      break;
    case DType::U64:
      for (uint64_t v : t.uint64_data()) put(&v, 8);
      break;
    case DType::U32:
      for (uint64_t v : t.uint64_data()) {
        uint32_t w = static_cast<uint32_t>(v);
        put(&w, 4);
      }
      break;
    case DType::I32:
      for (int32_t v : t.int32_data()) put(&v, 4);
      break;
    case DType::Bool:
    case DType::U8:
    case DType::I8:
      for (int32_t v : t.int32_data()) {
        uint8_t b = static_cast<uint8_t>(v);
        put(&b, 1);
      }
      break;
    case DType::F16:
    case DType::BF16:
    case DType::U16:
    case DType::I16:
      for (int32_t v : t.int32_data()) {
        uint16_t b = static_cast<uint16_t>(v);
        put(&b, 2);
      }
      break;
    default:
      *why = fmt::format("tensor '{}': no reader for {}", t.name(), asc::ir::dtypeName(*dtype));
      return false;
  }
  return true;
}

asc::ir::Shape dimsOf(const onnx::TensorProto& t) {
  return asc::ir::Shape(t.dims().begin(), t.dims().end());
}

// ONNX 1.12's test data stores bfloat16 tensors as uint16 bit patterns (numpy has no bfloat16);
// where the model declares bfloat16, the data is read as bfloat16.
DType declaredAs(DType data, const onnx::ValueInfoProto& declared) {
  if (data == DType::U16 && declared.type().has_tensor_type() &&
      declared.type().tensor_type().elem_type() == onnx::TensorProto::BFLOAT16)
    return DType::BF16;
  return data;
}

int countFiles(const std::string& dir, const std::string& prefix) {
  int n = 0;
  while (true) {
    std::ifstream f(fmt::format("{}/{}_{}.pb", dir, prefix, n));
    if (!f) return n;
    ++n;
  }
}

// --- the tensor-only rule -------------------------------------------------------------------
// A test is outside the tensor-only set when any node (subgraphs included) is one of these
// families, or a graph input or output is not a tensor (sequence, optional, map) or is a string
// tensor. Training: the ai.onnx.preview.training ops, and the tests named *_training* (Dropout
// and BatchNormalization in training mode).
const std::map<std::string, std::string>& excludedOps() {
  static const std::map<std::string, std::string> m = {
      {"Adagrad", "training"},
      {"Adam", "training"},
      {"Momentum", "training"},
      {"Gradient", "training"},
      {"SequenceAt", "sequence"},
      {"SequenceConstruct", "sequence"},
      {"SequenceEmpty", "sequence"},
      {"SequenceErase", "sequence"},
      {"SequenceInsert", "sequence"},
      {"SequenceLength", "sequence"},
      {"SequenceMap", "sequence"},
      {"SplitToSequence", "sequence"},
      {"ConcatFromSequence", "sequence"},
      {"StringNormalizer", "string"},
      {"RegexFullMatch", "string"},
      {"StringConcat", "string"},
      {"StringSplit", "string"},
      {"Optional", "optional"},
      {"OptionalHasElement", "optional"},
      {"OptionalGetElement", "optional"},
      {"If", "control-flow"},
      {"Loop", "control-flow"},
      {"Scan", "control-flow"},
      {"RandomNormal", "random"},
      {"RandomNormalLike", "random"},
      {"RandomUniform", "random"},
      {"RandomUniformLike", "random"},
      {"Bernoulli", "random"},
      {"Multinomial", "random"},
  };
  return m;
}

void collectOps(const onnx::GraphProto& g, std::vector<std::string>* ops) {
  for (const auto& n : g.node()) {
    ops->push_back(n.op_type());
    for (const auto& a : n.attribute()) {
      if (a.has_g()) collectOps(a.g(), ops);
      for (const auto& sg : a.graphs()) collectOps(sg, ops);
    }
  }
}

std::string typeFamily(const onnx::TypeProto& t) {
  if (t.has_sequence_type()) return "sequence";
  if (t.has_optional_type()) return "optional";
  if (t.has_map_type()) return "sequence";
  if (t.has_tensor_type() && t.tensor_type().elem_type() == onnx::TensorProto::STRING)
    return "string";
  return "";
}

std::string scopeOf(const std::string& name, const onnx::ModelProto& m) {
  if (name.find("_training") != std::string::npos) return "training";
  std::vector<std::string> ops;
  collectOps(m.graph(), &ops);
  for (const auto& op : ops) {
    auto it = excludedOps().find(op);
    if (it != excludedOps().end()) return it->second;
  }
  for (const auto* list : {&m.graph().input(), &m.graph().output()})
    for (const auto& v : *list)
      if (std::string f = typeFamily(v.type()); !f.empty()) return f;
  return "tensor";
}

std::string lowerNoUnderscore(const std::string& s) {
  std::string o;
  for (char c : s)
    if (c != '_') o += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return o;
}

// The operator a test is about: its only node; among several, the one whose name the test's
// name starts with (the longest such), else the first node.
std::string opOf(const std::string& name, const onnx::ModelProto& m) {
  const auto& nodes = m.graph().node();
  if (nodes.empty()) return "?";
  if (nodes.size() == 1) return nodes[0].op_type();
  std::string key = lowerNoUnderscore(name.substr(name.rfind("test_", 0) == 0 ? 5 : 0));
  std::string best;
  for (const auto& n : nodes) {
    std::string op = lowerNoUnderscore(n.op_type());
    if (key.rfind(op, 0) == 0 && n.op_type().size() > best.size()) best = n.op_type();
  }
  return best.empty() ? nodes[0].op_type() : best;
}

int prepare(const std::string& test_dir, const std::string& work_dir, bool freeze) {
  const std::string name = baseName(test_dir);
  onnx::ModelProto m;
  if (!parseProto(test_dir + "/model.onnx", &m)) {
    std::cerr << "cannot parse " << test_dir << "/model.onnx\n";
    return 1;
  }
  std::string op = opOf(name, m);
  if (endsWith(name, "_expanded")) {
    const std::string sibling = name.substr(0, name.size() - 9);
    onnx::ModelProto sm;
    if (parseProto(parentDir(test_dir) + "/" + sibling + "/model.onnx", &sm))
      op = opOf(sibling, sm);
  }
  std::cout << "op\t" << op << "\n";
  std::cout << "scope\t" << scopeOf(name, m) << "\n";

  std::set<std::string> inits;
  for (const auto& i : m.graph().initializer()) inits.insert(i.name());
  std::vector<const onnx::ValueInfoProto*> inputs;
  for (const auto& i : m.graph().input())
    if (!inits.count(i.name())) inputs.push_back(&i);
  const std::string data = test_dir + "/test_data_set_0";
  const int n = countFiles(data, "input");
  if (n != static_cast<int>(inputs.size())) {
    std::cerr << fmt::format("the model has {} inputs, the test data {}\n", inputs.size(), n);
    return 1;
  }
  if (asc::Status st = asc::makeDirs(work_dir); !st) {
    std::cerr << st.toString() << "\n";
    return 1;
  }
  std::vector<std::string> shapes, files;
  std::vector<onnx::TensorProto> frozen;
  for (int i = 0; i < n; ++i) {
    onnx::TensorProto t;
    const std::string pb = fmt::format("{}/input_{}.pb", data, i);
    if (!inputs[i]->type().has_tensor_type()) {
      std::cerr << fmt::format("input {} ('{}') is not a tensor\n", i, inputs[i]->name());
      return 1;
    }
    if (!parseProto(pb, &t)) {
      std::cerr << "cannot parse " << pb << " as a TensorProto\n";
      return 1;
    }
    DType dt;
    std::string bytes, why;
    if (!tensorBytes(t, &dt, &bytes, &why)) {
      std::cerr << pb << ": " << why << "\n";
      return 1;
    }
    dt = declaredAs(dt, *inputs[i]);
    if (freeze && i > 0) {
      t.set_name(inputs[i]->name());
      if (dt == DType::BF16) t.set_data_type(onnx::TensorProto::BFLOAT16);
      frozen.push_back(std::move(t));
      continue;
    }
    asc::ir::Shape shape = dimsOf(t);
    if (bytes.size() != static_cast<size_t>(asc::ir::numElements(shape)) * asc::ir::dtypeSize(dt)) {
      std::cerr << fmt::format("{}: {} bytes of data for shape [{}]\n", pb, bytes.size(),
                               asc::ir::shapeToString(shape));
      return 1;
    }
    std::string dims;
    for (size_t k = 0; k < shape.size(); ++k) dims += (k ? "," : "") + std::to_string(shape[k]);
    shapes.push_back(inputs[i]->name() + ":" + dims);
    // .npy carries the dtype (msame checks it against the model); numpy has no bfloat16, so
    // those go as raw .bin.
    std::string path, out;
    if (dt == DType::BF16) {
      path = fmt::format("{}/input_{}.bin", work_dir, i);
      out = bytes;
    } else {
      path = fmt::format("{}/input_{}.npy", work_dir, i);
      asc::ir::Tensor tensor{dt, shape, asc::ir::Blob::copyOf(bytes.data(), bytes.size())};
      out = asc::tensorio::encodeNpy(tensor);
    }
    if (asc::Status st = asc::writeFileAtomic(path, out.data(), out.size()); !st) {
      std::cerr << st.toString() << "\n";
      return 1;
    }
    files.push_back(path);
  }
  if (!frozen.empty()) {
    // Every input but the first becomes an initializer holding the test's data.
    std::set<std::string> names;
    for (const auto& t : frozen) names.insert(t.name());
    auto* g = m.mutable_graph();
    google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> kept;
    for (const auto& in : g->input())
      if (!names.count(in.name())) *kept.Add() = in;
    g->mutable_input()->Swap(&kept);
    for (auto& t : frozen) *g->add_initializer() = std::move(t);
    const std::string path = work_dir + "/model.onnx";
    const std::string bytes = m.SerializeAsString();
    if (asc::Status st = asc::writeFileAtomic(path, bytes.data(), bytes.size()); !st) {
      std::cerr << st.toString() << "\n";
      return 1;
    }
    std::cout << "model\t" << path << "\n";
  }
  std::cout << "input_shape\t" << fmt::format("{}", fmt::join(shapes, ";")) << "\n";
  std::cout << "inputs\t" << fmt::format("{}", fmt::join(files, ",")) << "\n";
  return 0;
}

struct OutputDesc {
  std::string name, dtype, shape;
};

// "  output[0] y float32 [3,4] 48 bytes" lines of msame --debug true, read from the end so that
// a name may hold spaces or brackets.
std::map<int, OutputDesc> msameOutputs(const std::string& log_path) {
  std::map<int, OutputDesc> out;
  std::ifstream f(log_path);
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("  output[", 0) != 0) continue;
    const size_t close = line.find("] ", 9);
    const size_t rb = line.rfind(']');
    const size_t lb = rb == std::string::npos ? rb : line.rfind('[', rb);
    if (close == std::string::npos || lb == std::string::npos || lb <= close + 2) continue;
    const std::string head = line.substr(close + 2, lb - 1 - (close + 2));  // "<name> <dtype>"
    const size_t sp = head.rfind(' ');
    if (sp == std::string::npos) continue;
    OutputDesc d;
    d.name = head.substr(0, sp);
    d.dtype = head.substr(sp + 1);
    d.shape = line.substr(lb + 1, rb - lb - 1);
    out[std::atoi(line.c_str() + 9)] = d;
  }
  return out;
}

std::string findOutput(const std::string& dir, int i) {
  const std::string suffix = fmt::format("_output_{}.bin", i);
  std::string found;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d))
      if (endsWith(e->d_name, suffix)) found = dir + "/" + e->d_name;
    closedir(d);
  }
  return found;
}

int compare(const std::string& test_dir, const std::string& out_dir, const std::string& log) {
  const std::string data = test_dir + "/test_data_set_0";
  const int n = countFiles(data, "output");
  onnx::ModelProto m;
  if (!parseProto(test_dir + "/model.onnx", &m) || m.graph().output_size() != n) {
    std::cout << fmt::format("cannot parse {}/model.onnx, or it does not declare {} outputs\n",
                             test_dir, n);
    return 2;
  }
  auto described = msameOutputs(log);
  if (static_cast<int>(described.size()) != n) {
    std::cout << fmt::format("msame describes {} outputs, the test expects {}\n", described.size(),
                             n);
    return 1;
  }
  for (int i = 0; i < n; ++i) {
    onnx::TensorProto t;
    const std::string pb = fmt::format("{}/output_{}.pb", data, i);
    if (!parseProto(pb, &t)) {
      std::cout << "cannot parse " << pb << "\n";
      return 2;
    }
    DType dt;
    std::string want, why;
    if (!tensorBytes(t, &dt, &want, &why)) {
      std::cout << "expected output " << i << ": " << why << "\n";
      return 2;
    }
    dt = declaredAs(dt, m.graph().output(i));
    const asc::ir::Shape shape = dimsOf(t);
    const OutputDesc& d = described[i];
    if (d.dtype != asc::ir::dtypeName(dt)) {
      std::cout << fmt::format("output {} ('{}') is {}, expected {}\n", i, d.name, d.dtype,
                               asc::ir::dtypeName(dt));
      return 1;
    }
    if (d.shape != asc::ir::shapeToString(shape)) {
      std::cout << fmt::format("output {} ('{}') has shape [{}], expected [{}]\n", i, d.name,
                               d.shape, asc::ir::shapeToString(shape));
      return 1;
    }
    const std::string path = findOutput(out_dir, i);
    if (path.empty()) {
      std::cout << fmt::format("msame wrote no *_output_{}.bin in {}\n", i, out_dir);
      return 2;
    }
    std::string got;
    if (!readFile(path, &got)) {
      std::cout << "cannot read " << path << "\n";
      return 2;
    }
    if (got.size() != want.size()) {
      std::cout << fmt::format("output {} ('{}'): {} bytes, expected {} ({} x {})\n", i, d.name,
                               got.size(), want.size(), asc::ir::numElements(shape),
                               asc::ir::dtypeName(dt));
      return 1;
    }
    const uint64_t count = static_cast<uint64_t>(asc::ir::numElements(shape));
    if (count == 0) continue;
    asc::compare::TensorView mine{dt, reinterpret_cast<const uint8_t*>(got.data()), count};
    asc::compare::TensorView golden{dt, reinterpret_cast<const uint8_t*>(want.data()), count};
    asc::compare::CompareOptions co;
    co.metrics = {asc::compare::Metric::MaxAbsoluteError};
    // The ONNX backend test runner's tolerances (numpy's assert_allclose: NaN equals NaN);
    // integers and bools must match exactly.
    co.tolerance = asc::ir::isFloat(dt) ? asc::compare::Tolerance{1e-7, 1e-3, true}
                                        : asc::compare::Tolerance{0, 0, false};
    co.my_name = path;
    co.golden_name = pb;
    auto r = asc::compare::compareTensors(mine, golden, co);
    if (!r) {
      std::cout << "compare: " << r.status().message() << "\n";
      return 2;
    }
    if (!r->passed()) {
      asc::ir::Tensor a{dt, shape, asc::ir::Blob::copyOf(got.data(), got.size())};
      asc::ir::Tensor b{dt, shape, asc::ir::Blob::copyOf(want.data(), want.size())};
      const int64_t k = r->first_violation;
      // Integers print exactly (a double rounds int64 values past 2^53).
      auto show = [&](const asc::ir::Tensor& t) {
        return asc::ir::isFloat(dt)        ? fmt::format("{:g}", t.floatAt(k))
               : dt == asc::ir::DType::U64 ? std::to_string(static_cast<uint64_t>(t.intAt(k)))
                                           : std::to_string(t.intAt(k));
      };
      std::cout << fmt::format(
          "output {} ('{}', {}): {} of {} elements outside atol {:g} + rtol {:g}, max |diff| {:g}; "
          "first at {}: got {}, expected {}\n",
          i, d.name, asc::ir::dtypeName(dt), r->violations, count, co.tolerance.atol,
          co.tolerance.rtol, r->max_violation_diff, k, show(a), show(b));
      return 1;
    }
  }
  std::cout << "pass\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string cmd = argc > 1 ? argv[1] : "";
  if (cmd == "prepare" && argc == 4) return prepare(argv[2], argv[3], false);
  if (cmd == "prepare" && argc == 5 && std::string(argv[2]) == "--freeze")
    return prepare(argv[3], argv[4], true);
  if (cmd == "compare" && argc == 5) return compare(argv[2], argv[3], argv[4]);
  std::cerr << "usage: asc_onnx_tensor prepare [--freeze] <test_dir> <work_dir>\n"
               "       asc_onnx_tensor compare <test_dir> <msame_output_dir> <msame_log>\n";
  return 2;
}
