// serve_load.cpp - a bounded load test of `mktb serve`: several keep-alive connections at once,
// each sending its share of /api/probe requests over a list of positions; prints throughput and
// latency percentiles, and exits 1 when any request failed (scripts/bench-serve; the serve test
// runs it small). With --slow N, N more clients meanwhile send a request one header line every
// 2 s (as a slow or hostile client does), so the figures show whether they hold others up.
// Connections are plain threads: they wait on the network, they do not compute.
#include <algorithm>
#include <arpa/inet.h>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <httplib.h>
#include <netinet/in.h>
#include <string>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

// Positions of several 4-men endings, pieces' and board's honour, Bia, wins and draws.
const char* kPositions[] = {
    "k7/8/1K6/8/8/8/8/7R w - - 0 1",
    "8/3k4/6M1/2K1S3/8/8/8/8 b - 88 8 1",
    "k7/8/8/8/8/8/m7/R3K3 w - 128 128 1",
    "8/8/8/8/8/2k5/2R5/6K1 b - - 0 1",
    "4k3/8/8/8/8/4P3/8/4K3 w - - 0 1",
    "8/8/3k4/8/8/2NK4/8/7R w - - 0 1",
    "8/8/3k4/3s4/8/3K4/8/7R w - - 0 1",
    "7k/8/8/8/8/8/1SS5/K7 b - - 0 1",
};

std::string encode(const std::string& text) {
    std::string out;
    for (char c : text) out += c == ' ' ? std::string("_") : std::string(1, c);
    return out;
}

// A client that opens a connection and sends its request one header line every 2 s until the
// server closes the connection or `done` is set.
void slow_client(const std::string& host, int port, const std::atomic<bool>& done) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a {};
    a.sin_family = AF_INET;
    a.sin_port = htons(std::uint16_t(port));
    ::inet_pton(AF_INET, host.c_str(), &a.sin_addr);
    if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        if (fd >= 0) ::close(fd);
        return;
    }
    std::string line = "GET /api/endings HTTP/1.1\r\n";
    for (int k = 0; !done; ++k) {
        if (::send(fd, line.data(), line.size(), MSG_NOSIGNAL) < 0) break; // cut off: fine
        line = "X-Slow: " + std::to_string(k) + "\r\n";
        for (int t = 0; t < 20 && !done; ++t)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ::close(fd);
}

} // namespace

int main(int argc, char** argv) {
    std::string host = "127.0.0.1";
    int port = 8080, connections = 4, requests = 4000, slow = 0;
    std::vector<std::string> fens; // --fen: the positions asked (else the built-in Makruk ones)
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--host")
            host = argv[i + 1];
        else if (flag == "--port")
            port = std::atoi(argv[i + 1]);
        else if (flag == "--connections")
            connections = std::max(1, std::atoi(argv[i + 1]));
        else if (flag == "--requests")
            requests = std::max(1, std::atoi(argv[i + 1]));
        else if (flag == "--slow")
            slow = std::max(0, std::atoi(argv[i + 1]));
        else if (flag == "--fen")
            fens.push_back(argv[i + 1]);
        else {
            std::fprintf(stderr,
                "usage: mktb_serve_load [--host H] [--port P] [--connections N] "
                "[--requests N] [--slow N] [--fen FEN]...\n");
            return 2;
        }
    }
    if (fens.empty()) fens.assign(std::begin(kPositions), std::end(kPositions));
    std::vector<std::vector<double>> latency(static_cast<std::size_t>(connections)); // microseconds
    std::atomic<int> errors { 0 };
    std::string firstError;
    std::atomic_flag reported = ATOMIC_FLAG_INIT;
    std::atomic<bool> done { false };
    std::vector<std::thread> slowClients;
    for (int k = 0; k < slow; ++k) slowClients.emplace_back([&] { slow_client(host, port, done); });
    if (slow) std::this_thread::sleep_for(std::chrono::milliseconds(300)); // they hold workers now
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (int c = 0; c < connections; ++c)
        threads.emplace_back([&, c] {
            httplib::Client client(host, port);
            client.set_keep_alive(true);
            client.set_tcp_nodelay(true);
            const int n = requests / connections + (c < requests % connections);
            for (int i = 0; i < n; ++i) {
                const std::string& fen = fens[std::size_t(c + i) % fens.size()];
                const auto t0 = std::chrono::steady_clock::now();
                const auto res = client.Get("/api/probe?fen=" + encode(fen));
                const auto t1 = std::chrono::steady_clock::now();
                latency[std::size_t(c)].push_back(
                    std::chrono::duration<double, std::micro>(t1 - t0).count());
                if (!res || res->status != 200
                    || res->body.find("\"verdict\"") == std::string::npos) {
                    if (!reported.test_and_set())
                        firstError = fen + ": "
                            + (res ? "HTTP " + std::to_string(res->status) + " " + res->body
                                   : httplib::to_string(res.error()));
                    ++errors;
                }
            }
        });
    for (std::thread& t : threads) t.join();
    const double seconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    done = true;
    for (std::thread& t : slowClients) t.join();
    std::vector<double> all;
    for (const auto& l : latency) all.insert(all.end(), l.begin(), l.end());
    std::sort(all.begin(), all.end());
    auto pct = [&](double p) { return all[std::min(all.size() - 1, std::size_t(p * all.size()))]; };
    std::printf("requests %zu over %d connections in %.2f s: %.0f requests/s, %d errors",
        all.size(), connections, seconds, double(all.size()) / seconds, errors.load());
    std::printf(slow ? " (%d slow clients meanwhile)\n" : "\n", slow);
    std::printf("latency (us): p50 %.0f  p90 %.0f  p99 %.0f  max %.0f\n", pct(0.5), pct(0.9),
        pct(0.99), all.back());
    if (errors) std::printf("first error: %s\n", firstError.c_str());
    return errors ? 1 : 0;
}
