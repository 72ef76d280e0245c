import Foundation

#if !canImport(Darwin)
    import Synchronization
#endif

/// A lock around a few instructions that many threads may run, such as taking an object out of a
/// small table or reading a cache.
///
/// On Linux it is the standard library's `Mutex`, whose lock and unlock, when no other thread
/// holds it, are one atomic instruction each and are compiled into the caller, where Foundation's
/// `NSLock` calls through its class into the C library's mutex at every lock and unlock (the
/// Performance article measures the difference). On Apple platforms `Mutex` needs macOS 15 and its
/// peers, later than the package supports, and the lock is an `NSLock`.
///
/// `body` must not take the same lock again: neither kind may be taken twice by one thread.
final class ShortLock: Sendable {
    #if canImport(Darwin)
        private let lock = NSLock()
    #else
        private let mutex = Mutex(())
    #endif

    /// Runs `body` while no other thread holds the lock.
    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        #if canImport(Darwin)
            lock.lock()
            defer { lock.unlock() }
            return try body()
        #else
            return try mutex.withLock { _ in try body() }
        #endif
    }
}
