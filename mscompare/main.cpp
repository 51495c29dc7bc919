// main.cpp: mscompare, layer-by-layer precision comparison (x = my data, y = golden).
#include <iostream>

#include "mscompare.h"

int main(int argc, char** argv) { return asc::mscompare::main(argc, argv, std::cout); }
