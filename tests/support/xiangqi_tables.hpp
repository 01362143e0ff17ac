// support/xiangqi_tables.hpp - the Xiangqi tables the tests share: every ending of a fixed
// list and what they convert into, generated once (under the default rule set) into one
// directory, whichever test asks first.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "support/tables.hpp"
#include "xiangqi/generate.hpp"

namespace mktb::test {

inline const std::string& xiangqi_tables() {
    static const std::string dir = [] {
        const std::string d = temp_dir("xiangqi");
        const xq::Tablebase tb(d);
        std::vector<xq::Material> order;
        // Armless defenders, and both sides armed (the perpetual-check pass).
        for (const char* name : { "KRvKAABB", "KNvKA", "KNvKBB", "KCAvK", "KPvKA", "KPAvKB",
                 "KCBvKA", "KNABvKA", "KPvKAB", "KRvKN", "KRvKC", "KNvKP", "KCvKP" })
            for (const xq::Material& m :
                xq::with_descendants(xq::Material::parse(name)->canonical()))
                if (std::find(order.begin(), order.end(), m) == order.end()) order.push_back(m);
        std::sort(order.begin(), order.end(),
            [](const xq::Material& a, const xq::Material& b) { return a.men() < b.men(); });
        for (const xq::Material& m : order)
            if (!std::filesystem::exists(xq::table_path(d, m))) xq::generate(m, tb, nullptr);
        return d;
    }();
    return dir;
}

} // namespace mktb::test
