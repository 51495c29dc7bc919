// main.cpp: the Catch2 entry point of asc_unit_tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
