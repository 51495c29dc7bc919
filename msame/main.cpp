// main.cpp: msame, the model executor (runs .om and .onnx models on the CPU runtime).
#include <iostream>

#include "asc/cli/common.h"

#include "msame.h"

int main(int argc, char** argv) {
  asc::cli::boundOpenMpSpin(argv);  // before any OpenMP work: see asc/cli/common.h
  return asc::msame::main(argc, argv, std::cout);
}
