// guarded_http.hpp - the HTTP server of `mktb serve` made safe to face the internet. A
// connection holds no worker while it waits: the Reception (one thread over epoll) gathers each
// request's head and hands the connection to a worker only once the head is whole, so clients
// that send slowly, from however many addresses, cost a socket and a buffer, never a worker.
// The workers (Pool) know when they are pressed; then kept-alive and crowding connections are
// shed and stalled writes give up early (tests/web/starve.py). A request is answered on the
// stream it came on (DeadlineStream), and the connection ends after any request the server did
// not read whole (a malformed one, a body it does not take). What is answered is cmd_serve.cpp's.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <httplib.h>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace mktb::cli {

using Clock = std::chrono::steady_clock;

class GuardedHttp;

// One client's connection from its accept to its close: the socket (closed with it), the
// bytes of its next request read so far, when they must be whole, and its address's count.
struct Connection {
    Connection(GuardedHttp& http, int sock);
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    int sock;
    std::string ip;
    std::string pending; // read ahead of the worker: the start of the next request
    Clock::time_point deadline; // the next request must be whole by then (or the idle end)
    bool started = false; // whether bytes of the next request have arrived
    int served = 0; // requests answered
    int fromAddress = 0; // open connections from `ip`, this one included

private:
    GuardedHttp& http_;
};

// A connection's socket as httplib reads and writes it, starting with the bytes the Reception
// read: each read bounded by the request's deadline, and (while workers are pressed) a stall
// given up after kPressedWait. To a HEAD request no body is written, whatever httplib writes
// (it writes one on 400 and 414, before it knows the method).
class DeadlineStream : public httplib::Stream {
public:
    static constexpr auto kWriteTimeout = std::chrono::seconds(5);
    static constexpr auto kPressedWait = std::chrono::milliseconds(500);

    DeadlineStream(int sock, std::function<bool()> pressed, std::string unread);
    // A request starts: its deadline, and whether it is a HEAD.
    void begin_request(Clock::time_point deadline);
    // Whether a read waited past the deadline (httplib then answers 400).
    bool expired() const { return expired_; }
    // Whether the unread bytes hold a whole head (request line and headers).
    bool head_buffered() const;
    // The bytes read and not yet parsed, handed back with the connection.
    std::string take_unread();

    bool is_readable() const override;
    bool is_writable() const override;
    ssize_t read(char* ptr, std::size_t size) override;
    ssize_t write(const char* ptr, std::size_t size) override;
    void get_remote_ip_and_port(std::string& ip, int& port) const override;
    void get_local_ip_and_port(std::string& ip, int& port) const override;
    socket_t socket() const override { return sock_; }

private:
    std::chrono::milliseconds remaining() const;
    bool wait_for(short events, std::chrono::milliseconds wait) const;

    int sock_;
    std::function<bool()> pressed_;
    std::string buffer_; // read from the socket; from start_ on not yet given to httplib
    std::size_t start_ = 0;
    Clock::time_point deadline_ = Clock::now();
    bool expired_ = false;
    bool head_ = false; // the request is a HEAD: only the response's head is written
    int headEnd_ = 0; // of "\r\n\r\n", the bytes written so far (4: the head is out)
};

// The connections between requests, watched by one thread: each is handed on (`ready`) once its
// next request's head is whole, or dropped when its deadline passes (408 if a request had
// begun) or its client closes. Holding one costs a socket and its bytes, never a worker.
class Reception {
public:
    // Beyond: handed on, httplib refuses it (a path over 8 KiB: 414). With kMostWaiting, the most
    // a crowd of slow clients can hold: 8,192 x 16 KiB = 128 MiB.
    static constexpr std::size_t kHeadLimit = 16384;

    Reception(std::chrono::milliseconds requestDeadline,
        std::function<void(std::shared_ptr<Connection>)> ready);
    ~Reception();
    // Watches `c` until its next request's head is whole; closes it if the Reception stopped.
    void admit(std::shared_ptr<Connection> c);
    // Drops every connection watched and ends the thread; later admissions are closed.
    void stop();
    std::size_t size() const { return size_.load(std::memory_order_relaxed); }

private:
    void run();
    // Reads what `c` sent; whether it is still open.
    static bool receive(Connection& c);

    const std::chrono::milliseconds requestDeadline_;
    std::function<void(std::shared_ptr<Connection>)> ready_;
    int epoll_;
    std::mutex mutex_;
    std::map<int, std::shared_ptr<Connection>> watched_;
    std::atomic<std::size_t> size_ { 0 };
    std::atomic<bool> stopping_ { false };
    std::thread thread_;
};

// The workers that answer requests, counting the jobs that wait for one. `before_shutdown`
// runs first when httplib shuts the pool down (the Reception stops handing it connections).
class Pool : public httplib::TaskQueue {
public:
    Pool(int workers, std::function<void()> before_shutdown);
    void enqueue(std::function<void()> fn) override;
    void shutdown() override;
    // Jobs that wait for a worker while none is free (one just queued beside an idle worker
    // is not waiting).
    int waiting() const {
        return waiting_.load(std::memory_order_relaxed) - idle_.load(std::memory_order_relaxed);
    }

private:
    void work();
    std::function<void()> beforeShutdown_;
    std::vector<std::thread> threads_;
    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<std::function<void()>> jobs_;
    std::atomic<int> waiting_ { 0 }, idle_ { 0 };
    bool done_ = false;
};

// httplib's server with the Reception in front of its workers. A request's head must be whole
// within `deadline` of its first byte. Limits, each answered with its reason: beyond kPerAddress
// connections from one address while the server is crowded, 503; a connection ends after
// kRequestsPerConnection requests, and after each while workers are pressed (the answer says
// "Connection: close" and why in kEndsHeader; requests pipelined after it are not answered). Other
// methods than GET and HEAD get 405 at once (cmd_serve.cpp), without their body being read: the
// connection then ends, as after a GET that carries a body. The pool is larger than httplib's 8 and
// the listen backlog longer than its 5 (Debian's httplib is a compiled library: its CPPHTTPLIB_*
// settings cannot be changed from here).
class GuardedHttp : public httplib::Server {
public:
    static constexpr int kWorkers = 64;
    static constexpr int kBacklog = 1024;
    static constexpr int kRequestsPerConnection = 100;
    static constexpr int kPerAddress = 32;
    static constexpr std::size_t kCrowded = 1024; // connections waiting in the Reception
    static constexpr std::size_t kMostWaiting = 8192; // beyond: every new connection 503
    static constexpr auto kKeepAlive = std::chrono::seconds(5);
    static constexpr const char* kEndsHeader = "X-Connection-Ends";

    explicit GuardedHttp(std::chrono::milliseconds deadline);

    // After bind_to_port: listen again with a longer backlog (Linux updates it in place).
    void lengthen_backlog();

private:
    friend struct Connection;
    bool pressed() const { return pool_ && pool_->waiting() > 0; }
    bool process_and_close_socket(socket_t sock) override;
    // Answers the requests whose heads are in `c` (and pipelined after them), then hands the
    // connection back to the Reception or closes it.
    void serve(std::shared_ptr<Connection> c);

    const std::chrono::milliseconds deadline_;
    Pool* pool_ = nullptr; // owned by httplib, made when it starts listening
    std::mutex peersMutex_;
    std::map<std::string, int> peers_;
    Reception reception_;
};

} // namespace mktb::cli
