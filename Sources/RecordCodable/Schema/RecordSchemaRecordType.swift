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
    /// The fields and grants are kept in the order `cktool export-schema` lists them, whatever
    /// order they are given in: fields by name, in the order of the names' UTF-8 bytes (so
    /// `CD_title`, then `"___createTime"`, then `title`); one grant for each role, its
    /// permissions together, by the role's name (`"_creator"`, `"_icloud"`, `"_world"`, then the
    /// schema's own roles in lower case). A grant of no permission is left out. To describe a
    /// model type, see ``init(_:encoder:fileURLKeys:indexes:grants:)``.
    public struct RecordType: Hashable, Sendable {
        /// The record type's name, such as `"Note"`.
        public var name: String

        /// The fields, by name in the order of the names' UTF-8 bytes.
        public var fields: [Field] {
            didSet { fields.sort(by: Field.listsBefore) }
        }

        /// Who may read, create and write records of this type: one grant for each role, by the
        /// role's name.
        public var grants: [Grant] {
            didSet { grants = Grant.merged(grants) }
        }

        /// Creates a record type.
        ///
        /// - Parameters:
        ///   - name: The record type's name.
        ///   - fields: Its fields, in any order.
        ///   - grants: Who may read, create and write its records.
        public init(name: String, fields: [Field] = [], grants: [Grant] = []) {
            self.name = name
            self.fields = fields.sorted(by: Field.listsBefore)
            self.grants = Grant.merged(grants)
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
    /// The fields CloudKit gives every record type. Exports list all six in every record type; a
    /// schema written by hand may leave out those it does not index, which are there all the same.
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
