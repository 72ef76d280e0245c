extension RecordSchema {
    /// One field of a record type: its name, its type, whether CloudKit keeps it encrypted, and its
    /// indexes.
    ///
    /// In the schema language a field is a line such as `title STRING QUERYABLE SEARCHABLE` or
    /// `pin ENCRYPTED STRING`; an encrypted list is `LIST<ENCRYPTED STRING>`.
    public struct Field: Hashable, Sendable {
        /// The field's name, such as `"title"`; a system field's starts with underscores.
        public var name: String

        /// The field's type.
        public var type: FieldType

        /// Whether CloudKit keeps the field's values encrypted (``Encrypted``). Only text, numbers,
        /// bytes, dates, locations and lists of them can be; an encrypted field cannot be indexed.
        public var isEncrypted: Bool

        /// The indexes CloudKit keeps on the field, which queries need.
        public var indexes: Indexes

        /// Creates a field.
        ///
        /// - Parameters:
        ///   - name: The field's name.
        ///   - type: The field's type.
        ///   - isEncrypted: Whether CloudKit keeps its values encrypted.
        ///   - indexes: The indexes CloudKit keeps on it.
        public init(name: String, type: FieldType, isEncrypted: Bool = false, indexes: Indexes = []) {
            self.name = name
            self.type = type
            self.isEncrypted = isEncrypted
            self.indexes = indexes
        }

        /// Whether the field is one of CloudKit's own, whose names start with an underscore.
        public var isSystemField: Bool { name.utf8.first == UInt8(ascii: "_") }

        /// The order of fields in a record type: system fields first, then the others, each group
        /// by name.
        static func listsBefore(_ first: Field, _ second: Field) -> Bool {
            if first.isSystemField != second.isSystemField { return first.isSystemField }
            return first.name < second.name
        }
    }

    /// The type of a field, as the schema language names it.
    ///
    /// A model's properties map to these as ``RecordEncoder`` stores them (see <doc:TypeMapping>):
    /// text, a `UUID` and a `Decimal` are ``string``; integers and `Bool` are ``int64``; a nested
    /// value is ``bytes`` holding its JSON; a ``LinkedRecord`` is a ``reference``; a
    /// ``RecordAssetValue`` is an ``asset``.
    public indirect enum FieldType: Hashable, Sendable {
        /// A file stored beside the record: `ASSET`.
        case asset
        /// Bytes: `BYTES`. Nested values stored as JSON are bytes.
        case bytes
        /// A 64-bit floating-point number: `DOUBLE`.
        case double
        /// A 64-bit signed integer: `INT64`. A `Bool` is one, 0 or 1.
        case int64
        /// A location: `LOCATION`.
        case location
        /// A reference to another record: `REFERENCE`.
        case reference
        /// Text: `STRING`.
        case string
        /// A date, to the millisecond: `TIMESTAMP`.
        case timestamp
        /// A number whose type the development server inferred from a write without a schema:
        /// `NUMBER`, or `NUMBER PREFERRED AS INT64` once someone chose. Avoid it in new schemas.
        case number(preferredAs: NumberType?)
        /// A list of values of one type: `LIST<STRING>`. A list of lists is not a CloudKit type.
        case list(FieldType)

        /// Whether CloudKit can keep a field of this type encrypted: text, numbers, bytes, dates,
        /// locations and lists of them, but not assets, which it encrypts already, references,
        /// which the server must read, or `NUMBER`.
        public var canBeEncrypted: Bool {
            switch self {
            case .bytes, .double, .int64, .location, .string, .timestamp: true
            case .asset, .reference, .number: false
            case .list(let element): element.canBeEncrypted
            }
        }

        /// Whether a value written by a model whose field has type `modelType` is stored by a
        /// field of this type: the same type, or a `NUMBER` that takes it.
        func accepts(_ modelType: FieldType) -> Bool {
            switch (self, modelType) {
            case (.number(nil), .int64), (.number(nil), .double), (.number(.int64), .int64),
                (.number(.double), .double):
                true
            case (.list(let element), .list(let modelElement)):
                element.accepts(modelElement)
            default:
                self == modelType
            }
        }
    }

    /// The type a `NUMBER` field is read as.
    public enum NumberType: Hashable, Sendable {
        /// `NUMBER PREFERRED AS INT64`.
        case int64
        /// `NUMBER PREFERRED AS DOUBLE`.
        case double
    }

    /// The indexes CloudKit keeps on a field.
    ///
    /// A query's filter on a field needs ``queryable`` (an equality, a list membership, a prefix,
    /// a `NEAR`); a range comparison (less than, greater than) or a sort needs ``sortable``; a
    /// token search (`CONTAINS_ALL_TOKENS`, `CONTAINS_ANY_TOKENS`) needs ``searchable``. Each index
    /// costs the container storage, and an encrypted field can have none.
    public struct Indexes: OptionSet, Hashable, Sendable {
        /// The indexes as bits.
        public let rawValue: Int

        /// Indexes from their bits.
        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// `QUERYABLE`: an index for equality lookups.
        public static let queryable = Indexes(rawValue: 1)
        /// `SORTABLE`: an index for sorting and range searches.
        public static let sortable = Indexes(rawValue: 2)
        /// `SEARCHABLE`: a text search index.
        public static let searchable = Indexes(rawValue: 4)
    }
}
