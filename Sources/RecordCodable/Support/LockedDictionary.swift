import Foundation

/// A dictionary that many threads may read and write.
final class LockedDictionary<Key: Hashable, Value>: @unchecked Sendable {
    private let lock = NSLock()
    /// Only touched while `lock` is held, which already keeps accesses from overlapping: the
    /// run-time exclusivity checks, which would cost a lookup about as much as the lookup itself,
    /// are turned off.
    @exclusivity(unchecked) private var storage: [Key: Value] = [:]

    subscript(key: Key) -> Value? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return storage[key]
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            storage[key] = newValue
        }
    }

    /// Runs `body` on the value for `key`, or `nil`, while no other thread can touch it; what
    /// `body` leaves is kept (`nil` removes the key).
    func withValue<Result>(_ key: Key, _ body: (inout Value?) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&storage[key])
    }
}
