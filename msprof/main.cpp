// main.cpp: msprof, the profiler (runs a command with libasccore's tracing on, writes PROF_*).
#include <iostream>

#include "msprof.h"

int main(int argc, char** argv) { return asc::msprof::main(argc, argv, std::cout, std::cerr); }
