import Foundation

extension NSLocking {
    /// Runs `body` with the lock held. (Foundation's own `withLock` needs macOS 14 and iOS 17.)
    func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
