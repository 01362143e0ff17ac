// tables.hpp - the tables the generator tests share: every ending up to 4 men, generated once per
// CTest run by the fixture test "generate tables up to 4 men" (mktb gen --men 4), or here in
// process when the test binary runs on its own.
#pragma once

#include <string>

#include "generator.hpp"

namespace mktb::test {

// The directory holding every table up to 4 men (generated now if any is missing).
const std::string& tables_up_to_4_men();

// Generates `m` and what it converts into, into `dir` (skipping tables already there).
TableStats generate_with_children(
    const std::string& dir, const Material& m, const GenOptions& options = {});

Material material(const char* name);

// An empty directory under the system's temporary directory, named after `name` and the process.
std::string temp_dir(const std::string& name);

} // namespace mktb::test
