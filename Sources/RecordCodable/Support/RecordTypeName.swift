import Foundation

/// The record type of each model type, worked out once per type.
///
/// Building a type's name costs more than encoding a whole small record, so the answer is kept.
enum RecordTypeName {
    private static let cache = LockedDictionary<ObjectIdentifier, String>()

    /// `T.recordType` for a ``RecordRepresentable`` model, else the type's name without its module
    /// or generic arguments: `Box<Int>` → `Box`.
    static func of<T>(_ type: T.Type) -> String {
        let id = ObjectIdentifier(type)
        if let name = cache[id] { return name }
        let name = (type as? any RecordRepresentable.Type)?.recordType ?? plainName(of: type)
        cache[id] = name
        return name
    }

    private static func plainName(of type: Any.Type) -> String {
        let described = String(describing: type)
        return String(described.prefix(while: { $0 != "<" }))
    }
}

/// A dictionary that many threads may read and write.
final class LockedDictionary<Key: Hashable, Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Key: Value] = [:]

    subscript(key: Key) -> Value? {
        get { lock.withLock { storage[key] } }
        set { lock.withLock { storage[key] = newValue } }
    }
}
