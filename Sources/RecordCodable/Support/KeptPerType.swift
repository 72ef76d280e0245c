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
    // Only touched while `lock` is held, which already keeps accesses from overlapping: the
    // run-time exclusivity checks are turned off.
    /// The types that have a place, in the order they took it.
    @exclusivity(unchecked) private var types: [ObjectIdentifier] = []
    /// The object of the type at the same place; `nil` while it is used.
    @exclusivity(unchecked) private var objects: [Object?] = []
    /// The state of the generator that picks the place a new type takes (xorshift: any nonzero
    /// start works).
    @exclusivity(unchecked) private var randomState: UInt64 = 0x9E37_79B9_7F4A_7C15

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The object kept for `type`, taken out of the store, if `fits` accepts it.
    func take(for type: ObjectIdentifier, if fits: (Object) -> Bool) -> Object? {
        lock.lock()
        defer { lock.unlock() }
        // Moved out of its place, not copied, and put back if it does not fit.
        guard let place = types.firstIndex(of: type), let object = objects[place].take() else { return nil }
        guard fits(object) else {
            objects[place] = object
            return nil
        }
        return object
    }

    /// Keeps `object` for the next use with `type`, in place of any kept before.
    func keep(_ object: Object, for type: ObjectIdentifier) {
        var replaced: Object?
        lock.lock()
        if let place = types.firstIndex(of: type) {
            replaced = objects[place].take()
            objects[place] = object
        } else if types.count < capacity {
            types.append(type)
            objects.append(object)
        } else if capacity > 0 {
            let place = nextRandomPlace()
            types[place] = type
            replaced = objects[place].take()
            objects[place] = object
        }
        lock.unlock()
        // Let go of only now, outside the lock.
        withExtendedLifetime(replaced) {}
    }

    /// A place chosen at random, for a new type once every place is taken.
    private func nextRandomPlace() -> Int {
        randomState ^= randomState << 13
        randomState ^= randomState >> 7
        randomState ^= randomState << 17
        return Int(truncatingIfNeeded: randomState % UInt64(capacity))
    }
}
