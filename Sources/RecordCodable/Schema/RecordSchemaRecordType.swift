extension RecordSchema {
    /// One record type of a schema: its name, its fields, and the grants of its records.
    ///
    /// ```swift
    /// let note = RecordSchema.RecordType(
    ///     name: "Note",
    ///     fields: [
    ///         .init(name: "title", type: .string, indexes: [.queryable, .searchable]),
    ///         .init(name: "tags", type: .list(.string)),
    ///     ],
    ///     grants: RecordSchema.Grant.publicDatabase)
    /// ```
    ///
    /// The fields are kept in the order the schema language lists them, whatever order they are
    /// given in: CloudKit's system fields (`"___createTime"` and the others) first, then the rest,
    /// each group sorted by name. Grants keep their order. To describe a model type, see
    /// ``init(_:encoder:fileURLKeys:indexes:grants:)``.
    public struct RecordType: Hashable, Sendable {
        /// The record type's name, such as `"Note"`.
        public var name: String

        /// The fields, system fields first, then by name.
        public var fields: [Field] {
            didSet { fields.sort(by: Field.listsBefore) }
        }

        /// Who may read, create and write records of this type.
        public var grants: [Grant]

        /// Creates a record type.
        ///
        /// - Parameters:
        ///   - name: The record type's name.
        ///   - fields: Its fields, in any order.
        ///   - grants: Who may read, create and write its records.
        public init(name: String, fields: [Field] = [], grants: [Grant] = []) {
            self.name = name
            self.fields = fields.sorted(by: Field.listsBefore)
            self.grants = grants
        }

        /// The field named `name`, or `nil` when the record type lists none.
        ///
        /// A system field that the record type does not list, such as `"___createTime"` when it
        /// carries no index, exists all the same: see ``SystemField``.
        public func field(named name: String) -> Field? {
            fields.first { $0.name == name }
        }
    }
}

extension RecordSchema {
    /// The fields CloudKit gives every record type. A schema lists one only to index it.
    ///
    /// ```swift
    /// try RecordSchema.RecordType(Note.self, indexes: [RecordSchema.SystemField.createTime.rawValue: [.sortable]])
    /// ```
    public enum SystemField: String, CaseIterable, Sendable {
        /// When the record was created.
        case createTime = "___createTime"
        /// The user who created the record.
        case createdBy = "___createdBy"
        /// The record's change tag.
        case etag = "___etag"
        /// When the record was last changed.
        case modTime = "___modTime"
        /// The user who last changed the record.
        case modifiedBy = "___modifiedBy"
        /// The record's name: index it `QUERYABLE` to query a type's records without a filter.
        case recordID = "___recordID"

        /// The field's type, which cannot change.
        public var type: FieldType {
            switch self {
            case .createTime, .modTime: .timestamp
            case .createdBy, .modifiedBy, .recordID: .reference
            case .etag: .string
            }
        }
    }
}
