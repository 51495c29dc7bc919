// main.cpp: msame, the model executor (runs .om and .onnx models on the CPU runtime).
#include <iostream>

#include "msame.h"

int main(int argc, char** argv) { return asc::msame::main(argc, argv, std::cout); }
