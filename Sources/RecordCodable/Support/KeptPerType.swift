import Foundation

/// Objects kept from one use to the next, one for each of a few types, that many threads may take
/// and put back: the encoder keeps its engines here between records.
///
/// Rules:
/// - An object is out of the store while it is used: ``take(for:if:)`` hands it to one caller and
///   forgets it. The caller's part: ``keep(_:for:)`` only an object that nothing else refers to,
///   and only once, so that no two callers ever share one.
/// - At most ``capacity`` types have a place. A type keeps its place until a new type takes it:
///   once every place is taken, a new type takes one chosen at random, so that many types used in
///   turn still find their objects in proportion to the capacity, where replacing the oldest would
///   find none as soon as they are one more than the capacity.
/// - Types are found by comparing them one after the other: for a few types, that costs less
///   than hashing one.
/// - A replaced object is let go of after the lock is released: letting go of it may run any
///   code, which may use the store.
final class KeptPerType<Object: AnyObject>: @unchecked Sendable {
    /// How many types keep an object at once.
    let capacity: Int

    private let lock = NSLock()
    /// Only touched while `lock` is held, which already keeps accesses from overlapping: the
    /// run-time exclusivity checks are turned off. A type's object is `nil` while it is used.
    @exclusivity(unchecked) private var kept: [(type: ObjectIdentifier, object: Object?)] = []
    /// The state of the generator that picks the place a new type takes (xorshift: any nonzero
    /// start works).
    @exclusivity(unchecked) private var randomState: UInt64 = 0x9E37_79B9_7F4A_7C15

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The object kept for `type`, taken out of the store, if `fits` accepts it.
    func take(for type: ObjectIdentifier, if fits: (Object) -> Bool) -> Object? {
        withLock {
            guard let place = place(of: type), let object = kept[place].object, fits(object) else { return nil }
            kept[place].object = nil
            return object
        }
    }

    /// Keeps `object` for the next use with `type`, in place of any kept before.
    func keep(_ object: Object, for type: ObjectIdentifier) {
        // The object replaced is returned, and so let go of once the lock is released.
        _ = withLock { () -> Object? in
            let place: Int
            if let known = self.place(of: type) {
                place = known
            } else if kept.count < capacity {
                kept.append((type, object))
                return nil
            } else if capacity > 0 {
                place = nextRandomPlace()
            } else {
                return nil
            }
            let replaced = kept[place].object
            kept[place] = (type, object)
            return replaced
        }
    }

    private func withLock<Result>(_ body: () -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    private func place(of type: ObjectIdentifier) -> Int? {
        kept.firstIndex { $0.type == type }
    }

    /// A place chosen at random, for a new type once every place is taken.
    private func nextRandomPlace() -> Int {
        randomState ^= randomState << 13
        randomState ^= randomState >> 7
        randomState ^= randomState << 17
        return Int(truncatingIfNeeded: randomState % UInt64(capacity))
    }
}
