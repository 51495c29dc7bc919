// asc_msame_fault: msame with a planted fault, for tests of the precision workflow
// (scripts/precision-check.sh MSAME=... FAULT_NODE=...). Built only with the tests; the released
// tools and libasccore have no fault injection.
//
//   ASC_FAULT_NODE=<node name> asc_msame_fault <msame options>
//
// After the named node's outputs are final in each run, flips the sign of every third element
// (the low bit of every third element for integer tensors), so cosine similarity drops, not
// only the scale, and writes them back (Session::writeValue): the later layers, the dumps and
// the outputs all see the fault. Fails (exit 1) when ASC_FAULT_NODE is unset or names no node.
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "asc/ir/dtype.h"
#include "asc/runtime/session.h"
#include "msame.h"

namespace {

using namespace asc;

class FaultObserver : public runtime::StepObserver {
 public:
  FaultObserver(runtime::Session& session, std::string node)
      : session_(session), node_(std::move(node)) {}

  void onStep(const runtime::Session&, const runtime::StepEvent& e) override {
    if (!e.completes) return;
    for (const ir::Node* n : *e.completes) {
      if (n->name != node_) continue;
      ++hits_;
      for (const ir::Value* v : n->outputs) {
        if (!v) continue;
        std::vector<uint8_t> buf(v->byteSize());
        if (!session_.readValue(v, buf.data()) || !perturb(buf, v->dtype) ||
            !session_.writeValue(v, buf.data()))
          failed_ = true;
      }
    }
  }
  int hits() const { return hits_; }
  bool failed() const { return failed_; }

 private:
  static bool perturb(std::vector<uint8_t>& b, ir::DType t) {
    const size_t es = ir::dtypeSize(t);
    if (es == 0) return false;
    const bool is_float =
        t == ir::DType::F32 || t == ir::DType::F64 || t == ir::DType::F16 || t == ir::DType::BF16;
    for (size_t i = 0; (i + 1) * es <= b.size(); i += 3) {
      if (is_float)
        b[i * es + es - 1] ^= 0x80;  // little-endian sign bit
      else
        b[i * es] ^= 1;
    }
    return true;
  }

  runtime::Session& session_;
  std::string node_;
  int hits_ = 0;
  bool failed_ = false;
};

}  // namespace

int main(int argc, char** argv) {
  const char* node = std::getenv("ASC_FAULT_NODE");
  if (!node || !*node) {
    std::cerr << "asc_msame_fault: set ASC_FAULT_NODE to the name of the node whose outputs to "
                 "corrupt\n";
    return 1;
  }
  std::unique_ptr<FaultObserver> observer;
  asc::msame::Hooks hooks;
  hooks.observer = [&](asc::runtime::Session& s) {
    observer = std::make_unique<FaultObserver>(s, node);
    return observer.get();
  };
  int status = asc::msame::main(argc, argv, std::cout, hooks);
  if (status != 0) return status;
  if (!observer || observer->hits() == 0) {
    std::cerr << "asc_msame_fault: no node named '" << node << "' ran (ASC_FAULT_NODE)\n";
    return 1;
  }
  if (observer->failed()) {
    std::cerr << "asc_msame_fault: could not rewrite the outputs of '" << node << "'\n";
    return 1;
  }
  std::cerr << "asc_msame_fault: corrupted the outputs of '" << node << "' in " << observer->hits()
            << " run(s)\n";
  return 0;
}
