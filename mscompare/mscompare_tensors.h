// mscompare_tensors.h: one tensor on one side of a comparison (private to mscompare): what a
// file name says (a dump, a golden .npy, an msame output, a plain tensor file), and the tensor
// read from it (mscompare_tensors.cpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "asc/compare/metrics.h"
#include "asc/tensorio/dump_file.h"
#include "asc/tensorio/tensor_file.h"

namespace asc::mscompare {

enum class Kind { Dump, Npy, Bin, Txt };

// One tensor on one side.
struct Entry {
  std::string key;      // matching key: sanitized op name (or msame output stem)
  std::string op;       // op name as shown
  std::string op_type;  // from the dump name or the fusion rule
  bool input = false;   // a dump input (TensorIndex <op>:input:<n>), else an output
  int index = 0;        // output (or input) index
  std::string path;
  Kind kind = Kind::Bin;
  uint64_t timestamp = 0;   // from the name (dumps, golden .npy) or the file's mtime (ns)
  std::string original_op;  // a dump output's OriginalOp name, if any
  int original_index = 0;
};

// A tensor ready for compare::compareTensors, with what keeps its bytes alive. A dump tensor
// also carries its device layout until toOrigin() converts it.
struct Loaded {
  compare::TensorView view;
  ir::Shape shape;
  uint64_t address = 0;
  bool has_address = false;
  std::shared_ptr<const void> keep;
  ir::Tensor stored;  // dump tensors only: as stored
  int format = tensorio::kFormatND, original_format = 0;
  ir::Shape original_shape;
};

inline const char* kindName(const Entry& e) { return e.input ? "input" : "output"; }

// The dump file last read on one side: a dump's outputs are compared one after another, and
// parsing its header once per output would be quadratic in the number of outputs.
struct DumpCache {
  std::string path;
  std::shared_ptr<const tensorio::DumpData> dump;
};

bool allDigits(const std::string& s);
uint64_t mtimeNs(const std::string& path);
bool parseMsameName(const std::string& stem, std::string* name, int* index);
Status classify(const std::string& path, bool loose, std::vector<Entry>* out);
Result<ir::DType> parseDtype(const std::string& s);
Result<Loaded> load(const Entry& e, ir::DType raw_dtype, DumpCache* cache);
Status toOrigin(const Entry& e, Loaded* l);

}  // namespace asc::mscompare
