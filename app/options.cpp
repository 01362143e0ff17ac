// options.cpp - the parser and the help of the command tables (options.hpp).
#include "options.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <stdexcept>

#include "cli.hpp"

namespace mktb::cli {

namespace {

const Option* find(const Command& c, std::string_view name) {
    for (const Option& o : c.options)
        if (o.name == name) return &o;
    return nullptr;
}

// The parts one after the other (a chain of operator+ on literals trips gcc 12's -Wrestrict).
std::string cat(std::initializer_list<std::string_view> parts) {
    std::string out;
    for (std::string_view p : parts) out.append(p);
    return out;
}

std::string quoted(std::string_view s) { return cat({ "'", s, "'" }); }

// The error of `value` for option o, or empty when it fits.
std::string check(const Option& o, const std::string& value) {
    if (o.kind == Option::Kind::Number) {
        long long n = 0;
        const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
        if (ec != std::errc() || end != value.data() + value.size() || n < o.low || n > o.high)
            return cat({ o.name, " takes ", std::to_string(o.low), " to ", std::to_string(o.high),
                ", not ", quoted(value) });
    } else if (o.kind == Option::Kind::Bytes) {
        const std::optional<std::uint64_t> b = parse_bytes(value);
        if (!b || *b == 0)
            return cat({ o.name,
                " needs a whole number of bytes up to 2^64 - 1 (digits, then K M G T: powers of "
                "1024), got ",
                quoted(value) });
    }
    return {};
}

} // namespace

std::optional<Args> parse(
    const Command& command, std::span<const std::string_view> args, std::string* error) {
    Args a;
    a.command_ = &command;
    auto fail = [&](std::string e) {
        *error = std::move(e);
        return std::nullopt;
    };
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string_view arg = args[i];
        if (const Option* o = find(command, arg)) {
            std::vector<std::string>& values = a.values_[std::string(o->name)];
            if (o->kind == Option::Kind::Flag) {
                values.assign(1, {});
                continue;
            }
            if (o->kind == Option::Kind::Rest) {
                values.assign(args.begin() + long(i) + 1, args.end());
                if (values.empty()) return fail(cat({ o->name, " needs ", o->value }));
                break;
            }
            if (i + 1 >= args.size()) return fail(cat({ o->name, " needs ", o->value }));
            std::string value(args[++i]);
            if (std::string e = check(*o, value); !e.empty()) return fail(e);
            if (!o->repeat) values.clear();
            values.push_back(std::move(value));
        } else if (is_rule_option(arg)) {
            if (!command.rules)
                return fail(cat({ quoted(arg), " is not an option of mktb ", command.name,
                    " (it takes no counting options)" }));
            try {
                apply_rule_option(arg, i + 1 < args.size() ? args[++i] : "", a.rules_);
            } catch (const std::invalid_argument& e) {
                return fail(e.what());
            }
        } else if (arg.starts_with("--")) {
            bool elsewhere = false; // an option of another command
            for (const Command* c : commands()) elsewhere |= c != &command && find(*c, arg);
            std::vector<std::string_view> own;
            for (const Option& x : command.options) own.push_back(x.name);
            return fail(elsewhere
                    ? cat({ quoted(arg), " is not an option of mktb ", command.name })
                    : cat({ "unknown option ", quoted(arg), did_you_mean(arg, own) }));
        } else if (command.operands >= 0 && int(a.operands_.size()) >= command.operands) {
            return fail(
                cat({ "unexpected argument ", quoted(arg), command.operand.empty() ? "" : " (",
                    command.operand, command.operand.empty() ? "" : ")" }));
        } else
            a.operands_.emplace_back(arg);
    }
    return a;
}

const std::vector<std::string>* Args::values(std::string_view name) const {
    if (!find(*command_, name))
        throw std::logic_error(cat({ "mktb ", command_->name, " has no option ", name }));
    const auto it = values_.find(name);
    return it == values_.end() ? nullptr : &it->second;
}

bool Args::has(std::string_view name) const { return values(name) != nullptr; }

std::string Args::text(std::string_view name, std::string fallback) const {
    const auto* v = values(name);
    return v && !v->empty() ? v->back() : fallback;
}

long long Args::number(std::string_view name, long long fallback) const {
    const auto* v = values(name);
    return v && !v->empty() ? std::stoll(v->back()) : fallback;
}

std::uint64_t Args::bytes(std::string_view name, std::uint64_t fallback) const {
    const auto* v = values(name);
    return v && !v->empty() ? *parse_bytes(v->back()) : fallback;
}

const std::vector<std::string>& Args::texts(std::string_view name) const {
    static const std::vector<std::string> kNone;
    const auto* v = values(name);
    return v ? *v : kNone;
}

std::string Args::tables() const { return text("--tables", default_tables_dir()); }

std::optional<std::uint64_t> parse_bytes(std::string_view text) {
    // DIGITS[.DIGITS][K|M|G|T][B]: no sign, exponent or hexadecimal, a whole number of bytes,
    // at most 2^64 - 1 (exact integer arithmetic: no double rounds it into range).
    __extension__ using Wide = unsigned __int128;
    std::size_t at = 0;
    Wide whole = 0, fraction = 0, fractionScale = 1;
    const auto digit
        = [&](std::size_t i) { return i < text.size() && text[i] >= '0' && text[i] <= '9'; };
    if (!digit(0)) return std::nullopt;
    for (; digit(at); ++at) {
        whole = whole * 10 + unsigned(text[at] - '0');
        if (whole > ~std::uint64_t(0)) return std::nullopt;
    }
    if (at < text.size() && text[at] == '.') {
        if (!digit(++at)) return std::nullopt;
        for (; digit(at); ++at) {
            if (fractionScale > std::uint64_t(1e18)) return std::nullopt; // 18 decimals at most
            fraction = fraction * 10 + unsigned(text[at] - '0');
            fractionScale *= 10;
        }
    }
    std::string unit(text.substr(at));
    if (!unit.empty() && (unit.back() == 'B' || unit.back() == 'b')) unit.pop_back();
    static const std::string kUnits = "KMGT";
    Wide scale = 1;
    if (!unit.empty()) {
        const std::size_t power = unit.size() == 1
            ? kUnits.find(char(std::toupper(static_cast<unsigned char>(unit[0]))))
            : std::string::npos;
        if (power == std::string::npos) return std::nullopt;
        scale = Wide(1) << (10 * (power + 1));
    }
    if ((fraction * scale) % fractionScale) return std::nullopt; // a fraction of a byte
    const Wide bytes = whole * scale + fraction * scale / fractionScale;
    if (bytes > ~std::uint64_t(0)) return std::nullopt;
    return std::uint64_t(bytes);
}

namespace {

constexpr std::size_t kColumn = 35; // where the summaries start

// One command's entry in the usage: its forms, then what it does in the right column.
std::string entry(const Command& c) {
    std::vector<std::string> left, right;
    for (std::size_t at = 0; at < c.usage.size();) {
        const std::size_t end = std::min(c.usage.find('\n', at), c.usage.size());
        const std::string_view line = c.usage.substr(at, end - at);
        // A form's continuation (indented in the table) stays under it.
        left.push_back(
            line.starts_with(" ") ? cat({ "    ", line }) : cat({ "  ", c.name, " ", line }));
        at = end + 1;
    }
    for (std::size_t at = 0; at < c.summary.size();) {
        const std::size_t end = std::min(c.summary.find('\n', at), c.summary.size());
        right.emplace_back(c.summary.substr(at, end - at));
        at = end + 1;
    }
    std::string out;
    std::size_t r = 0;
    for (std::size_t l = 0; l < left.size(); ++l) {
        out += left[l];
        if (l + 1 == left.size() && left[l].size() + 1 < kColumn && r < right.size())
            out.append(kColumn - left[l].size(), ' ').append(right[r++]);
        out += '\n';
    }
    for (; r < right.size(); ++r) out.append(kColumn, ' ').append(right[r]).append("\n");
    return out;
}

constexpr std::string_view kNotes = R"(DIR defaults to $MKTB_TABLES, else ./tables.
Exit codes: 0 done, 1 failed (missing or damaged table, verification mismatch),
2 bad input, 3 no table for the material (probe).
)";

std::string rules_help() {
    std::string out = "RULES: the counting options (docs/rules.md §4), defaults first "
                      "(Fairy-Stockfish's):\n";
    std::string line = " ";
    for (const RuleOptionInfo& o : kRuleOptions) {
        std::string flag(o.name);
        for (char& ch : flag) ch = ch == '_' ? '-' : ch;
        const std::string item = cat({ " --", flag, " ", o.default_value, "|", o.alternative });
        if (line.size() + item.size() > 80) out.append(line).append("\n"), line.resize(1);
        line += item;
    }
    return out.append(line).append(
        "\nA table records the options it was built with; probing it with others is refused.\n");
}

} // namespace

std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& known) {
    // Levenshtein distance, the nearest within 2 edits (and under half the word).
    std::string_view best;
    std::size_t bestDistance = 3;
    for (std::string_view k : known) {
        std::vector<std::size_t> row(k.size() + 1);
        for (std::size_t j = 0; j <= k.size(); ++j) row[j] = j;
        for (std::size_t i = 1; i <= word.size(); ++i) {
            std::size_t diagonal = row[0];
            row[0] = i;
            for (std::size_t j = 1; j <= k.size(); ++j) {
                const std::size_t up = row[j];
                row[j] = std::min(
                    { row[j] + 1, row[j - 1] + 1, diagonal + (word[i - 1] == k[j - 1] ? 0 : 1) });
                diagonal = up;
            }
        }
        if (row[k.size()] < bestDistance && 2 * row[k.size()] < word.size())
            bestDistance = row[k.size()], best = k;
    }
    return best.empty() ? "" : " (did you mean '" + std::string(best) + "'?)";
}

std::string version_line() {
    return std::string("mktb ") + MKTB_VERSION_TEXT + " (Makruk and Xiangqi endgame tablebases)\n";
}

std::string usage(std::span<const Command* const> all) {
    std::string out = "usage: mktb <command> [arguments]\n\ncommands:\n";
    for (const Command* c : all) out += entry(*c);
    return out.append("\n").append(kNotes).append(rules_help());
}

std::string command_forms(const Command& c) {
    const std::string forms = entry(c);
    // "  gen ..." -> "usage: mktb gen ...", further forms "       mktb ...".
    std::string out;
    bool first = true;
    for (std::size_t at = 0; at < forms.size();) {
        const std::size_t end = forms.find('\n', at) + 1;
        const std::string line = forms.substr(at, end - at);
        if (line.starts_with(cat({ "  ", c.name, " " })))
            out += cat(
                { first ? "usage: mktb " : "       mktb ", std::string_view(line).substr(2) }),
                first = false;
        else
            out += line;
        at = end;
    }
    return out;
}

std::string command_help(const Command& c) {
    std::string out = command_forms(c);
    if (!c.options.empty()) {
        out += "\noptions:\n";
        for (const Option& o : c.options) {
            std::string left = cat({ "  ", o.name, o.value.empty() ? "" : " ", o.value });
            out += left;
            if (left.size() + 1 < kColumn)
                out.append(kColumn - left.size(), ' ');
            else
                out.append("\n").append(kColumn, ' ');
            out.append(o.help).append("\n");
        }
    }
    // The tables' line only where the command reads or writes tables (perft reads none).
    const bool tables = std::any_of(c.options.begin(), c.options.end(),
        [](const Option& o) { return o.name == "--tables" || o.name == "--out"; });
    if (tables)
        out.append("\n").append(kNotes);
    else
        out.append("\nExit codes: 0 done, 1 failed, 2 bad input.\n");
    if (c.rules) out += rules_help();
    return out;
}

} // namespace mktb::cli
