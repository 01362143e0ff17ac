// guarded_http.hpp - the HTTP server of `mktb serve` made safe to face the internet: a deadline
// on each request's arrival (DeadlineStream), a worker pool that knows when it is pressed (Pool),
// and the server (GuardedHttp) that sheds kept-alive and crowding connections under pressure, so
// that slow, pipelining or keep-alive clients cannot starve the others (tests/web/starve.py).
// What the server answers is cmd_serve.cpp's.
#pragma once

#include <arpa/inet.h>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <httplib.h>
#include <map>
#include <mutex>
#include <poll.h>
#include <string>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace mktb::cli {

// A connection's socket as httplib reads and writes it, with a deadline on each request's
// arrival: httplib bounds each read (5 s) but not a request, so a client that sends one
// header line every few seconds would hold a worker as long as it likes.
class DeadlineStream : public httplib::Stream {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr auto kWriteTimeout = std::chrono::seconds(5);

    // `pressed`: whether connections wait for a worker; then a read or write that stalls gives
    // up after kPressedWait, not at the deadline.
    static constexpr auto kPressedWait = std::chrono::milliseconds(500);
    DeadlineStream(int sock, std::function<bool()> pressed)
        : sock_(sock)
        , pressed_(std::move(pressed)) { }
    // A request starts: its deadline, and its first line recorded afresh.
    void begin_request(Clock::time_point deadline) {
        deadline_ = deadline;
        line_.clear();
        lineDone_ = false;
    }
    // Whether the request's first line was "METHOD TARGET HTTP/1.x": after one that was not,
    // httplib answers 400 but would read the next line as a request; the connection ends.
    bool request_line_ok() const {
        const std::size_t a = line_.find(' '), b = line_.rfind(' ');
        if (a == std::string::npos || a == b || a == 0) return false;
        for (std::size_t i = 0; i < a; ++i)
            if (line_[i] < 'A' || line_[i] > 'Z') return false;
        return line_.compare(b + 1, 7, "HTTP/1.") == 0;
    }
    // Whether a read waited past the deadline (httplib then answers 400; the connection ends).
    bool expired() const { return expired_; }
    // Whether bytes arrive before `wait` has passed or `running` turns false.
    bool wait_readable(std::chrono::milliseconds wait, const std::function<bool()>& running) {
        if (start_ < end_) return true;
        for (const auto until = Clock::now() + wait; running() && Clock::now() < until;)
            if (poll_for(POLLIN, std::chrono::milliseconds(50))) return true;
        return false;
    }

    bool is_readable() const override { return start_ < end_ || wait_for(POLLIN, remaining()); }
    bool is_writable() const override { return wait_for(POLLOUT, kWriteTimeout); }
    ssize_t read(char* ptr, std::size_t size) override {
        if (start_ == end_) {
            if (!wait_for(POLLIN, remaining())) {
                expired_ = true;
                return -1;
            }
            const ssize_t n = ::recv(sock_, buffer_, sizeof buffer_, 0);
            if (n <= 0) return n;
            start_ = 0, end_ = std::size_t(n);
        }
        const std::size_t n = std::min(size, end_ - start_);
        std::memcpy(ptr, buffer_ + start_, n);
        for (std::size_t i = 0; i < n && !lineDone_; ++i) {
            if (ptr[i] == '\r' || ptr[i] == '\n' || line_.size() > 16384)
                lineDone_ = true;
            else
                line_ += ptr[i];
        }
        start_ += n;
        return ssize_t(n);
    }
    ssize_t write(const char* ptr, std::size_t size) override {
        if (!is_writable()) return -1;
        return ::send(sock_, ptr, size, MSG_NOSIGNAL);
    }
    void get_remote_ip_and_port(std::string& ip, int& port) const override {
        address(::getpeername, ip, port);
    }
    void get_local_ip_and_port(std::string& ip, int& port) const override {
        address(::getsockname, ip, port);
    }
    socket_t socket() const override { return sock_; }

private:
    std::chrono::milliseconds remaining() const {
        return std::max(
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - Clock::now()),
            std::chrono::milliseconds(0));
    }
    // Waits up to `wait` for `events`, in slices: while connections wait for a worker, at most
    // kPressedWait (a client that sends or reads slowly then loses its worker to them).
    bool wait_for(short events, std::chrono::milliseconds wait) const {
        const auto start = Clock::now(), until = start + wait;
        for (;;) {
            const auto now = Clock::now();
            if (now >= until) return poll_for(events, std::chrono::milliseconds(0));
            const auto slice
                = std::min(std::chrono::duration_cast<std::chrono::milliseconds>(until - now),
                    std::chrono::milliseconds(100));
            if (poll_for(events, slice)) return true;
            if (pressed_ && Clock::now() - start >= kPressedWait && pressed_()) return false;
        }
    }
    bool poll_for(short events, std::chrono::milliseconds wait) const {
        pollfd p { sock_, events, 0 };
        int n;
        do n = ::poll(&p, 1, int(wait.count()));
        while (n < 0 && errno == EINTR);
        return n > 0;
    }
    template<class Name>
    void address(Name name, std::string& ip, int& port) const {
        sockaddr_storage a {};
        socklen_t length = sizeof a;
        char text[INET6_ADDRSTRLEN] = "";
        port = 0;
        if (name(sock_, reinterpret_cast<sockaddr*>(&a), &length) != 0) return;
        if (a.ss_family == AF_INET) {
            const auto& v4 = reinterpret_cast<const sockaddr_in&>(a);
            ::inet_ntop(AF_INET, &v4.sin_addr, text, sizeof text);
            port = ntohs(v4.sin_port);
        } else if (a.ss_family == AF_INET6) {
            const auto& v6 = reinterpret_cast<const sockaddr_in6&>(a);
            ::inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof text);
            port = ntohs(v6.sin6_port);
        }
        ip = text;
    }

    int sock_;
    std::function<bool()> pressed_;
    std::string line_; // the request's first line, as read
    bool lineDone_ = false;
    Clock::time_point deadline_ = Clock::now();
    bool expired_ = false;
    char buffer_[4096];
    std::size_t start_ = 0, end_ = 0;
};

// The workers that serve connections (httplib runs each connection on one worker from its
// first request to its last), counting the connections that wait for one.
class Pool : public httplib::TaskQueue {
public:
    explicit Pool(int workers) {
        for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
    }
    void enqueue(std::function<void()> fn) override {
        {
            std::lock_guard lock(mutex_);
            jobs_.push_back(std::move(fn));
            ++waiting_;
        }
        ready_.notify_one();
    }
    void shutdown() override {
        {
            std::lock_guard lock(mutex_);
            done_ = true;
        }
        ready_.notify_all();
        for (std::thread& t : threads_) t.join();
    }
    // Connections that wait for a worker while none is free (a connection just queued beside
    // an idle worker is not waiting).
    int waiting() const {
        return waiting_.load(std::memory_order_relaxed) - idle_.load(std::memory_order_relaxed);
    }

private:
    void work() {
        for (;;) {
            std::function<void()> fn;
            {
                std::unique_lock lock(mutex_);
                ++idle_;
                ready_.wait(lock, [&] { return done_ || !jobs_.empty(); });
                --idle_;
                if (jobs_.empty()) return;
                fn = std::move(jobs_.front());
                jobs_.pop_front();
                --waiting_;
            }
            fn();
        }
    }
    std::vector<std::thread> threads_;
    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<std::function<void()>> jobs_;
    std::atomic<int> waiting_ { 0 }, idle_ { 0 };
    bool done_ = false;
};

// httplib's server, each connection read through a DeadlineStream: a request that has not
// arrived whole within `deadline` is dropped, so slow clients hold a worker for that long at
// most. While connections wait for a worker, a kept-alive connection is closed after its
// request, an idle one at once, and a stalled read or write gives up within half a second:
// clients that keep connections open (or pipeline requests and never read) cannot starve
// the others. Beyond kPerAddress connections from one address while others wait: 503. The pool
// is larger than httplib's 8 and the listen backlog longer than its 5 (Debian's httplib is a
// compiled library: its CPPHTTPLIB_* settings cannot be changed from here).
class GuardedHttp : public httplib::Server {
public:
    static constexpr int kWorkers = 64;
    static constexpr int kBacklog = 1024;
    static constexpr int kRequestsPerConnection = 100;
    static constexpr int kPerAddress = 32;
    static constexpr auto kKeepAlive = std::chrono::seconds(5);

    explicit GuardedHttp(std::chrono::milliseconds deadline)
        : deadline_(deadline) {
        new_task_queue = [this] { return pool_ = new Pool(kWorkers); };
        // Not httplib's default, which adds SO_REUSEPORT: a second server on the same port would
        // then share its connections instead of being refused.
        set_socket_options([](socket_t sock) {
            int yes = 1;
            ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        });
    }

    // After bind_to_port: listen again with a longer backlog (Linux updates it in place).
    void lengthen_backlog() { ::listen(svr_sock_, kBacklog); }

private:
    bool pressed() const { return pool_ && pool_->waiting() > 0; }

    // The open connections of each address.
    class Peer {
    public:
        Peer(GuardedHttp& http, std::string ip)
            : http_(http)
            , ip_(std::move(ip)) {
            std::lock_guard lock(http_.peersMutex_);
            count_ = ++http_.peers_[ip_];
        }
        ~Peer() {
            std::lock_guard lock(http_.peersMutex_);
            if (--http_.peers_[ip_] == 0) http_.peers_.erase(ip_);
        }
        int count() const { return count_; }

    private:
        GuardedHttp& http_;
        std::string ip_;
        int count_;
    };

    bool process_and_close_socket(socket_t sock) override {
        DeadlineStream stream(sock, [this] { return pressed(); });
        std::string ip;
        int port = 0;
        stream.get_remote_ip_and_port(ip, port);
        const Peer peer(*this, ip);
        bool ok = true;
        if (peer.count() > kPerAddress && pressed()) {
            const std::string body
                = R"({"error":"too many connections from one address; try again soon"})";
            std::string busy = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: "
                               "application/json\r\nConnection: close\r\nRetry-After: 1\r\n"
                               "Content-Length: ";
            busy.append(std::to_string(body.size())).append("\r\n\r\n").append(body);
            stream.write(busy.data(), busy.size());
        } else
            for (int served = 0; served < kRequestsPerConnection; ++served) {
                // A kept-alive connection may wait for its next request (not while others wait
                // for a worker); the deadline starts when its first byte arrives.
                if (served && !stream.wait_readable(kKeepAlive, [this] {
                        return is_running() && !pressed();
                    }))
                    break;
                stream.begin_request(DeadlineStream::Clock::now() + deadline_);
                bool closed = false;
                const bool last
                    = served + 1 == kRequestsPerConnection || !is_running() || pressed();
                ok = process_request(stream, last, closed, [](httplib::Request&) {});
                if (!ok || closed || last || stream.expired() || !stream.request_line_ok()) break;
            }
        ::shutdown(sock, SHUT_RDWR);
        ::close(sock);
        return ok;
    }

    const std::chrono::milliseconds deadline_;
    Pool* pool_ = nullptr; // owned by httplib, made when it starts listening
    std::mutex peersMutex_;
    std::map<std::string, int> peers_;
};

} // namespace mktb::cli
