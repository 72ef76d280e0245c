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

        /// The order of fields in a record type, as `cktool export-schema` lists them: by name, in
        /// the order of the names' UTF-8 bytes. Upper-case names (Core Data's `CD_` fields) come
        /// before the system fields, whose names start with underscores, and lower-case names after.
        static func listsBefore(_ first: Field, _ second: Field) -> Bool {
            SchemaName.listsBefore(first.name, second.name)
        }
    }

    /// The type of a field, as the schema language names it: a single type, such as `STRING`, or
    /// a list of one, such as `LIST<STRING>`.
    ///
    /// ```swift
    /// let tags: RecordSchema.FieldType = .list(.string)
    /// tags.valueType    // .string
    /// tags.isList       // true
    /// ```
    ///
    /// A model's properties map to these as ``RecordEncoder`` stores them (see <doc:TypeMapping>):
    /// text, a `UUID` and a `Decimal` are ``string``; integers and `Bool` are ``int64``; a nested
    /// value is ``bytes`` holding its JSON; a ``LinkedRecord`` is a ``reference``; a
    /// ``RecordAssetValue`` is an ``asset``.
    public struct FieldType: Hashable, Sendable {
        /// The type of the field's value, or of each element of a list.
        public var valueType: ValueType

        /// Whether the field holds a list of values of ``valueType``.
        public var isList: Bool

        /// Creates a field type.
        ///
        /// - Parameters:
        ///   - valueType: The type of the value, or of each element of a list.
        ///   - isList: Whether the field holds a list.
        public init(_ valueType: ValueType, isList: Bool = false) {
            self.valueType = valueType
            self.isList = isList
        }

        /// The type of a single value.
        public enum ValueType: Hashable, Sendable {
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
        }

        /// `ASSET`: a file stored beside the record.
        public static let asset = FieldType(.asset)
        /// `BYTES`: bytes, and nested values stored as JSON.
        public static let bytes = FieldType(.bytes)
        /// `DOUBLE`: a 64-bit floating-point number.
        public static let double = FieldType(.double)
        /// `INT64`: a 64-bit signed integer, or a `Bool`.
        public static let int64 = FieldType(.int64)
        /// `LOCATION`: a location.
        public static let location = FieldType(.location)
        /// `REFERENCE`: a reference to another record.
        public static let reference = FieldType(.reference)
        /// `STRING`: text.
        public static let string = FieldType(.string)
        /// `TIMESTAMP`: a date, to the millisecond.
        public static let timestamp = FieldType(.timestamp)

        /// `NUMBER`, or `NUMBER PREFERRED AS` `type`: a number whose type a development write chose.
        public static func number(preferredAs type: NumberType?) -> FieldType {
            FieldType(.number(preferredAs: type))
        }

        /// `LIST<…>`: a list of values of `element`'s type. A list of lists is not a CloudKit type:
        /// the list of a list is that list.
        public static func list(_ element: FieldType) -> FieldType {
            FieldType(element.valueType, isList: true)
        }

        /// Whether CloudKit can keep a field of this type encrypted: text, numbers, bytes, dates,
        /// locations and lists of them, but not assets, which it encrypts already, references,
        /// which the server must read, or `NUMBER`.
        public var canBeEncrypted: Bool {
            switch valueType {
            case .bytes, .double, .int64, .location, .string, .timestamp: true
            case .asset, .reference, .number: false
            }
        }

        /// Whether a value written by a model whose field has type `modelType` is stored by a
        /// field of this type: the same type, or a `NUMBER` that takes it.
        func accepts(_ modelType: FieldType) -> Bool {
            guard isList == modelType.isList else { return false }
            switch (valueType, modelType.valueType) {
            case (.number(nil), .int64), (.number(nil), .double), (.number(.int64), .int64),
                (.number(.double), .double):
                return true
            default:
                return valueType == modelType.valueType
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
