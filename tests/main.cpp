// main.cpp - Catch2's main for the mktb test binary.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
