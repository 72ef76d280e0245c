import Foundation

/// What the coders learn about a model type and keep, so that they do the work once per type
/// rather than once per record.
///
/// It never changes once made: what a later record teaches is kept in a new one, so a lookup
/// hands out one shared object.
final class ModelTypeInfo: Sendable {
    /// The type's record type: building a type's name costs more than encoding a small record.
    let recordType: String

    /// The layout of the type's records with the default keys (see ``RecordFieldWriter``).
    let defaultKeysLayout: FieldLayout?

    /// The layout of the type's records with snake-case field names.
    let snakeCaseLayout: FieldLayout?

    init(recordType: String, defaultKeysLayout: FieldLayout? = nil, snakeCaseLayout: FieldLayout? = nil) {
        self.recordType = recordType
        self.defaultKeysLayout = defaultKeysLayout
        self.snakeCaseLayout = snakeCaseLayout
    }

    /// The layout of the type's records under `strategy`; a custom strategy has none, since its
    /// closure may answer differently from record to record.
    func layout(for strategy: RecordEncoder.KeyEncodingStrategy) -> FieldLayout? {
        switch strategy {
        case .useDefaultKeys: defaultKeysLayout
        case .convertToSnakeCase: snakeCaseLayout
        case .custom: nil
        }
    }

    /// The same information with `layout` for `strategy`.
    func withLayout(_ layout: FieldLayout, for strategy: RecordEncoder.KeyEncodingStrategy) -> ModelTypeInfo {
        switch strategy {
        case .useDefaultKeys:
            ModelTypeInfo(recordType: recordType, defaultKeysLayout: layout, snakeCaseLayout: snakeCaseLayout)
        case .convertToSnakeCase:
            ModelTypeInfo(recordType: recordType, defaultKeysLayout: defaultKeysLayout, snakeCaseLayout: layout)
        case .custom:
            self
        }
    }
}

enum ModelTypes {
    private static let cache = LockedDictionary<ObjectIdentifier, ModelTypeInfo>()

    /// The information for `T`, worked out on first use.
    static func info<T>(of type: T.Type) -> ModelTypeInfo {
        let id = ObjectIdentifier(type)
        if let info = cache[id] { return info }
        let info = ModelTypeInfo(recordType: recordType(of: type))
        cache[id] = info
        return info
    }

    /// Keeps the layout that `T`'s next records start from under `strategy`.
    static func noteLayout<T>(_ layout: FieldLayout, for strategy: RecordEncoder.KeyEncodingStrategy, of type: T.Type) {
        cache.update(ObjectIdentifier(type)) { info in info = info.withLayout(layout, for: strategy) }
    }

    /// The record type of a model of type `type`: its own, or its name. An optional model is
    /// stored as the model it holds, so it has that model's record type.
    private static func recordType(of type: Any.Type) -> String {
        if let optional = type as? any OptionalValue.Type { return recordType(of: optional.wrappedType) }
        return (type as? any RecordRepresentable.Type)?.recordType ?? plainName(of: type)
    }

    /// `T`'s name without its module or generic arguments: `Box<Int>` → `Box`.
    private static func plainName(of type: Any.Type) -> String {
        String(String(describing: type).prefix(while: { $0 != "<" }))
    }
}

/// A dictionary that many threads may read and write.
final class LockedDictionary<Key: Hashable, Value>: @unchecked Sendable {
    private let lock = NSLock()
    /// Only touched while `lock` is held, which already keeps accesses from overlapping: the
    /// run-time exclusivity checks, which cost the encoder about 40 ns a record, are turned off.
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
