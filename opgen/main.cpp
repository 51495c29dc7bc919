// main.cpp: opgen, the operator project generator (msopgen's gen and compile).
#include <iostream>

#include "opgen.h"

int main(int argc, char** argv) { return asc::opgen_tool::main(argc, argv, std::cout); }
