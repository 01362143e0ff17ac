// cmd_serve.cpp - `mktb serve`: one process that answers the HTTP API (JSON, docs/api.md) and
// serves the web page (web/) with its board diagrams (/board.svg, drawn by diagram.cpp).
// Tables are read only through the public probing API; every handler is const on the Probers,
// so requests run on httplib's thread pool without locks of ours. No request may end the
// process: text that is not UTF-8 is refused with 400 before any handler sees it, JSON is
// written with invalid bytes replaced, and a request must arrive whole within a deadline.
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <httplib.h>
#include <map>
#include <mutex>
#include <pthread.h>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "answer.hpp"
#include "cli.hpp"
#include "diagram.hpp"
#include "engine_advice.hpp"
#include "errors_th.hpp"
#include "guarded_http.hpp"
#include "mktb/movegen.hpp"
#include "notation.hpp"
#include "table_sets.hpp"
#include "tablebase.hpp"
#include "web_assets.hpp"
#include "writing.hpp"
#include "xiangqi/generate.hpp"
#include "xiangqi_answer.hpp"

namespace mktb::cli {

namespace {

void reply_json(httplib::Response& res, int status, const Json& body) {
    res.status = status;
    res.set_header("Access-Control-Allow-Origin", "*");
    res.set_content(dump(body), "application/json");
}

// What of a request is not UTF-8 ("the path", "parameter 'fen'"), or empty.
std::string non_utf8_part(const httplib::Request& req) {
    if (!valid_utf8(req.method)) return "the method";
    if (!valid_utf8(req.path)) return "the path";
    for (const auto& [key, value] : req.params) {
        if (!valid_utf8(key)) return "a parameter's name";
        if (!valid_utf8(value)) return "parameter '" + key + "'";
    }
    return {};
}

void reply_error(
    httplib::Response& res, int status, const std::string& message, Lang lang = Lang::En) {
    reply_json(
        res, status, Json { { "error", lang == Lang::Th ? errors_in_thai(message) : message } });
}

// A request's parameters, checked against those the endpoint takes: an error message or empty.
// A yes-or-no parameter ("1"/"true", "0"/"false", absent: no) into `out`; an error or empty.
std::string flag_param(const httplib::Request& req, const char* name, bool& out) {
    const std::string v = req.get_param_value(name);
    if (!v.empty() && v != "0" && v != "1" && v != "true" && v != "false")
        return std::string(name) + " takes 1 or 0, not '" + v + "'";
    out = v == "1" || v == "true";
    return {};
}

// The language of the words for people (`lang`: en, the default, or th) into `out`.
std::string lang_param(const httplib::Request& req, Lang& out) {
    const std::string v = req.get_param_value("lang");
    if (!v.empty() && v != "en" && v != "th") return "lang takes en or th, not '" + v + "'";
    out = v == "th" ? Lang::Th : Lang::En;
    return {};
}

std::string check_params(const httplib::Request& req, std::initializer_list<std::string_view> own) {
    for (const auto& [key, value] : req.params) {
        bool known = find_rule_option(key).has_value();
        for (std::string_view k : own) known |= key == k;
        if (!known) return "unknown parameter '" + key + "'";
    }
    return {};
}

// A file's size; nullopt when it is gone (a table deleted while served).
std::optional<std::uintmax_t> size_of(const std::string& path) {
    std::error_code ec;
    const std::uintmax_t bytes = std::filesystem::file_size(path, ec);
    return ec ? std::nullopt : std::optional(bytes);
}

class Server {
public:
    // The most men `mktb gen` makes tables of on one machine (docs/six-men.txt).
    static constexpr int kGeneratedMen = 6;

    explicit Server(TableSets tables, std::unique_ptr<EngineAdvice> engine = nullptr)
        : tables_(std::make_shared<const TableSets>(std::move(tables)))
        , engine_(std::move(engine)) { }

    // Tables that appeared, changed or went since the last look: the directories opened again
    // and answered from for every request after. A file still being written is no table yet
    // (the writer renames NAME.mktb.tmp when it is whole). Prints what changed.
    void reload(const std::vector<std::string>& dirs) {
        TableSets fresh;
        const std::string error = fresh.open(dirs, Tablebase::kDefaultCacheBytes);
        if (!error.empty()) {
            std::fprintf(
                stderr, "mktb serve: the tables changed, kept as they were: %s\n", error.c_str());
            return;
        }
        const std::shared_ptr<const TableSets> old = tables_.load();
        for (const TableSet& s : fresh.sets()) {
            const TableSet* before = old->find(s.rules);
            std::string added;
            for (const Material& m : s.endings)
                if (!before
                    || std::find(before->endings.begin(), before->endings.end(), m)
                        == before->endings.end())
                    added.append(" ").append(m.name());
            if (!added.empty())
                std::printf("mktb serve: new tables in %s:%s\n", s.dir.c_str(), added.c_str());
            for (const std::string& why : s.left_out)
                if (!before
                    || std::find(before->left_out.begin(), before->left_out.end(), why)
                        == before->left_out.end())
                    std::fprintf(stderr, "mktb serve: left out (the other tables answer): %s\n",
                        why.c_str());
        }
        std::fflush(stdout);
        tables_.store(std::make_shared<const TableSets>(std::move(fresh)));
    }

    void routes(GuardedHttp& http) {
        http.Get("/api/probe", [this](const auto& req, auto& res) { probe(req, res); });
        http.Get("/api/endings", [this](const auto& req, auto& res) { endings(req, res, {}); });
        http.Get("/api/rules", [this](const auto& req, auto& res) { served_rules(req, res); });
        http.Get(R"(/api/endings/([A-Za-z]+))",
            [this](const auto& req, auto& res) { endings(req, res, req.matches[1]); });
        http.Get("/board.svg", [](const auto& req, auto& res) { board(req, res); });
        // A man for palettes: Makruk's, or with ?game=xiangqi Xiangqi's (&letters=1: its letter).
        http.Get(R"(/man/([A-Za-z])\.svg)", [](const auto& req, auto& res) {
            try {
                const char letter = req.matches[1].str()[0];
                res.set_content(req.get_param_value("game") == "xiangqi"
                        ? xiangqi_man_svg(letter, req.get_param_value("letters") == "1")
                        : man_svg(letter),
                    "image/svg+xml");
            } catch (const std::invalid_argument& e) {
                reply_error(res, 404, e.what());
            }
        });
        for (const WebAsset& a : kWebAssets)
            http.Get(a.path,
                [&a](const auto&, auto& res) { res.set_content(std::string(a.body), a.type); });
        http.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
            if (!res.body.empty()) return;
            if (res.status == 414) // httplib parses no more of such a request
                return reply_error(res, 414, "the path is too long (at most 8192 bytes)");
            if (res.status == 400)
                return reply_error(
                    res, 400, "a malformed request (its first line must be METHOD PATH HTTP/1.1)");
            reply_error(res, res.status, "no such page: " + req.method + " " + req.path);
        });
        // Before any handler (and before the 404 of an unknown path, and before httplib reads
        // a body) the method and the text are checked. HEAD is answered as GET.
        http.set_pre_routing_handler([](const httplib::Request& req, httplib::Response& res) {
            if (req.method != "GET" && req.method != "HEAD") {
                res.set_header("Allow", "GET, HEAD");
                reply_error(res, 405, req.method + " is not allowed here: only GET (and HEAD)");
                return httplib::Server::HandlerResponse::Handled;
            }
            if (const std::string part = non_utf8_part(req); !part.empty()) {
                reply_error(res, 400, part + " is not valid UTF-8");
                return httplib::Server::HandlerResponse::Handled;
            }
            return httplib::Server::HandlerResponse::Unhandled;
        });
        http.set_exception_handler([](const auto&, auto& res, std::exception_ptr e) {
            std::string what = "internal error";
            try {
                std::rethrow_exception(e);
            } catch (const std::exception& x) {
                what += std::string(": ") + x.what();
            } catch (...) { }
            reply_error(res, 500, what);
        });
    }

private:
    // The directory whose tables were built under the rules the request asks for (the defaults
    // for every option it does not name); nullptr with `error` set otherwise.
    const TableSet* select(const TableSets& tables, const httplib::Request& req, int& status,
        std::string& error) const {
        CountRules rules;
        for (const auto& [key, value] : req.params)
            if (find_rule_option(key)) {
                if (std::string e = set_rule_option(rules, key, value); !e.empty()) {
                    status = 400, error = e;
                    return nullptr;
                }
            }
        if (const TableSet* s = tables.find(rules)) return s;
        // In words, the page's language: the options' names are not for people.
        Lang lang = Lang::En;
        (void)lang_param(req, lang);
        std::string served;
        for (const TableSet& t : tables.sets())
            served += (served.empty() ? "" : "; ") + rules_words(t.rules, lang);
        status = 404;
        error = lang == Lang::Th
            ? "ไม่มีตารางที่สร้างตาม " + rules_words(rules, lang) + " เปิดอยู่; ที่เปิดอยู่: " + served
            : "no tables built under " + rules_words(rules, lang)
                + " are served; served: " + served;
        return nullptr;
    }

    void probe(const httplib::Request& req, httplib::Response& res) const {
        if (std::string e = check_params(req, { "fen", "count", "line", "lang", "rules" });
            !e.empty())
            return reply_error(res, 400, e);
        Lang lang = Lang::En;
        if (std::string e = lang_param(req, lang); !e.empty()) return reply_error(res, 400, e);
        int status = 0;
        std::string error;
        const std::shared_ptr<const TableSets> tables = tables_.load(); // for this request
        std::string fen = req.get_param_value("fen");
        if (fen.empty()) return reply_error(res, 400, "missing parameter 'fen'");
        for (char& c : fen)
            if (c == '_') c = ' ';
        if (xq::Position::is_xiangqi_fen(fen)) return probe_xiangqi(req, res, *tables, fen, lang);
        if (req.has_param("rules"))
            return reply_error(res, 400,
                "'rules' names Xiangqi's repetition rules; Makruk's counting options are "
                "parameters of their own",
                lang);
        const TableSet* s = select(*tables, req, status, error);
        if (!s) return reply_error(res, status, error);
        Position pos;
        try {
            pos = Position::from_fen(fen);
        } catch (const FenError& e) {
            return reply_error(res, 400, std::string("bad FEN: ") + e.what(), lang);
        }
        CountState count;
        if (std::string e = count_to_follow(req.get_param_value("count"), pos, s->rules, count);
            !e.empty())
            return reply_error(res, 400, "count: " + e, lang);
        bool line = false;
        if (std::string e = flag_param(req, "line", line); !e.empty())
            return reply_error(res, 400, e);
        try {
            const std::optional<Json> answer = answer_json(*s->prober, pos, count, line, lang);
            if (!answer) return beyond_tables(res, *s, pos, count, lang);
            reply_json(res, 200, *answer);
        } catch (const TableError& e) {
            reply_error(res, 500, e.what()); // a damaged table: reported, never answered
        }
    }

    // /api/probe of a Xiangqi FEN (ten ranks): the answer of `mktb probe --json` for it (the
    // shape of Makruk's, "game": "xiangqi"), each move with its WXF notation too. The counting
    // parameters do not apply and are refused.
    void probe_xiangqi(const httplib::Request& req, httplib::Response& res, const TableSets& tables,
        const std::string& fen, Lang lang) const {
        const auto said = [lang](const std::string& english) {
            return lang == Lang::Th ? errors_in_thai(english) : english;
        };
        for (const auto& [key, value] : req.params)
            if (key == "count" || find_rule_option(key))
                return reply_error(res, 400,
                    "'" + key + "' is a Makruk counting parameter; Xiangqi has no count", lang);
        xq::Position pos;
        try {
            pos = xq::Position::from_fen(fen);
        } catch (const FenError& e) {
            return reply_error(res, 400, std::string("bad Xiangqi FEN: ") + e.what(), lang);
        }
        bool line = false;
        if (std::string e = flag_param(req, "line", line); !e.empty())
            return reply_error(res, 400, e);
        xq::RuleSet rules = xq::kDefaultRuleSet;
        if (req.has_param("rules") && !xq::parse_rule_set(req.get_param_value("rules"), &rules))
            return reply_error(res, 400,
                "rules takes " + xq::rule_set_choices() + ", not '" + req.get_param_value("rules")
                    + "'",
                lang);
        const TableSet* s = tables.find(xq::Material::of(pos), rules);
        const xq::Material m = xq::Material::of(pos).canonical();
        const std::string rulesOption = rules == xq::kDefaultRuleSet
            ? ""
            : " --rules " + std::string(xq::rule_set(rules).name);
        // What the page needs to say what is missing and how to make it, as for Makruk.
        const auto missing = [&](const std::string& error) {
            Json body { { "error", said(error) }, { "game", "xiangqi" }, { "material", m.name() },
                { "men", m.men() }, { "can_generate", false },
                { "rule_set", std::string(xq::rule_set(rules).name) },
                { "command", "mktb gen --game xiangqi" + rulesOption + " " + m.name() } };
            try {
                body["can_generate"] = xq::memory_needed(m, 1, rules) <= available_memory();
            } catch (const std::exception&) { // an index too large to size
            }
            reply_json(res, 404, body);
        };
        if (!s)
            return missing("no Xiangqi tables are served (make them: mktb gen --game xiangqi"
                + rulesOption + " " + m.name() + ")");
        if (s->xiangqi_rules != rules && !m.armless(xq::RED) && !m.armless(BLACK)) {
            std::string served;
            for (xq::RuleSet r : tables.xiangqi_rules())
                served += (served.empty() ? "" : ", ") + std::string(xq::rule_set(r).name);
            return missing("no Xiangqi tables of the rules " + std::string(xq::rule_set(rules).name)
                + " are served (served: " + served + "; make them: mktb gen --game xiangqi"
                + rulesOption + " --tables DIR " + m.name() + ")");
        }
        try {
            std::optional<XAnswer> a = xiangqi_answer(*s->prober, pos);
            if (a) a->rules = rules; // where the set's are others, the ending follows every set
            if (!a)
                return missing(
                    "no Xiangqi table for " + m.name() + " or an ending it converts into");
            reply_json(res, 200, xiangqi_json(*s->prober, pos, *a, line, lang));
        } catch (const TableError& e) {
            reply_error(res, 500, e.what()); // a damaged table: reported, never answered
        }
    }

    // A position no table answers (404): what the tables served hold, whether mktb gen could
    // make the missing ones, and, with --engine, the engine's word on it, marked as such.
    void beyond_tables(httplib::Response& res, const TableSet& s, Position pos, CountState count,
        Lang lang) const {
        const Material m = Material::of(pos).canonical();
        int largest = 0;
        for (const Material& e : s.endings) largest = std::max(largest, e.men());
        // Complete up to one man fewer than the smallest ending missing (bare kings need none).
        int complete = std::max(largest, 2);
        for (const Material& e : all_materials(largest))
            if (std::find(s.endings.begin(), s.endings.end(), e) == s.endings.end())
                complete = std::min(complete, e.men() - 1);
        complete = std::max(complete, 2);
        const int beyond = int(std::count_if(s.endings.begin(), s.endings.end(),
            [&](const Material& e) { return e.men() > complete; }));
        std::string held = complete >= 3 ? "every ending up to " + std::to_string(complete) + " men"
                                         : "no complete set of endings";
        if (beyond)
            held += " and " + std::to_string(beyond) + (beyond == 1 ? " ending" : " endings")
                + " of more men (up to " + std::to_string(largest) + ")";
        const std::string error = "no table for " + m.name()
            + " or an ending it converts into; the tables served hold " + held;
        Json body { { "error", lang == Lang::Th ? errors_in_thai(error) : error },
            { "material", m.name() }, { "men", m.men() },
            { "tables",
                { { "complete_up_to", complete }, { "largest", largest },
                    { "endings", s.endings.size() } } },
            { "can_generate", m.men() <= kGeneratedMen }, { "command", "mktb gen " + m.name() } };
        if (engine_) {
            pos.set_count_state(count);
            std::optional<Json> advice = engine_->advise(pos);
            if (advice && advice->contains("bestmove") && (*advice)["bestmove"].is_string())
                if (const Move mv = parse_uci_move(pos, (*advice)["bestmove"].get<std::string>());
                    mv != MOVE_NONE)
                    (*advice)["san"] = san(pos, mv);
            body["engine"] = advice ? *advice : Json { { "gone", true } };
        }
        reply_json(res, 404, body);
    }

    // GET /api/rules: the rule sets the served tables were built under, each with its options'
    // values and in words: what the page offers.
    void served_rules(const httplib::Request& req, httplib::Response& res) const {
        if (std::string e = check_params(req, { "lang" }); !e.empty())
            return reply_error(res, 400, e);
        Lang lang = Lang::En;
        if (std::string e = lang_param(req, lang); !e.empty()) return reply_error(res, 400, e);
        Json served = Json::array();
        for (const TableSet& s : tables_.load()->sets()) {
            if (!s.makruk()) continue; // Xiangqi's tables have no counting rules
            Json options = Json::object();
            for (std::size_t i = 0; i < kRuleOptions.size(); ++i)
                options[std::string(kRuleOptions[i].name)]
                    = std::string(s.rules.has(RuleOption(i)) ? kRuleOptions[i].alternative
                                                             : kRuleOptions[i].default_value);
            served.push_back({ { "rules", describe(s.rules) },
                { "words", rules_words(s.rules, lang) }, { "options", std::move(options) } });
        }
        // Xiangqi's repetition rules, one entry per set served (a request's `rules`).
        Json xiangqi = Json::array();
        const auto words = [lang](xq::RuleSet r) -> std::string {
            if (lang != Lang::Th) return std::string(xq::rule_set(r).words);
            return r == xq::RuleSet::Check ? "ฝ่ายที่รุกไม่หยุดแพ้ (ไม่รวมการไล่ไม่หยุด)"
                : r == xq::RuleSet::Asian  ? "ฝ่ายที่รุกหรือไล่ตัวเดิมไม่หยุดแพ้"
                                          : "การเดินวนไม่สิ้นสุดทุกแบบเสมอ";
        };
        for (xq::RuleSet r : tables_.load()->xiangqi_rules())
            xiangqi.push_back(
                { { "rules", std::string(xq::rule_set(r).name) }, { "words", words(r) } });
        reply_json(res, 200, Json { { "served", std::move(served) }, { "xiangqi", xiangqi } });
    }

    // GET /api/endings: every table served under the request's rules, with the statistics
    // `mktb gen` wrote beside it; /api/endings/NAME: one of them.
    void endings(const httplib::Request& req, httplib::Response& res, std::string name) const {
        if (std::string e = check_params(req, { "game", "lang" }); !e.empty())
            return reply_error(res, 400, e);
        Lang lang = Lang::En;
        if (std::string e = lang_param(req, lang); !e.empty()) return reply_error(res, 400, e);
        const std::string game = req.get_param_value("game");
        if (!game.empty() && game != "makruk" && game != "xiangqi")
            return reply_error(res, 400, "game takes makruk or xiangqi, not '" + game + "'");
        int status = 0;
        std::string error;
        const std::shared_ptr<const TableSets> tables = tables_.load(); // for this request
        // Makruk's endings from the directory of the request's rules; none where no directory
        // holds Makruk tables and Xiangqi's are asked for too.
        const TableSet* s = game == "xiangqi" ? nullptr : select(*tables, req, status, error);
        const bool makruk_served = std::any_of(tables->sets().begin(), tables->sets().end(),
            [](const TableSet& t) { return t.makruk(); });
        if (!s && game != "xiangqi" && (makruk_served || game == "makruk"))
            return reply_error(res, status, error);
        std::string xiangqi_name;
        if (!name.empty() && req.get_param_value("game") == "xiangqi") {
            const std::optional<xq::Material> m = xq::Material::parse(name);
            if (!m)
                return reply_error(
                    res, 400, "'" + name + "' is not a Xiangqi ending (e.g. KRvKAABB)");
            xiangqi_name = m->canonical().name();
        } else if (!name.empty()) {
            const std::optional<Material> m = Material::parse(name);
            if (!m) return reply_error(res, 400, "'" + name + "' is not an ending (e.g. KRvKM)");
            name = m->canonical().name();
        }
        Json list = Json::array();
        // Xiangqi's tables, from every directory that holds them (KRvK is an ending of both
        // games: /api/endings/KRvK?game=xiangqi names the one).
        for (const TableSet& x : tables->sets())
            for (const xq::Material& m : x.xiangqi_endings) {
                if (game == "makruk") break;
                if (!name.empty() && (game != "xiangqi" || m.name() != xiangqi_name)) continue;
                const std::filesystem::path base = std::filesystem::path(x.dir) / m.name();
                const std::optional<std::uintmax_t> bytes = size_of(base.string() + ".xq.mktb");
                if (!bytes) continue; // deleted since the directory was read
                Json e { { "game", "xiangqi" }, { "ending", m.name() }, { "men", m.men() },
                    { "file_bytes", *bytes }, { "statistics", nullptr } };
                std::ifstream stats(base.string() + ".xq.json");
                if (stats) e["statistics"] = Json::parse(stats, nullptr, false);
                if (e["statistics"].is_discarded()) e["statistics"] = nullptr;
                list.push_back(std::move(e));
            }
        for (const Material& m : s ? s->endings : std::vector<Material> {}) {
            if (!name.empty() && m.name() != name) continue;
            const std::optional<std::uintmax_t> bytes = size_of(table_path(s->dir, m));
            if (!bytes) continue; // deleted since the directory was read
            Json e { { "game", "makruk" }, { "ending", m.name() }, { "men", m.men() },
                { "file_bytes", *bytes }, { "statistics", nullptr } };
            std::ifstream stats(std::filesystem::path(s->dir) / (m.name() + ".json"));
            if (stats) e["statistics"] = Json::parse(stats, nullptr, false);
            if (e["statistics"].is_discarded()) e["statistics"] = nullptr;
            list.push_back(std::move(e));
        }
        if (!name.empty()) {
            if (list.empty())
                return reply_error(
                    res, 404, "no table for " + (xiangqi_name.empty() ? name : xiangqi_name));
            return reply_json(res, 200, list[0]);
        }
        const CountRules rules = s ? s->rules : CountRules {};
        reply_json(res, 200,
            Json { { "rules", describe(rules) }, { "rules_words", rules_words(rules, lang) },
                { "endings", list } });
    }

    // GET /board.svg?fen=...&flip=1&mark=e4,e5&arrow=h1h8&size=400&coordinates=0
    static void board(const httplib::Request& req, httplib::Response& res) {
        if (std::string e = check_params(
                req, { "fen", "flip", "mark", "arrow", "size", "coordinates", "letters" });
            !e.empty())
            return reply_error(res, 400, e);
        DiagramOptions options;
        std::string fen = req.get_param_value("fen");
        for (char& c : fen)
            if (c == '_') c = ' ';
        options.flip = req.get_param_value("flip") == "1";
        options.coordinates = req.get_param_value("coordinates") != "0";
        options.letters = req.get_param_value("letters") == "1";
        // A Xiangqi FEN (ten ranks) draws the Xiangqi board.
        const bool xiangqi
            = std::count(fen.begin(), fen.begin() + std::min(fen.size(), fen.find(' ')), '/') == 9;
        try {
            if (const std::string size = req.get_param_value("size"); !size.empty()) {
                options.size = std::stoi(size);
                if (options.size < 16 || options.size > 4096)
                    return reply_error(res, 400, "size takes 16 to 4096 pixels");
            }
            std::istringstream marks(req.get_param_value("mark"));
            for (std::string square; std::getline(marks, square, ',');)
                if (!square.empty()) options.marked.push_back(square);
            if (const std::string arrow = req.get_param_value("arrow"); !arrow.empty()) {
                // "h1h8"; Xiangqi's points may have two digits: "e2e10", "a10a9".
                const std::size_t split = arrow.find_first_of("abcdefghi", 1);
                if (arrow.size() < 4 || split == std::string::npos)
                    return reply_error(res, 400, "arrow takes a move like h1h8");
                options.arrows.push_back({ arrow.substr(0, split), arrow.substr(split) });
            }
            res.set_content(xiangqi ? xiangqi_board_svg(fen, options)
                                    : board_svg(fen.empty() ? "8/8/8/8/8/8/8/8 w" : fen, options),
                "image/svg+xml");
        } catch (const std::invalid_argument& e) {
            reply_error(res, 400, e.what());
        } catch (const std::out_of_range&) {
            reply_error(res, 400, "size is out of range");
        }
    }

    std::atomic<std::shared_ptr<const TableSets>> tables_;
    std::unique_ptr<EngineAdvice> engine_; // --engine: its word beyond the tables, or none
};

int serve_command(const Args& a) {
    std::vector<std::string> dirs = a.texts("--tables");
    const std::string bind = a.text("--bind", "127.0.0.1");
    const int port = int(a.number("--port", 8080));
    const int deadline = int(a.number("--request-deadline", 10)); // seconds a request may take
    // An empty address would listen on every interface (httplib reads it as "any").
    if (bind.empty())
        return usage_error(a,
            "--bind takes an address (127.0.0.1, ::1, 0.0.0.0 for every "
            "interface), not ''");
    TableSets tables;
    if (const int code = open_tables("serve", dirs, tables)) return code;
    std::unique_ptr<EngineAdvice> engine;
    if (a.has("--engine")) try {
            engine = std::make_unique<EngineAdvice>(
                a.texts("--engine"), std::chrono::milliseconds(a.number("--engine-time", 300)));
        } catch (const std::exception& e) {
            std::fprintf(stderr, "mktb serve: --engine: %s\n", e.what());
            return kExitFailure;
        }
    if (dirs.empty()) dirs.push_back(default_tables_dir()); // for the line that says what is served

    // SIGINT and SIGTERM stop the server cleanly: blocked in every thread, awaited by one.
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGINT);
    sigaddset(&stopSignals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);

    GuardedHttp http { std::chrono::seconds(deadline) };
    http.set_tcp_nodelay(true); // answers are one small write: no Nagle delay behind it
    Server server(std::move(tables), std::move(engine));
    server.routes(http);
    errno = 0;
    const int bound
        = port == 0 ? http.bind_to_any_port(bind) : (http.bind_to_port(bind, port) ? port : -1);
    if (bound <= 0) {
        if (errno == EADDRINUSE)
            std::fprintf(stderr,
                "mktb serve: port %d on %s is in use (another mktb serve?): stop it, or give "
                "another --port\n",
                port, bind.c_str());
        else
            std::fprintf(stderr,
                "mktb serve: cannot listen on %s port %d (not an address of this machine?)\n",
                bind.c_str(), port);
        return kExitFailure;
    }
    http.lengthen_backlog();
    std::string shown = bind.find(':') != std::string::npos ? "[" + bind + "]" : bind;
    std::printf("mktb serve: http://%s:%d/ (", shown.c_str(), bound);
    for (std::size_t i = 0; i < dirs.size(); ++i)
        std::printf("%s%s", i ? ", " : "", dirs[i].c_str());
    std::printf("); Ctrl-C stops\n");
    std::fflush(stdout);

    std::thread stopper([&] {
        int signal = 0;
        sigwait(&stopSignals, &signal);
        http.stop();
    });
    // Tables that appear (mktb gen into a served directory) are answered from without a restart.
    std::atomic<bool> watching { true };
    std::thread watcher([&] {
        std::string seen = tables_fingerprint(dirs);
        while (watching) {
            for (int i = 0; i < 20 && watching; ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
            if (const std::string now = tables_fingerprint(dirs); now != seen && watching) {
                seen = now;
                server.reload(dirs);
            }
        }
    });
    const bool ok = http.listen_after_bind();
    if (!ok) {
        std::fprintf(stderr, "mktb serve: the server stopped on an error\n");
        pthread_kill(stopper.native_handle(), SIGTERM);
    }
    stopper.join();
    watching = false;
    watcher.join();
    return ok ? kExitOk : kExitFailure;
}

} // namespace

const Command kServeCommand {
    .name = "serve",
    .usage = "[--tables DIR]... [--port N] [--bind ADDRESS] [--request-deadline S]\n"
             "[--engine-time MS] [--engine PATH [ARGS...]]",
    .summary = "the web page and the HTTP API (docs/api.md) on\n"
               "http://127.0.0.1:8080/ (--port 0: any free\n"
               "port); one --tables per rule set served",
    .options = { { "--tables", "DIR", "a directory of tables, one per rule set", Option::Kind::Text,
                     0, 0, true },
        { "--port", "N", "the port (default 8080; 0: any free port)", Option::Kind::Number, 0,
            65535 },
        { "--bind", "ADDRESS", "the address listened on (default 127.0.0.1)" },
        { "--request-deadline", "S", "seconds a request may take to arrive (default 10; 1 to 3600)",
            Option::Kind::Number, 1, 3600 },
        { "--engine-time", "MS", "the engine's time per position (default 300; 10 to 10000)",
            Option::Kind::Number, 10, 10000 },
        { "--engine", "PATH [ARGS...]",
            "a UCI engine for positions beyond the tables\n(e.g. fairy-stockfish; the rest of the "
            "line)",
            Option::Kind::Rest } },
    .run = serve_command,
};

} // namespace mktb::cli
