// mktb/errors.hpp - the exceptions the C++ probing API and the tools throw about table files.
#pragma once

#include <stdexcept>

namespace mktb {

// A table file that is missing a part, damaged (checksum) or of another version or ending.
class TableError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};
// A table built with other counting options than those asked for.
class RulesError : public TableError {
public:
    using TableError::TableError;
};

} // namespace mktb
