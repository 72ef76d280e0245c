import Foundation

/// Objects kept from one use to the next, one for each of a few types, that many threads may take
/// and put back: the coders keep their engines here between records.
///
/// Rules:
/// - An object is out of the store while it is used: ``take(for:if:)`` hands it to one caller,
///   and only ``keep(_:for:)`` puts it back, so that no two callers ever share one.
/// - At most ``capacity`` types have a place. A type keeps its place once it has one; a new type
///   beyond the capacity takes the place of the type that came first of those there, then the
///   next, in turn.
/// - Types are found by comparing them one after the other: for a few types, that costs less
///   than hashing one.
final class KeptPerType<Object: AnyObject>: @unchecked Sendable {
    /// How many types keep an object at once.
    let capacity: Int

    private let lock = NSLock()
    /// Only touched while `lock` is held, which already keeps accesses from overlapping: the
    /// run-time exclusivity checks are turned off. A type's object is `nil` while it is used.
    @exclusivity(unchecked) private var kept: [(type: ObjectIdentifier, object: Object?)] = []
    /// The place a new type takes once every place is taken.
    @exclusivity(unchecked) private var nextReplaced = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The object kept for `type`, taken out of the store, if `fits` accepts it.
    func take(for type: ObjectIdentifier, if fits: (Object) -> Bool) -> Object? {
        lock.lock()
        defer { lock.unlock() }
        guard let place = place(of: type), let object = kept[place].object, fits(object) else { return nil }
        kept[place].object = nil
        return object
    }

    /// Keeps `object` for the next use with `type`, in place of any kept before.
    func keep(_ object: Object, for type: ObjectIdentifier) {
        lock.lock()
        defer { lock.unlock() }
        if let place = place(of: type) {
            kept[place].object = object
        } else if kept.count < capacity {
            kept.append((type, object))
        } else if capacity > 0 {
            kept[nextReplaced] = (type, object)
            nextReplaced = nextReplaced == capacity &- 1 ? 0 : nextReplaced &+ 1
        }
    }

    private func place(of type: ObjectIdentifier) -> Int? {
        kept.firstIndex { $0.type == type }
    }
}
