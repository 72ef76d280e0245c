/// A CloudKit container's schema: its record types, their fields and indexes, and who may do what
/// with their records.
///
/// A schema is written in CloudKit's schema language, which `cktool export-schema` writes and
/// `cktool import-schema` reads:
///
/// ```
/// DEFINE SCHEMA
///
///     RECORD TYPE Note (
///         "___createTime" TIMESTAMP SORTABLE,
///         body            ENCRYPTED STRING,
///         tags            LIST<STRING> QUERYABLE,
///         title           STRING QUERYABLE SEARCHABLE,
///         GRANT WRITE TO "_creator",
///         GRANT READ TO "_world"
///     );
/// ```
///
/// Build one from model types, as ``RecordEncoder`` would store them, and write it for
/// `cktool import-schema`:
///
/// ```swift
/// let schema = RecordSchema(recordTypes: [
///     try RecordSchema.RecordType(Note.self, indexes: ["title": [.queryable, .searchable]]),
///     try RecordSchema.RecordType(Author.self),
/// ])
/// try schema.text.write(to: URL(fileURLWithPath: "schema.ckdb"), atomically: true, encoding: .utf8)
/// ```
///
/// Or read the schema a container has, and check models and queries against it before they
/// reach the server:
///
/// ```swift
/// let container = try RecordSchema(parsing: String(contentsOf: exportedFile, encoding: .utf8))
/// for problem in container.problems(for: schema, queries: [notesByTitle]) {
///     print(problem)   // "Note.title is INT64 in the model but STRING in the schema."
/// }
/// ```
///
/// Writing then reading gives the same schema back: `RecordSchema(parsing: schema.text) == schema`.
/// See <doc:TheSchema>.
public struct RecordSchema: Hashable, Sendable {
    /// The roles the schema creates (`CREATE ROLE`), in order. The built-in roles `"_creator"`,
    /// `"_icloud"` and `"_world"` exist without being created; see ``Role``.
    public var roles: [String]

    /// The record types, by name in the order of the names' UTF-8 bytes, as
    /// `cktool export-schema` lists them (`CD_Note` before `Catalog`, `Users` among the others).
    public var recordTypes: [RecordType] {
        didSet { recordTypes.sort { SchemaName.listsBefore($0.name, $1.name) } }
    }

    /// Creates a schema.
    ///
    /// - Parameters:
    ///   - roles: The roles the schema creates, beside the built-in ones.
    ///   - recordTypes: The record types.
    public init(roles: [String] = [], recordTypes: [RecordType] = []) {
        self.roles = roles
        self.recordTypes = recordTypes.sorted { SchemaName.listsBefore($0.name, $1.name) }
    }

    /// Creates the schema of model types, each described with the default options (see
    /// ``RecordType/init(_:encoder:fileURLKeys:indexes:grants:)``).
    ///
    /// ```swift
    /// let schema = try RecordSchema(models: [Note.self, Author.self])
    /// ```
    ///
    /// - Parameters:
    ///   - models: The model types, each stored as a record type of its own.
    ///   - encoder: The encoder that stores the models, whose identifier key, key strategy and
    ///     encrypted keys decide the fields.
    /// - Throws: What ``RecordType/init(_:encoder:fileURLKeys:indexes:grants:)`` throws.
    public init(models: [any Decodable.Type], encoder: RecordEncoder = RecordEncoder()) throws {
        self.init(recordTypes: try models.map { try RecordType($0, encoder: encoder) })
    }

    /// The record type named `name`, or `nil` when the schema has none.
    public func recordType(named name: String) -> RecordType? {
        recordTypes.first { $0.name == name }
    }
}

extension RecordSchema: CustomStringConvertible {
    /// The schema in CloudKit's schema language: ``text``.
    public var description: String { text }
}

extension RecordSchema {
    /// The roles that every container has, which grants name without creating them.
    public enum Role {
        /// The user who created a record.
        public static let creator = "_creator"
        /// Every user signed in to iCloud.
        public static let icloud = "_icloud"
        /// Everyone, signed in or not.
        public static let world = "_world"
    }
}
