import Foundation

/// The types with a fixed mapping, recognised by their metatypes in one place for both coders.
///
/// Comparing metatypes costs a pointer comparison each. The metatypes of generic types, such as
/// `[String].self`, are looked up once and kept: naming one in code asks the runtime for it on
/// every call, which costs more than encoding a small field.
enum SpecialType {
    case date
    case data
    case url
    case uuid
    case decimal
    case reference
    case asset
    case location
    case strings
    case integers
    case doubles
    case dates

    /// Whether the type is a collection, which JSON bytes may hold instead of a list.
    var isList: Bool {
        switch self {
        case .strings, .integers, .doubles, .dates: true
        default: false
        }
    }

    /// The metatypes of the list types, looked up together: each use of a global constant asks
    /// whether it is set up yet, so one constant is cheaper than four.
    private static let lists = (
        strings: ObjectIdentifier([String].self), integers: ObjectIdentifier([Int].self),
        doubles: ObjectIdentifier([Double].self), dates: ObjectIdentifier([Date].self)
    )

    /// The special type `type` is, or `nil` for any other type.
    init?(_ type: Any.Type) {
        let id = ObjectIdentifier(type)
        let lists = Self.lists
        switch id {
        case ObjectIdentifier(Date.self): self = .date
        case ObjectIdentifier(String.self), ObjectIdentifier(Int.self): return nil
        case lists.strings: self = .strings
        case lists.integers: self = .integers
        case ObjectIdentifier(URL.self): self = .url
        case ObjectIdentifier(UUID.self): self = .uuid
        case ObjectIdentifier(Data.self): self = .data
        case ObjectIdentifier(Decimal.self): self = .decimal
        case ObjectIdentifier(RecordReference.self): self = .reference
        case ObjectIdentifier(RecordAsset.self): self = .asset
        case ObjectIdentifier(RecordLocation.self): self = .location
        case lists.doubles: self = .doubles
        case lists.dates: self = .dates
        default: return nil
        }
    }
}

/// Metatypes named in the coders' hot paths, looked up once.
enum KnownTypes {
    static let optionalMetadata = ObjectIdentifier(RecordMetadata?.self)
    static let optionalRecord = ObjectIdentifier(Record?.self)
    /// How errors name a keyed container and an unkeyed one, as Foundation's coders do.
    static let dictionary: Any.Type = [String: Any].self
    static let array: Any.Type = [Any].self

    /// Whether `type` is `Optional<RecordMetadata>`.
    @inline(__always)
    static func isOptionalMetadata<T>(_ type: T.Type) -> Bool {
        ObjectIdentifier(type) == optionalMetadata
    }

    /// Whether `type` is `Optional<Record>`.
    @inline(__always)
    static func isOptionalRecord<T>(_ type: T.Type) -> Bool {
        ObjectIdentifier(type) == optionalRecord
    }
}
