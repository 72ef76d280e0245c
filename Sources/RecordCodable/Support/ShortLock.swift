import Foundation

#if os(Linux)
    import Synchronization
#endif

/// A lock around a few instructions that many threads may run, such as taking an object out of a
/// small table or reading a cache.
///
/// On Linux it is the standard library's `Mutex`, which, while no other thread holds it, locks and
/// unlocks with an inlined compare-and-swap and no call, where Foundation's `NSLock` calls through
/// its class into the C library's mutex each time (the Performance article measures the
/// difference). Elsewhere it is an `NSLock`: on Apple platforms `Mutex` needs macOS 15 and its
/// peers, later than the package supports.
///
/// `body` must not take the same lock again: neither kind may be taken twice by one thread.
struct ShortLock: ~Copyable, Sendable {
    #if os(Linux)
        private let mutex = Mutex(())
    #else
        private let lock = NSLock()
    #endif

    /// Runs `body` while no other thread holds the lock.
    @inline(__always)
    borrowing func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        #if os(Linux)
            return try mutex.withLock { _ in try body() }
        #else
            lock.lock()
            defer { lock.unlock() }
            return try body()
        #endif
    }
}
