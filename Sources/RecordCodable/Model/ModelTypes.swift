import Foundation

/// What the coders and the schema learn about a model type and keep, so that they do the work once
/// per type rather than once per record: its record type.
///
/// It never changes once made, so a lookup hands out one shared object. The encoder keeps more
/// per type, beside it (see `ModelEncodingInfo`).
final class ModelTypeInfo: Sendable {
    /// The type's record type: building a type's name costs more than encoding a small record.
    let recordType: String

    /// The type itself, for what other parts of the package keep about it.
    let typeID: ObjectIdentifier

    init(recordType: String, typeID: ObjectIdentifier) {
        self.recordType = recordType
        self.typeID = typeID
    }
}

/// The record types of model types, each worked out once.
///
/// ```swift
/// ModelTypes.info(of: Box<Int>.self).recordType    // "Box"
/// ```
enum ModelTypes {
    private static let cache = LockedDictionary<ObjectIdentifier, ModelTypeInfo>()

    /// The information for `T`, worked out on first use.
    static func info<T>(of type: T.Type) -> ModelTypeInfo {
        let id = ObjectIdentifier(type)
        if let info = cache[id] { return info }
        let info = ModelTypeInfo(recordType: recordType(of: type), typeID: id)
        cache[id] = info
        return info
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
