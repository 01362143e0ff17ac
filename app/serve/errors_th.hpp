// errors_th.hpp - the server's error messages said in Thai, for the page in Thai (errors_th.cpp).
#pragma once

#include <string>

namespace mktb::cli {

// `english`, a message of the server's (the FEN's and the count's faults, tables not served),
// in Thai; a form not known keeps its English after a Thai word.
std::string errors_in_thai(const std::string& english);

} // namespace mktb::cli
