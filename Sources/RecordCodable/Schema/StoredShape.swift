/// How values of a Swift type are stored in a record, found from the type alone: what
/// ``RecordEncoder`` would make of any value of it.
enum StoredShape: Equatable {
    /// A field of a type that the Swift type decides.
    case type(RecordSchema.FieldType)
    /// JSON bytes: a nested value, a dictionary, a list of lists or of optionals.
    case json
    /// A `URL`: an asset for a file, text for anything else, which its type cannot tell.
    case url
    /// A list of `URL`s.
    case urlList

    /// The shape of a list whose elements have this shape, as the encoder stores collections:
    /// a list of single values, or JSON when the elements are lists or nested values.
    var asListElement: StoredShape {
        switch self {
        case .type(let element): element.isList ? .json : .type(.list(element))
        case .json, .urlList: .json
        case .url: .urlList
        }
    }

    /// The field type, with a `URL` stored as an asset when `holdsFiles` is true.
    func fieldType(holdsFiles: Bool) -> RecordSchema.FieldType {
        switch self {
        case .type(let type): type
        case .json: .bytes
        case .url: holdsFiles ? .asset : .string
        case .urlList: .list(holdsFiles ? .asset : .string)
        }
    }

    /// Whether the shape is a `URL` or a list of them, which the user says how to store.
    var isURL: Bool { self == .url || self == .urlList }
}

extension SpecialType {
    /// The shape of the types with a fixed mapping.
    var storedShape: StoredShape {
        switch self {
        case .date: .type(.timestamp)
        case .data: .type(.bytes)
        case .url: .url
        case .uuid, .decimal: .type(.string)
        case .reference: .type(.reference)
        case .asset: .type(.asset)
        case .location: .type(.location)
        case .strings: .type(.list(.string))
        case .integers: .type(.list(.int64))
        case .doubles: .type(.list(.double))
        case .dates: .type(.list(.timestamp))
        }
    }
}
