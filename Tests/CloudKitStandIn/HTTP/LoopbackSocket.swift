import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why the loopback server could not open its socket: the call that failed and `errno`.
public struct LoopbackSocketError: Error, CustomStringConvertible {
    /// The POSIX call that failed, such as `bind`.
    public var call: String
    /// The `errno` it left.
    public var code: Int32

    init(_ call: String, code: Int32 = errno) {
        self.call = call
        self.code = code
    }

    /// The call and the system's reason.
    public var description: String { "\(call) failed: \(String(cString: strerror(code))) (errno \(code))" }
}

/// The few POSIX socket calls the loopback server makes, each with its platform's spelling in one
/// place. A descriptor is an `Int32`; whoever opened it closes it.
enum LoopbackSocket {
    #if canImport(Glibc)
        private static let streamType = Int32(SOCK_STREAM.rawValue)
        // Writing to a connection the client closed must be an error, not a SIGPIPE that ends
        // the test process.
        private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
        private static let streamType = SOCK_STREAM
        private static let sendFlags: Int32 = 0
    #endif

    /// Opens a listening socket on 127.0.0.1, on a port the system picks, and returns it with
    /// its port.
    static func listenOnLoopback(backlog: Int32) throws -> (descriptor: Int32, port: UInt16) {
        let descriptor = socket(AF_INET, streamType, 0)
        guard descriptor >= 0 else { throw LoopbackSocketError("socket") }
        do {
            var reuse: Int32 = 1
            try check(
                "setsockopt(SO_REUSEADDR)",
                setsockopt(
                    descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size)))
            var address = sockaddr_in()
            #if canImport(Darwin)
                address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            try withUnsafePointer(to: &address) { pointer in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    try check("bind", bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)))
                }
            }
            try check("listen", listen(descriptor, backlog))
            var bound = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            try withUnsafeMutablePointer(to: &bound) { pointer in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    try check("getsockname", getsockname(descriptor, $0, &length))
                }
            }
            return (descriptor, UInt16(bigEndian: bound.sin_port))
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// Opens a connection to `port` on 127.0.0.1: for tests that speak HTTP byte by byte.
    static func connectToLoopback(port: UInt16) throws -> Int32 {
        let descriptor = socket(AF_INET, streamType, 0)
        guard descriptor >= 0 else { throw LoopbackSocketError("socket") }
        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let error = LoopbackSocketError("connect")
            close(descriptor)
            throw error
        }
        return descriptor
    }

    /// Waits up to `milliseconds` for `descriptor` to be readable (a connection to accept, bytes
    /// to read, or the peer's close), and says whether it is.
    static func waitReadable(_ descriptor: Int32, milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) > 0
    }

    /// Accepts a waiting connection, or returns `nil` when none is waiting.
    static func accept(_ listener: Int32) -> Int32? {
        #if canImport(Glibc)
            let descriptor = Glibc.accept(listener, nil, nil)
        #else
            let descriptor = Darwin.accept(listener, nil, nil)
        #endif
        guard descriptor >= 0 else { return nil }
        #if canImport(Darwin)
            var noSignal: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return descriptor
    }

    /// Makes each read and write on `descriptor` give up after `seconds` without progress.
    static func setTimeouts(_ descriptor: Int32, seconds: Double) {
        var limit = timeval()
        limit.tv_sec = .init(seconds.rounded(.down))
        limit.tv_usec = .init((seconds - seconds.rounded(.down)) * 1_000_000)
        let size = socklen_t(MemoryLayout<timeval>.size)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, size)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, size)
    }

    /// Reads what has arrived, up to `limit` bytes: empty at the end of the stream, `nil` on an
    /// error or a timeout.
    static func read(_ descriptor: Int32, limit: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: limit)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, limit, 0) }
        guard count >= 0 else { return nil }
        buffer.removeSubrange(count...)
        return buffer
    }

    /// Writes every byte, or returns `false` when the connection fails or times out first.
    static func write(_ descriptor: Int32, _ bytes: some Collection<UInt8>) -> Bool {
        let bytes = Array(bytes)
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                send(descriptor, buffer.baseAddress.map { $0 + sent }, bytes.count - sent, sendFlags)
            }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Ends both directions of a connection, waking a thread blocked reading it; the descriptor
    /// stays open for its owner to close.
    static func shutDown(_ descriptor: Int32) {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Ends the sending direction, so that the client reads the end of the answer.
    static func finishSending(_ descriptor: Int32) {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Closes a connection with a reset (TCP RST) instead of an orderly close: a linger of zero
    /// seconds discards what is unsent.
    static func reset(_ descriptor: Int32) {
        var linger = linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
        close(descriptor)
    }

    /// Closes a descriptor.
    static func close(_ descriptor: Int32) {
        #if canImport(Glibc)
            _ = Glibc.close(descriptor)
        #else
            _ = Darwin.close(descriptor)
        #endif
    }

    private static func check(_ call: String, _ result: Int32) throws {
        if result < 0 { throw LoopbackSocketError(call) }
    }
}
