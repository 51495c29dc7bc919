// main.cpp: atc, the Ascend Tensor Compiler command (ONNX -> offline model).
#include <iostream>

#include "atc.h"

int main(int argc, char** argv) { return asc::atc::main(argc, argv, std::cout); }
