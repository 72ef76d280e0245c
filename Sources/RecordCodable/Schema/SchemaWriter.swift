extension RecordSchema {
    /// The schema in CloudKit's schema language, as `cktool export-schema` writes it and
    /// `cktool import-schema` reads it.
    ///
    /// `DEFINE SCHEMA`, then each statement after a blank line, indented four spaces: the roles
    /// the schema creates, then each record type (by name), its fields one a line, indented eight
    /// spaces (by name, the names padded to one column), then its grants (one for each role, by
    /// the role's name):
    ///
    /// ```
    /// DEFINE SCHEMA
    ///
    ///     CREATE ROLE editor;
    ///
    ///     RECORD TYPE Note (
    ///         "___createTime" TIMESTAMP QUERYABLE SORTABLE,
    ///         body            ENCRYPTED STRING,
    ///         tags            LIST<STRING> QUERYABLE,
    ///         title           STRING QUERYABLE SEARCHABLE SORTABLE,
    ///         GRANT WRITE TO "_creator",
    ///         GRANT READ TO "_world",
    ///         GRANT READ, CREATE, WRITE TO editor
    ///     );
    /// ```
    ///
    /// Index options are written `QUERYABLE SEARCHABLE SORTABLE` and permissions
    /// `READ, CREATE, WRITE`, in that order, as exports write them. A name that is a reserved word
    /// (`grant`, `preferred`, `queryable`, `sortable`, `searchable`), starts with an underscore
    /// (`"___recordID"`, `"_world"`), or holds anything but letters, digits and underscores is
    /// written in double quotes; other names are bare. So the text of an exported schema, read and
    /// written again, is the export as it was, less its comments; and reading the text gives the
    /// schema back: `RecordSchema(parsing: schema.text) == schema` for every schema the language
    /// can hold (a name cannot hold a double quote or a line break).
    public var text: String {
        var lines = ["DEFINE SCHEMA"]
        if !roles.isEmpty {
            lines.append("")
            lines += roles.map { "    CREATE ROLE \(SchemaName.written($0));" }
        }
        for recordType in recordTypes {
            lines.append("")
            lines += recordType.lines
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension RecordSchema.RecordType {
    /// The record type's statement, a line per field and grant, names aligned.
    fileprivate var lines: [String] {
        let names = fields.map { SchemaName.written($0.name) }
        let width = names.map(\.count).max() ?? 0
        var entries = zip(names, fields).map { name, field in
            let padding = String(repeating: " ", count: width - name.count)
            return ([name + padding, field.typeText] + field.indexes.keywords).joined(separator: " ")
        }
        entries += grants.map(\.text)
        var lines = ["    RECORD TYPE \(SchemaName.written(name)) ("]
        lines += entries.enumerated().map { index, entry in
            "        " + entry + (index < entries.count - 1 ? "," : "")
        }
        lines.append("    );")
        return lines
    }
}

extension RecordSchema.Field {
    /// The field's type as the language writes it, with `ENCRYPTED` before the single type it
    /// applies to: `ENCRYPTED STRING`, `LIST<ENCRYPTED STRING>`.
    var typeText: String {
        let single = (isEncrypted ? "ENCRYPTED " : "") + type.valueType.text
        return type.isList ? "LIST<\(single)>" : single
    }
}

extension RecordSchema.FieldType: CustomStringConvertible {
    /// The type as the schema language writes it: `STRING`, `LIST<INT64>`,
    /// `NUMBER PREFERRED AS DOUBLE`.
    public var description: String {
        isList ? "LIST<\(valueType.text)>" : valueType.text
    }
}

extension RecordSchema.FieldType.ValueType {
    fileprivate var text: String {
        switch self {
        case .asset: "ASSET"
        case .bytes: "BYTES"
        case .double: "DOUBLE"
        case .int64: "INT64"
        case .location: "LOCATION"
        case .reference: "REFERENCE"
        case .string: "STRING"
        case .timestamp: "TIMESTAMP"
        case .number(nil): "NUMBER"
        case .number(.int64): "NUMBER PREFERRED AS INT64"
        case .number(.double): "NUMBER PREFERRED AS DOUBLE"
        }
    }
}

extension RecordSchema.Indexes {
    /// The options in the order exports write them: `QUERYABLE SEARCHABLE SORTABLE`.
    var keywords: [String] {
        var keywords: [String] = []
        if contains(.queryable) { keywords.append("QUERYABLE") }
        if contains(.searchable) { keywords.append("SEARCHABLE") }
        if contains(.sortable) { keywords.append("SORTABLE") }
        return keywords
    }
}

extension RecordSchema.Grant {
    /// `GRANT READ, CREATE, WRITE TO role`, the permissions in the order exports write them.
    var text: String {
        "GRANT \(permissions.keywords.joined(separator: ", ")) TO \(SchemaName.written(role))"
    }
}

extension RecordSchema.Grant.Permissions {
    /// The permissions in the order exports write them: `READ, CREATE, WRITE`.
    var keywords: [String] {
        var keywords: [String] = []
        if contains(.read) { keywords.append("READ") }
        if contains(.create) { keywords.append("CREATE") }
        if contains(.write) { keywords.append("WRITE") }
        return keywords
    }
}

/// How names are written in the schema language.
enum SchemaName {
    /// The words that cannot be bare names, in any case.
    private static let reservedWords: Set<String> = ["GRANT", "PREFERRED", "QUERYABLE", "SORTABLE", "SEARCHABLE"]

    /// Whether `word` is a reserved word, in any case.
    static func isReserved(_ word: String) -> Bool {
        reservedWords.contains(word.uppercased())
    }

    /// Whether `first` comes before `second` where exports list names: in the order of their
    /// UTF-8 bytes, so upper case, then underscores, then lower case.
    static func listsBefore(_ first: String, _ second: String) -> Bool {
        first.utf8.lexicographicallyPrecedes(second.utf8)
    }

    /// `name` bare when it can be, else in double quotes.
    static func written(_ name: String) -> String {
        isBare(name) ? name : "\"\(name)\""
    }

    /// Whether `name` can be written without quotes: an ASCII letter, then ASCII letters, digits
    /// and underscores, and not a reserved word.
    private static func isBare(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetter else { return false }
        let allowed = name.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "_" }
        return allowed && !isReserved(name)
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
