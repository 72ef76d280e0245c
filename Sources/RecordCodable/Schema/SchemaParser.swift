extension RecordSchema {
    /// Reads a schema written in CloudKit's schema language, such as a file that
    /// `cktool export-schema` wrote.
    ///
    /// ```swift
    /// let schema = try RecordSchema(parsing: """
    ///     DEFINE SCHEMA
    ///         CREATE ROLE Editor;
    ///         RECORD TYPE Note (
    ///             "___recordID" REFERENCE QUERYABLE,   -- list every note
    ///             title STRING QUERYABLE,
    ///             body ENCRYPTED STRING,
    ///             GRANT READ, WRITE TO Editor
    ///         );
    ///     """)
    /// ```
    ///
    /// Everything the language has is read: the three kinds of comments (`//` and `--` to the end
    /// of the line, `/* … */`), names in double quotes (reserved words such as `"grant"`, system
    /// names such as `"___createTime"`), every field type with `ENCRYPTED` and `LIST<…>`,
    /// `NUMBER PREFERRED AS INT64` or `DOUBLE`, index options, grants among the fields, and
    /// `CREATE ROLE`. Keywords are read in any case. An encrypted list is read written either
    /// `LIST<ENCRYPTED STRING>`, as the grammar has it, or `ENCRYPTED LIST<STRING>`.
    ///
    /// - Parameter text: The schema text.
    /// - Throws: ``ParseError``, with the line and column, for text that is not the language: an
    ///   unknown type, a missing comma or semicolon, an unquoted reserved word, an unclosed
    ///   comment, a field or record type listed twice.
    public init(parsing text: String) throws {
        var parser = SchemaParser(tokens: try SchemaLexer.tokens(of: text))
        self = try parser.schema()
    }
}

/// Reads the tokens of schema text by the grammar of CloudKit's schema language, one token of
/// look-ahead at a time, with no recursion.
struct SchemaParser {
    private let tokens: [SchemaToken]
    private var position = 0

    init(tokens: [SchemaToken]) {
        self.tokens = tokens
    }

    /// `DEFINE SCHEMA`, then role and record type statements, each ended by `;`.
    mutating func schema() throws -> RecordSchema {
        try expectKeyword("DEFINE")
        try expectKeyword("SCHEMA")
        var schema = RecordSchema()
        // Names seen so far, so that a long schema is checked for repeats in linear time.
        var roles: Set<String> = []
        var recordTypes: Set<String> = []
        while current.kind != .end {
            if takeKeyword("CREATE") {
                try expectKeyword("ROLE")
                let token = current
                let role = try name(of: "the role")
                guard roles.insert(role).inserted else { throw error("the role '\(role)' is created twice", at: token) }
                schema.roles.append(role)
            } else if takeKeyword("RECORD") {
                try expectKeyword("TYPE")
                let token = current
                let recordType = try self.recordType()
                guard recordTypes.insert(recordType.name).inserted else {
                    throw error("the record type '\(recordType.name)' is defined twice", at: token)
                }
                schema.recordTypes.append(recordType)
            } else {
                throw expected("CREATE ROLE, RECORD TYPE or the end of the schema")
            }
            try expectSymbol(";", after: "the statement")
        }
        return schema
    }

    /// A record type's name and, in parentheses, its fields and grants, separated by commas.
    private mutating func recordType() throws -> RecordSchema.RecordType {
        let name = try self.name(of: "the record type")
        try expectSymbol("(", after: "the record type's name")
        var fields: [RecordSchema.Field] = []
        var fieldNames: Set<String> = []
        var grants: [RecordSchema.Grant] = []
        if !takeSymbol(")") {
            repeat {
                if takeKeyword("GRANT") {
                    grants.append(try grant())
                } else {
                    let token = current
                    let field = try self.field()
                    guard fieldNames.insert(field.name).inserted else {
                        throw error("the field '\(field.name)' is listed twice in '\(name)'", at: token)
                    }
                    fields.append(field)
                }
            } while takeSymbol(",")
            try expectSymbol(")", after: "the last field or grant")
        }
        return RecordSchema.RecordType(name: name, fields: fields, grants: grants)
    }

    /// `name TYPE [QUERYABLE] [SORTABLE] [SEARCHABLE]`, the options in any order.
    private mutating func field() throws -> RecordSchema.Field {
        let name = try self.name(of: "a field or GRANT")
        let (type, isEncrypted) = try fieldType()
        var indexes: RecordSchema.Indexes = []
        while true {
            if takeKeyword("QUERYABLE") {
                indexes.insert(.queryable)
            } else if takeKeyword("SORTABLE") {
                indexes.insert(.sortable)
            } else if takeKeyword("SEARCHABLE") {
                indexes.insert(.searchable)
            } else {
                break
            }
        }
        return RecordSchema.Field(name: name, type: type, isEncrypted: isEncrypted, indexes: indexes)
    }

    /// A field's type and whether it is encrypted: a single type, `LIST<type>`, or either
    /// encrypted (`ENCRYPTED STRING`, `LIST<ENCRYPTED STRING>`, `ENCRYPTED LIST<STRING>`).
    private mutating func fieldType() throws -> (RecordSchema.FieldType, isEncrypted: Bool) {
        if takeKeyword("ENCRYPTED") {
            if takeKeyword("LIST") {
                return (.list(try encryptableType(inList: true)), true)
            }
            return (try encryptableType(inList: false), true)
        }
        guard takeKeyword("LIST") else { return try singleType() }
        try expectSymbol("<", after: "LIST")
        if current.isKeyword("LIST") { throw error("a list holds single values, not lists", at: current) }
        let (element, isEncrypted) = try singleType()
        try expectSymbol(">", after: "the list's element type")
        return (.list(element), isEncrypted)
    }

    /// A type that is not a list, encrypted or not.
    private mutating func singleType() throws -> (RecordSchema.FieldType, isEncrypted: Bool) {
        if takeKeyword("ENCRYPTED") { return (try encryptableType(inList: false), true) }
        if let type = takePlainType(encryptable: false) { return (type, false) }
        if takeKeyword("NUMBER") {
            guard takeKeyword("PREFERRED") else { return (.number(preferredAs: nil), false) }
            try expectKeyword("AS")
            if takeKeyword("INT64") { return (.number(preferredAs: .int64), false) }
            if takeKeyword("DOUBLE") { return (.number(preferredAs: .double), false) }
            throw expected("INT64 or DOUBLE after PREFERRED AS")
        }
        throw expected(
            "a field type (ASSET, BYTES, DOUBLE, INT64, LIST<…>, LOCATION, NUMBER, REFERENCE, STRING, TIMESTAMP)")
    }

    /// The type after `ENCRYPTED`: one that CloudKit can encrypt. After `ENCRYPTED LIST`, it is in
    /// angle brackets.
    private mutating func encryptableType(inList: Bool) throws -> RecordSchema.FieldType {
        if inList { try expectSymbol("<", after: "LIST") }
        guard let type = takePlainType(encryptable: true) else {
            throw expected("a type that CloudKit can encrypt (BYTES, DOUBLE, INT64, LOCATION, STRING, TIMESTAMP)")
        }
        if inList { try expectSymbol(">", after: "the list's element type") }
        return type
    }

    /// The type named by the current word, if it is one of the types without options; when
    /// `encryptable` is true, only one that CloudKit can encrypt.
    private mutating func takePlainType(encryptable: Bool) -> RecordSchema.FieldType? {
        guard let type = Self.plainTypes.first(where: { current.isKeyword($0.keyword) })?.type,
            !encryptable || type.canBeEncrypted
        else { return nil }
        position &+= 1
        return type
    }

    private static let plainTypes: [(keyword: String, type: RecordSchema.FieldType)] = [
        ("ASSET", .asset), ("BYTES", .bytes), ("DOUBLE", .double), ("INT64", .int64), ("LOCATION", .location),
        ("REFERENCE", .reference), ("STRING", .string), ("TIMESTAMP", .timestamp),
    ]

    /// `READ`, `CREATE` and `WRITE`, separated by commas, then `TO role` (after `GRANT`).
    private mutating func grant() throws -> RecordSchema.Grant {
        var permissions: RecordSchema.Grant.Permissions = try permission()
        // A comma either goes on with the permissions or ends the grant; a grant ends with TO,
        // so a comma followed by a permission is part of it.
        while current.kind == .symbol(","), Self.permission(named: next) != nil {
            position &+= 1
            permissions.formUnion(try permission())
        }
        try expectKeyword("TO")
        return RecordSchema.Grant(permissions, to: try name(of: "the role"))
    }

    private mutating func permission() throws -> RecordSchema.Grant.Permissions {
        guard let permission = Self.permission(named: current) else { throw expected("READ, CREATE or WRITE") }
        position &+= 1
        return permission
    }

    private static func permission(named token: SchemaToken) -> RecordSchema.Grant.Permissions? {
        if token.isKeyword("READ") { return .read }
        if token.isKeyword("CREATE") { return .create }
        if token.isKeyword("WRITE") { return .write }
        return nil
    }

    // MARK: Tokens

    /// The token being read. The lexer ends every list with an end token, which is never passed.
    private var current: SchemaToken {
        position < tokens.count ? tokens[position] : SchemaToken(kind: .end, line: 1, column: 1)
    }

    /// The token after the current one.
    private var next: SchemaToken {
        let index = position &+ 1
        return index < tokens.count ? tokens[index] : current
    }

    /// A name: a bare word that is not a reserved word, or a quoted name.
    private mutating func name(of what: String) throws -> String {
        switch current.kind {
        case .word(let word):
            if SchemaName.isReserved(word) {
                throw error(
                    "'\(word)' is a reserved word: write it in double quotes to use it as a name", at: current)
            }
            position &+= 1
            return word
        case .quoted(let name):
            position &+= 1
            return name
        case .symbol, .end:
            throw expected("the name of \(what)")
        }
    }

    private mutating func takeKeyword(_ keyword: String) -> Bool {
        guard current.isKeyword(keyword) else { return false }
        position &+= 1
        return true
    }

    private mutating func expectKeyword(_ keyword: String) throws {
        guard takeKeyword(keyword) else { throw expected(keyword) }
    }

    private mutating func takeSymbol(_ symbol: Unicode.Scalar) -> Bool {
        guard current.kind == .symbol(symbol) else { return false }
        position &+= 1
        return true
    }

    private mutating func expectSymbol(_ symbol: Unicode.Scalar, after what: String) throws {
        guard takeSymbol(symbol) else { throw expected("'\(symbol)' after \(what)") }
    }

    private func expected(_ what: String) -> RecordSchema.ParseError {
        error("expected \(what), found \(current.quotedForMessage)", at: current)
    }

    private func error(_ message: String, at token: SchemaToken) -> RecordSchema.ParseError {
        RecordSchema.ParseError(line: token.line, column: token.column, message: message)
    }
}

extension SchemaToken {
    /// Whether the token is the bare word `keyword`, in any case.
    func isKeyword(_ keyword: String) -> Bool {
        guard case .word(let word) = kind, word.utf8.count == keyword.utf8.count else { return false }
        return word.uppercased() == keyword
    }
}
