// cmd_serve.cpp - `mktb serve`: one process that answers the HTTP API (JSON, docs/api.md) and
// serves the web page (gen/web/) with its board diagrams (/board.svg, drawn by diagram.cpp).
// Tables are read only through the public probing API; every handler is const on the Probers,
// so requests run on httplib's thread pool without locks of ours.
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <httplib.h>
#include <pthread.h>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "answer.hpp"
#include "cli.hpp"
#include "diagram.hpp"
#include "table_sets.hpp"
#include "web_assets.hpp"

namespace mktb::cli {

namespace {

void reply_json(httplib::Response& res, int status, const Json& body) {
    res.status = status;
    res.set_header("Access-Control-Allow-Origin", "*");
    res.set_content(body.dump(), "application/json");
}

void reply_error(httplib::Response& res, int status, const std::string& message) {
    reply_json(res, status, Json { { "error", message } });
}

// A request's parameters, checked against those the endpoint takes: an error message or empty.
std::string check_params(const httplib::Request& req, std::initializer_list<std::string_view> own) {
    for (const auto& [key, value] : req.params) {
        bool known = find_rule_option(key).has_value();
        for (std::string_view k : own) known |= key == k;
        if (!known) return "unknown parameter '" + key + "'";
    }
    return {};
}

class Server {
public:
    explicit Server(TableSets tables)
        : tables_(std::move(tables)) { }

    void routes(httplib::Server& http) {
        http.Get("/api/probe", [this](const auto& req, auto& res) { probe(req, res); });
        http.Get("/api/endings", [this](const auto& req, auto& res) { endings(req, res, {}); });
        http.Get(R"(/api/endings/([A-Za-z]+))",
            [this](const auto& req, auto& res) { endings(req, res, req.matches[1]); });
        http.Get("/board.svg", [](const auto& req, auto& res) { board(req, res); });
        http.Get(R"(/man/([A-Za-z])\.svg)", [](const auto& req, auto& res) {
            try {
                res.set_content(man_svg(req.matches[1].str()[0]), "image/svg+xml");
            } catch (const std::invalid_argument& e) {
                reply_error(res, 404, e.what());
            }
        });
        for (const WebAsset& a : kWebAssets)
            http.Get(a.path,
                [&a](const auto&, auto& res) { res.set_content(std::string(a.body), a.type); });
        http.set_error_handler([](const auto& req, auto& res) {
            if (res.body.empty())
                reply_error(res, res.status, "no such page: " + req.method + " " + req.path);
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
    const TableSet* select(const httplib::Request& req, int& status, std::string& error) const {
        CountRules rules;
        for (const auto& [key, value] : req.params)
            if (find_rule_option(key)) {
                if (std::string e = set_rule_option(rules, key, value); !e.empty()) {
                    status = 400, error = e;
                    return nullptr;
                }
            }
        if (const TableSet* s = tables_.find(rules)) return s;
        status = 404;
        error = "no tables built under " + describe(rules)
            + " are served; served: " + tables_.served();
        return nullptr;
    }

    void probe(const httplib::Request& req, httplib::Response& res) const {
        if (std::string e = check_params(req, { "fen", "count", "line" }); !e.empty())
            return reply_error(res, 400, e);
        int status = 0;
        std::string error;
        const TableSet* s = select(req, status, error);
        if (!s) return reply_error(res, status, error);
        std::string fen = req.get_param_value("fen");
        if (fen.empty()) return reply_error(res, 400, "missing parameter 'fen'");
        for (char& c : fen)
            if (c == '_') c = ' ';
        Position pos;
        try {
            pos = Position::from_fen(fen);
        } catch (const FenError& e) {
            return reply_error(res, 400, std::string("bad FEN: ") + e.what());
        }
        CountState count;
        if (std::string e = count_to_follow(req.get_param_value("count"), pos, s->rules, count);
            !e.empty())
            return reply_error(res, 400, "count: " + e);
        const std::string line = req.get_param_value("line");
        if (!line.empty() && line != "0" && line != "1" && line != "true" && line != "false")
            return reply_error(res, 400, "line takes 1 or 0, not '" + line + "'");
        try {
            const std::optional<Json> answer
                = answer_json(*s->prober, pos, count, line == "1" || line == "true");
            if (!answer) {
                const std::string m = Material::of(pos).canonical().name();
                return reply_json(res, 404,
                    Json { { "error", "no table for " + m + " or an ending it converts into" },
                        { "material", m } });
            }
            reply_json(res, 200, *answer);
        } catch (const TableError& e) {
            reply_error(res, 500, e.what()); // a damaged table: reported, never answered
        }
    }

    // GET /api/endings: every table served under the request's rules, with the statistics
    // `mktb gen` wrote beside it; /api/endings/NAME: one of them.
    void endings(const httplib::Request& req, httplib::Response& res, std::string name) const {
        if (std::string e = check_params(req, {}); !e.empty()) return reply_error(res, 400, e);
        int status = 0;
        std::string error;
        const TableSet* s = select(req, status, error);
        if (!s) return reply_error(res, status, error);
        if (!name.empty()) {
            const std::optional<Material> m = Material::parse(name);
            if (!m) return reply_error(res, 400, "'" + name + "' is not an ending (e.g. KRvKM)");
            name = m->canonical().name();
        }
        Json list = Json::array();
        for (const Material& m : s->endings) {
            if (!name.empty() && m.name() != name) continue;
            Json e { { "ending", m.name() }, { "men", m.men() },
                { "file_bytes", std::filesystem::file_size(table_path(s->dir, m)) },
                { "statistics", nullptr } };
            std::ifstream stats(std::filesystem::path(s->dir) / (m.name() + ".json"));
            if (stats) e["statistics"] = Json::parse(stats, nullptr, false);
            if (e["statistics"].is_discarded()) e["statistics"] = nullptr;
            list.push_back(std::move(e));
        }
        if (!name.empty()) {
            if (list.empty()) return reply_error(res, 404, "no table for " + name);
            return reply_json(res, 200, list[0]);
        }
        reply_json(res, 200, Json { { "rules", describe(s->rules) }, { "endings", list } });
    }

    // GET /board.svg?fen=...&flip=1&mark=e4,e5&arrow=h1h8&size=400&coordinates=0
    static void board(const httplib::Request& req, httplib::Response& res) {
        if (std::string e
            = check_params(req, { "fen", "flip", "mark", "arrow", "size", "coordinates" });
            !e.empty())
            return reply_error(res, 400, e);
        DiagramOptions options;
        std::string fen = req.get_param_value("fen");
        for (char& c : fen)
            if (c == '_') c = ' ';
        options.flip = req.get_param_value("flip") == "1";
        options.coordinates = req.get_param_value("coordinates") != "0";
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
                if (arrow.size() < 4) return reply_error(res, 400, "arrow takes a move like h1h8");
                options.arrows.push_back({ arrow.substr(0, 2), arrow.substr(2, 2) });
            }
            res.set_content(
                board_svg(fen.empty() ? "8/8/8/8/8/8/8/8 w" : fen, options), "image/svg+xml");
        } catch (const std::invalid_argument& e) {
            reply_error(res, 400, e.what());
        } catch (const std::out_of_range&) {
            reply_error(res, 400, "size is out of range");
        }
    }

    TableSets tables_;
};

} // namespace

int serve_command(std::span<const std::string_view> args) {
    std::vector<std::string> dirs;
    std::string bind = "127.0.0.1";
    int port = 8080;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const bool hasValue = i + 1 < args.size();
        if (args[i] == "--tables" && hasValue) {
            dirs.emplace_back(args[++i]);
        } else if (args[i] == "--bind" && hasValue) {
            bind = std::string(args[++i]);
        } else if (args[i] == "--port" && hasValue) {
            const std::string text(args[++i]);
            try {
                std::size_t used = 0;
                port = std::stoi(text, &used);
                if (used != text.size() || port < 0 || port > 65535) throw std::out_of_range(text);
            } catch (const std::exception&) {
                std::fprintf(stderr,
                    "mktb serve: --port takes 0 to 65535 (0: any free port), "
                    "not '%s'\n",
                    text.c_str());
                return kExitBadInput;
            }
        } else {
            std::fprintf(stderr,
                "mktb serve: unknown argument '%s'\nusage: mktb serve [--tables DIR]... [--port "
                "N] [--bind ADDRESS]\n",
                std::string(args[i]).c_str());
            return kExitBadInput;
        }
    }
    if (dirs.empty()) dirs.push_back(default_tables_dir());

    TableSets tables;
    if (const std::string error = tables.open(dirs, Tablebase::kDefaultCacheBytes);
        !error.empty()) {
        std::fprintf(stderr, "mktb serve: %s\n", error.c_str());
        return error.find("same rules") != std::string::npos ? kExitBadInput : kExitFailure;
    }

    // SIGINT and SIGTERM stop the server cleanly: blocked in every thread, awaited by one.
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGINT);
    sigaddset(&stopSignals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);

    httplib::Server http;
    http.set_tcp_nodelay(true); // answers are one small write: no Nagle delay behind it
    Server server(std::move(tables));
    server.routes(http);
    const int bound
        = port == 0 ? http.bind_to_any_port(bind) : (http.bind_to_port(bind, port) ? port : -1);
    if (bound <= 0) {
        std::fprintf(stderr,
            "mktb serve: cannot listen on %s port %d (in use, or not an address of this "
            "machine)\n",
            bind.c_str(), port);
        return kExitFailure;
    }
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
    const bool ok = http.listen_after_bind();
    if (!ok) {
        std::fprintf(stderr, "mktb serve: the server stopped on an error\n");
        pthread_kill(stopper.native_handle(), SIGTERM);
    }
    stopper.join();
    return ok ? kExitOk : kExitFailure;
}

} // namespace mktb::cli
