import Foundation

/// What the encoder learns about a model type and keeps, so that it does the work once per type
/// rather than once per record.
struct ModelTypeInfo: Sendable {
    /// The type's record type: building a type's name costs more than encoding a small record.
    var recordType: String

    /// The fields of the type's last record, in the order the model wrote them: each key's name
    /// and the field name it became, already checked against the record format. The next record
    /// of the type starts with a dictionary large enough for them all, and a key that matches
    /// its place in this list needs no conversion and no check.
    var fields: [KnownField] = []
}

/// A key of a model and the checked field name it becomes.
struct KnownField: Sendable, Equatable {
    var keyName: String
    var fieldName: String
}

enum ModelTypes {
    private static let cache = LockedDictionary<ObjectIdentifier, ModelTypeInfo>()

    /// The information for `T`, worked out on first use.
    static func info<T>(of type: T.Type) -> ModelTypeInfo {
        let id = ObjectIdentifier(type)
        if let info = cache[id] { return info }
        let recordType = (type as? any RecordRepresentable.Type)?.recordType ?? plainName(of: type)
        let info = ModelTypeInfo(recordType: recordType)
        cache[id] = info
        return info
    }

    /// Remembers the fields of `T`'s latest record.
    static func noteFields<T>(_ fields: [KnownField], of type: T.Type) {
        cache.update(ObjectIdentifier(type)) { info in info.fields = fields }
    }

    /// `T`'s name without its module or generic arguments: `Box<Int>` → `Box`.
    private static func plainName(of type: Any.Type) -> String {
        String(String(describing: type).prefix(while: { $0 != "<" }))
    }
}

/// A dictionary that many threads may read and write.
final class LockedDictionary<Key: Hashable, Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Key: Value] = [:]

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

    /// Changes the value for `key` in place, if there is one.
    func update(_ key: Key, _ change: (inout Value) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        if var value = storage[key] {
            change(&value)
            storage[key] = value
        }
    }
}
