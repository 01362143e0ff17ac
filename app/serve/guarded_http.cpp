// guarded_http.cpp - the guarded HTTP server's parts (guarded_http.hpp): connections, the
// stream a worker reads a request from, the Reception that gathers heads, the pool, the server.
#include "guarded_http.hpp"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace mktb::cli {
namespace {

bool poll_for(int sock, short events, std::chrono::milliseconds wait) {
    pollfd p { sock, events, 0 };
    int n;
    do n = ::poll(&p, 1, int(wait.count()));
    while (n < 0 && errno == EINTR);
    return n > 0;
}

template<class Name>
void address(int sock, Name name, std::string& ip, int& port) {
    sockaddr_storage a {};
    socklen_t length = sizeof a;
    char text[INET6_ADDRSTRLEN] = "";
    port = 0;
    if (name(sock, reinterpret_cast<sockaddr*>(&a), &length) == 0) {
        if (a.ss_family == AF_INET) {
            const auto& v4 = reinterpret_cast<const sockaddr_in&>(a);
            ::inet_ntop(AF_INET, &v4.sin_addr, text, sizeof text);
            port = ntohs(v4.sin_port);
        } else if (a.ss_family == AF_INET6) {
            const auto& v6 = reinterpret_cast<const sockaddr_in6&>(a);
            ::inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof text);
            port = ntohs(v6.sin6_port);
        }
    }
    ip = text;
}

// A whole answer that ends the connection, for the limits the server answers itself.
void answer_and_close(int sock, const char* status, const std::string& error) {
    const std::string body = R"({"error":")" + error + "\"}";
    const std::string text = std::string("HTTP/1.1 ") + status
        + "\r\nContent-Type: application/json\r\nConnection: close\r\nRetry-After: 1\r\n"
          "Content-Length: "
        + std::to_string(body.size()) + "\r\n\r\n" + body;
    (void)::send(sock, text.data(), text.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
}

// Ends the sending side, then reads what the client still sends for up to `wait` (until it
// closes): closing a socket with unread bytes resets the connection, and the client may lose
// the answers it has not read yet (the last of a pipelined burst, a 405 before its body).
void linger(int sock, std::chrono::milliseconds wait) {
    ::shutdown(sock, SHUT_WR);
    char sink[4096];
    for (const auto until = Clock::now() + wait;;) {
        const ssize_t n = ::recv(sock, sink, sizeof sink, MSG_DONTWAIT);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) return;
        const auto left
            = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
        if (left.count() <= 0) return;
        if (n < 0 && !poll_for(sock, POLLIN, left)) return;
    }
}

bool head_complete(std::string_view bytes) {
    return bytes.find("\r\n\r\n") != std::string_view::npos
        || bytes.find("\n\n") != std::string_view::npos;
}

// Whether the connection may carry another request after `req`: only after a GET or HEAD
// without a body (httplib reads no body for them, so the body's bytes would be taken for
// the next request; for other methods the 405 is answered before the body is read).
bool keeps_alive(const httplib::Request& req) {
    return (req.method == "GET" || req.method == "HEAD") && !req.has_header("Transfer-Encoding")
        && (!req.has_header("Content-Length") || req.get_header_value("Content-Length") == "0");
}

} // namespace

Connection::Connection(GuardedHttp& http, int s)
    : sock(s)
    , http_(http) {
    int port = 0;
    address(sock, ::getpeername, ip, port);
    std::lock_guard lock(http_.peersMutex_);
    fromAddress = ++http_.peers_[ip];
}

Connection::~Connection() {
    ::close(sock);
    std::lock_guard lock(http_.peersMutex_);
    if (--http_.peers_[ip] == 0) http_.peers_.erase(ip);
}

DeadlineStream::DeadlineStream(int sock, std::function<bool()> pressed, std::string unread)
    : sock_(sock)
    , pressed_(std::move(pressed))
    , buffer_(std::move(unread)) { }

void DeadlineStream::begin_request(Clock::time_point deadline) {
    deadline_ = deadline;
    head_ = std::string_view(buffer_).substr(start_).starts_with("HEAD ");
    headEnd_ = 0;
}

bool DeadlineStream::head_buffered() const {
    return head_complete(std::string_view(buffer_).substr(start_));
}

std::string DeadlineStream::take_unread() {
    std::string rest = buffer_.substr(start_);
    buffer_.clear(), start_ = 0;
    return rest;
}

bool DeadlineStream::is_readable() const {
    return start_ < buffer_.size() || wait_for(POLLIN, remaining());
}

bool DeadlineStream::is_writable() const { return wait_for(POLLOUT, kWriteTimeout); }

ssize_t DeadlineStream::read(char* ptr, std::size_t size) {
    if (start_ == buffer_.size()) {
        if (!wait_for(POLLIN, remaining())) {
            expired_ = true;
            return -1;
        }
        buffer_.resize(4096), start_ = 0;
        const ssize_t n = ::recv(sock_, buffer_.data(), buffer_.size(), 0);
        buffer_.resize(std::size_t(std::max<ssize_t>(n, 0)));
        if (n <= 0) return n;
    }
    const std::size_t n = std::min(size, buffer_.size() - start_);
    std::memcpy(ptr, buffer_.data() + start_, n);
    start_ += n;
    return ssize_t(n);
}

ssize_t DeadlineStream::write(const char* ptr, std::size_t size) {
    static constexpr char kEnd[] = "\r\n\r\n";
    if (head_ && headEnd_ == 4) return ssize_t(size); // a HEAD's answer has no body
    if (!is_writable()) return -1;
    std::size_t limit = size;
    if (head_)
        for (std::size_t i = 0, m = std::size_t(headEnd_); i < size; ++i) {
            m = ptr[i] == kEnd[m] ? m + 1 : ptr[i] == '\r';
            if (m == 4) {
                limit = i + 1;
                break;
            }
        }
    const ssize_t n = ::send(sock_, ptr, limit, MSG_NOSIGNAL);
    if (n <= 0 || !head_) return n;
    for (ssize_t i = 0; i < n; ++i)
        headEnd_ = ptr[i] == kEnd[headEnd_] ? headEnd_ + 1 : ptr[i] == '\r';
    return headEnd_ == 4 ? ssize_t(size) : n;
}

void DeadlineStream::get_remote_ip_and_port(std::string& ip, int& port) const {
    address(sock_, ::getpeername, ip, port);
}

void DeadlineStream::get_local_ip_and_port(std::string& ip, int& port) const {
    address(sock_, ::getsockname, ip, port);
}

std::chrono::milliseconds DeadlineStream::remaining() const {
    return std::max(std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - Clock::now()),
        std::chrono::milliseconds(0));
}

// Waits up to `wait` for `events`, in slices: while jobs wait for a worker, at most
// kPressedWait (a client that sends or reads slowly then loses its worker to them).
bool DeadlineStream::wait_for(short events, std::chrono::milliseconds wait) const {
    const auto start = Clock::now(), until = start + wait;
    for (;;) {
        const auto now = Clock::now();
        if (now >= until) return poll_for(sock_, events, std::chrono::milliseconds(0));
        const auto slice
            = std::min(std::chrono::duration_cast<std::chrono::milliseconds>(until - now),
                std::chrono::milliseconds(100));
        if (poll_for(sock_, events, slice)) return true;
        if (pressed_ && Clock::now() - start >= kPressedWait && pressed_()) return false;
    }
}

Reception::Reception(std::chrono::milliseconds requestDeadline,
    std::function<void(std::shared_ptr<Connection>)> ready)
    : requestDeadline_(requestDeadline)
    , ready_(std::move(ready))
    , epoll_(::epoll_create1(EPOLL_CLOEXEC)) {
    if (epoll_ < 0) throw std::runtime_error(std::string("epoll: ") + std::strerror(errno));
    thread_ = std::thread([this] { run(); });
}

Reception::~Reception() {
    stop();
    ::close(epoll_);
}

void Reception::admit(std::shared_ptr<Connection> c) {
    std::lock_guard lock(mutex_);
    if (stopping_) return; // dropped: closed with the last reference
    epoll_event e {};
    e.events = EPOLLIN | EPOLLRDHUP;
    e.data.fd = c->sock;
    if (::epoll_ctl(epoll_, EPOLL_CTL_ADD, c->sock, &e) != 0) return;
    watched_[c->sock] = std::move(c);
    size_.store(watched_.size(), std::memory_order_relaxed);
}

void Reception::stop() {
    std::map<int, std::shared_ptr<Connection>> dropped;
    {
        std::lock_guard lock(mutex_);
        if (stopping_.exchange(true)) return;
        dropped.swap(watched_);
        size_ = 0;
    }
    thread_.join();
}

bool Reception::receive(Connection& c) {
    char chunk[16384];
    for (;;) {
        const ssize_t n = ::recv(c.sock, chunk, sizeof chunk, MSG_DONTWAIT);
        if (n == 0) return false;
        if (n < 0) return errno == EAGAIN || errno == EINTR;
        c.pending.append(chunk, std::size_t(n));
        if (head_complete(c.pending) || c.pending.size() > kHeadLimit) return true;
    }
}

void Reception::run() {
    epoll_event events[256];
    auto swept = Clock::now();
    while (!stopping_) {
        const int n = ::epoll_wait(epoll_, events, 256, 100);
        std::vector<std::shared_ptr<Connection>> ready, dropped;
        {
            std::lock_guard lock(mutex_);
            const auto now = Clock::now();
            const auto forget = [&](auto it, std::vector<std::shared_ptr<Connection>>& to) {
                ::epoll_ctl(epoll_, EPOLL_CTL_DEL, it->first, nullptr);
                to.push_back(std::move(it->second));
                return watched_.erase(it);
            };
            for (int i = 0; i < n; ++i) {
                const auto it = watched_.find(events[i].data.fd);
                if (it == watched_.end()) continue;
                Connection& c = *it->second;
                const bool open = receive(c);
                if (!c.started && !c.pending.empty())
                    c.started = true, c.deadline = now + requestDeadline_;
                if (!open)
                    forget(it, dropped);
                else if (head_complete(c.pending) || c.pending.size() > kHeadLimit)
                    forget(it, ready);
            }
            if (now - swept >= std::chrono::milliseconds(100)) {
                swept = now;
                for (auto it = watched_.begin(); it != watched_.end();)
                    if (now < it->second->deadline)
                        ++it;
                    else {
                        if (it->second->started)
                            answer_and_close(it->first, "408 Request Timeout",
                                "the request did not arrive whole in time");
                        it = forget(it, dropped);
                    }
            }
            size_.store(watched_.size(), std::memory_order_relaxed);
        }
        for (auto& c : ready) ready_(std::move(c));
    }
}

Pool::Pool(int workers, std::function<void()> before_shutdown)
    : beforeShutdown_(std::move(before_shutdown)) {
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
}

void Pool::enqueue(std::function<void()> fn) {
    {
        std::lock_guard lock(mutex_);
        jobs_.push_back(std::move(fn));
        ++waiting_;
    }
    ready_.notify_one();
}

void Pool::shutdown() {
    beforeShutdown_();
    {
        std::lock_guard lock(mutex_);
        done_ = true;
    }
    ready_.notify_all();
    for (std::thread& t : threads_) t.join();
}

void Pool::work() {
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

GuardedHttp::GuardedHttp(std::chrono::milliseconds deadline)
    : deadline_(deadline)
    , reception_(deadline, [this](std::shared_ptr<Connection> c) {
        pool_->enqueue([this, c = std::move(c)]() mutable { serve(std::move(c)); });
    }) {
    new_task_queue = [this] { return pool_ = new Pool(kWorkers, [this] { reception_.stop(); }); };
    // Not httplib's default, which adds SO_REUSEPORT: a second server on the same port would
    // then share its connections instead of being refused.
    set_socket_options([](socket_t sock) {
        int yes = 1;
        ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    });
    // The answer to a request httplib could not parse says that the connection ends; one that
    // ends it by a limit says why.
    set_post_routing_handler([](const httplib::Request& req, httplib::Response& res) {
        if (!req.has_header("REMOTE_ADDR")) {
            res.headers.erase("Keep-Alive");
            res.set_header("Connection", "close");
        }
        if (req.has_header(kEndsHeader))
            res.set_header(kEndsHeader, req.get_header_value(kEndsHeader));
    });
}

void GuardedHttp::lengthen_backlog() { ::listen(svr_sock_, kBacklog); }

bool GuardedHttp::process_and_close_socket(socket_t sock) {
    auto c = std::make_shared<Connection>(*this, sock);
    const std::size_t waiting = reception_.size();
    if (waiting >= kMostWaiting
        || (c->fromAddress > kPerAddress && (pressed() || waiting >= kCrowded))) {
        answer_and_close(sock, "503 Service Unavailable",
            waiting >= kMostWaiting ? "too many connections; try again soon"
                                    : "too many connections from one address; try again soon");
        linger(sock, std::chrono::milliseconds(100)); // the request unread: no reset over the 503
    } else {
        c->deadline = Clock::now() + deadline_;
        reception_.admit(std::move(c));
    }
    return true;
}

void GuardedHttp::serve(std::shared_ptr<Connection> c) {
    DeadlineStream stream(
        c->sock, [this] { return pressed(); }, std::move(c->pending));
    for (;;) {
        stream.begin_request(c->deadline);
        // Why the server ends the connection after this request, said in the answer (requests
        // pipelined after it are not answered; a client sends them again on another).
        const char* ends = c->served + 1 == kRequestsPerConnection
            ? "at most 100 requests are answered on one connection"
            : !is_running() ? "the server is stopping"
            : pressed()     ? "the server is busy"
                            : nullptr;
        bool closed = false, keep = false;
        const bool ok = process_request(stream, ends, closed, [&](httplib::Request& req) {
            // Called once the request is parsed (never for a malformed one, which ends the
            // connection too: what follows its first line is not a request).
            if (!(keep = keeps_alive(req))) {
                req.headers.erase("Connection");
                req.headers.emplace("Connection", "close");
            }
            req.headers.erase(kEndsHeader);
            if (ends) req.headers.emplace(kEndsHeader, ends);
        });
        ++c->served;
        if (!ok || closed || ends || !keep || stream.expired()) break;
        if (stream.head_buffered()) { // pipelined: answered on this worker
            c->deadline = Clock::now() + deadline_;
            continue;
        }
        c->pending = stream.take_unread();
        c->started = !c->pending.empty();
        c->deadline = Clock::now() + (c->started ? deadline_ : kKeepAlive);
        return reception_.admit(std::move(c));
    }
    linger(c->sock, pressed() ? std::chrono::milliseconds(1) : std::chrono::milliseconds(200));
}

} // namespace mktb::cli
