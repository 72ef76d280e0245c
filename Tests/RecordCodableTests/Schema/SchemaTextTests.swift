import Foundation
import Testing

@testable import RecordCodable

/// CloudKit's schema language: the text a schema writes, and the text it reads.
@Suite("Schema text")
struct SchemaTextTests {
    typealias Field = RecordSchema.Field
    typealias RecordType = RecordSchema.RecordType
    typealias Grant = RecordSchema.Grant

    static let schema = RecordSchema(
        roles: ["Editor"],
        recordTypes: [
            RecordType(
                name: "Note",
                fields: [
                    Field(name: "title", type: .string, indexes: [.searchable, .queryable]),
                    Field(name: "tags", type: .list(.string), indexes: .queryable),
                    Field(name: "body", type: .string, isEncrypted: true),
                    Field(name: "codes", type: .list(.int64), isEncrypted: true),
                    Field(name: "___createTime", type: .timestamp, indexes: [.sortable, .queryable]),
                    Field(name: "grant", type: .int64),
                    Field(name: "count", type: .number(preferredAs: .int64)),
                    Field(name: "legacy", type: .number(preferredAs: nil)),
                ],
                grants: [Grant(.write, to: "_creator"), Grant([.read, .create, .write], to: "Editor")]),
            RecordType(name: "Empty"),
        ])

    static let text = """
        DEFINE SCHEMA

            CREATE ROLE Editor;

            RECORD TYPE Empty (
            );

            RECORD TYPE Note (
                "___createTime" TIMESTAMP QUERYABLE SORTABLE,
                body            ENCRYPTED STRING,
                codes           LIST<ENCRYPTED INT64>,
                count           NUMBER PREFERRED AS INT64,
                "grant"         INT64,
                legacy          NUMBER,
                tags            LIST<STRING> QUERYABLE,
                title           STRING QUERYABLE SEARCHABLE,
                GRANT READ, CREATE, WRITE TO Editor,
                GRANT WRITE TO "_creator"
            );

        """

    // MARK: Writing

    @Test("The text: roles, then record types and fields by name, grants by role; reserved and system names quoted")
    func writtenText() {
        #expect(Self.schema.text == Self.text)
        #expect(Self.schema.description == Self.text)
    }

    @Test("Reading the written text gives the schema back")
    func roundTrip() throws {
        #expect(try RecordSchema(parsing: Self.text) == Self.schema)
        #expect(try RecordSchema(parsing: RecordSchema().text) == RecordSchema())
    }

    @Test("Fields are kept in the language's order however they are given or changed")
    func fieldOrder() {
        var recordType = RecordType(
            name: "T", fields: [Field(name: "b", type: .string), Field(name: "a", type: .string)])
        #expect(recordType.fields.map(\.name) == ["a", "b"])
        recordType.fields.append(Field(name: "___etag", type: .string, indexes: .queryable))
        recordType.fields.append(Field(name: "B", type: .string))
        // In the order of the names' bytes, as exports list them: upper case, underscores, lower case.
        #expect(recordType.fields.map(\.name) == ["B", "___etag", "a", "b"])
    }

    @Test(
        "Names that need quotes get them",
        arguments: [
            ("plain", "plain"), ("CD_title", "CD_title"), ("grant", "\"grant\""), ("Queryable", "\"Queryable\""),
            ("SORTABLE", "\"SORTABLE\""), ("searchable", "\"searchable\""), ("preferred", "\"preferred\""),
            ("_world", "\"_world\""), ("___recordID", "\"___recordID\""), ("9lives", "\"9lives\""),
            ("with space", "\"with space\""), ("list", "list"), ("type", "type"),
        ])
    func quoting(name: String, written: String) throws {
        #expect(SchemaName.written(name) == written)
        let schema = RecordSchema(
            roles: [name],
            recordTypes: [
                RecordType(name: name, fields: [Field(name: name, type: .string)], grants: [Grant(.read, to: name)])
            ])
        #expect(try RecordSchema(parsing: schema.text) == schema)
    }

    @Test("FieldType describes itself as the language writes it")
    func fieldTypeDescription() {
        #expect(RecordSchema.FieldType.list(.reference).description == "LIST<REFERENCE>")
        #expect(RecordSchema.FieldType.number(preferredAs: .double).description == "NUMBER PREFERRED AS DOUBLE")
    }

    // MARK: Reading

    @Test("Every construct of the language: comments, quotes, any case, grants among fields, roles")
    func everyConstruct() throws {
        let text = """
            // A schema written by hand.
            -- With comments of every kind,
            /* including
               block comments */
            define schema
                create role Editor;   -- a role
                CREATE ROLE "grant";
                record type "Note" (
                    GRANT READ TO "_world",   /* a grant before the fields */
                    title string queryable Sortable SEARCHABLE,
                    "queryable" Int64,
                    GRANT WRITE,CREATE TO Editor,
                    count NUMBER preferred as DOUBLE,
                    secret LIST < encrypted BYTES >,
                    other ENCRYPTED LIST<LOCATION>,
                    places list<location>,
                    asset ASSET, ref REFERENCE, when TIMESTAMP, blob BYTES, ratio DOUBLE, raw NUMBER
                );
                RECORD TYPE Users (
                    roles LIST<INT64>
                );
            """
        let schema = try RecordSchema(parsing: text)
        #expect(schema.roles == ["Editor", "grant"])
        #expect(schema.recordTypes.map(\.name) == ["Note", "Users"])
        let note = try #require(schema.recordType(named: "Note"))
        #expect(note.grants == [Grant([.write, .create], to: "Editor"), Grant(.read, to: "_world")])
        #expect(
            note.fields == [
                Field(name: "asset", type: .asset), Field(name: "blob", type: .bytes),
                Field(name: "count", type: .number(preferredAs: .double)),
                Field(name: "other", type: .list(.location), isEncrypted: true),
                Field(name: "places", type: .list(.location)),
                Field(name: "queryable", type: .int64), Field(name: "ratio", type: .double),
                Field(name: "raw", type: .number(preferredAs: nil)), Field(name: "ref", type: .reference),
                Field(name: "secret", type: .list(.bytes), isEncrypted: true),
                Field(name: "title", type: .string, indexes: [.queryable, .sortable, .searchable]),
                Field(name: "when", type: .timestamp),
            ])
        #expect(schema.recordType(named: "Users")?.fields == [Field(name: "roles", type: .list(.int64))])
    }

    @Test("A byte order mark, Windows line ends, tabs, and an empty record type are read")
    func whiteSpace() throws {
        let text = "\u{FEFF}DEFINE SCHEMA\r\n\tRECORD TYPE A (\r\n\t\tx STRING\r\n\t);\r\n\tRECORD TYPE B ();\r\n"
        let schema = try RecordSchema(parsing: text)
        #expect(
            schema.recordTypes == [
                RecordType(name: "A", fields: [Field(name: "x", type: .string)]), RecordType(name: "B"),
            ])
    }

    @Test("Old Mac line ends, a carriage return alone, end comments and count lines")
    func carriageReturns() throws {
        let text = "DEFINE SCHEMA\r// a comment\r-- another\rRECORD TYPE A (x STRING);\r"
        #expect(
            try RecordSchema(parsing: text).recordTypes == [
                RecordType(name: "A", fields: [Field(name: "x", type: .string)])
            ])
        let misspelt = "DEFINE SCHEMA\rRECORD TYPE A (\r  x STRNG\r);"
        let error = #expect(throws: RecordSchema.ParseError.self) { _ = try RecordSchema(parsing: misspelt) }
        #expect(error?.line == 3)
        // A carriage return and line feed is one line end.
        let windows = "DEFINE SCHEMA\r\nRECORD TYPE A (\r\n  x STRNG\r\n);"
        let windowsError = #expect(throws: RecordSchema.ParseError.self) { _ = try RecordSchema(parsing: windows) }
        #expect(windowsError?.line == 3)
    }

    @Test(
        "Text that is not the language is an error at its line and column",
        arguments: [
            ("", 1, 1, "expected DEFINE, found the end of the schema"),
            ("DEFINE", 1, 7, "expected SCHEMA, found the end of the schema"),
            ("SCHEMA", 1, 1, "expected DEFINE, found 'SCHEMA'"),
            ("DEFINE SCHEMA\nRECORD TYPE A (\n  x STRNG\n);", 3, 5, "expected a field type"),
            ("DEFINE SCHEMA\nRECORD TYPE A (\n  x STRING\n)", 4, 2, "expected ';' after the statement, found the end"),
            ("DEFINE SCHEMA\nRECORD TYPE A (\n  x STRING\n  y INT64\n);", 4, 3, "expected ')' after the last field"),
            ("DEFINE SCHEMA\nRECORD TYPE A (x STRING,);", 2, 25, "expected the name of a field or GRANT, found ')'"),
            ("DEFINE SCHEMA\nRECORD TYPE A (grant STRING);", 2, 22, "expected READ, CREATE or WRITE, found 'STRING'"),
            ("DEFINE SCHEMA\nRECORD TYPE A (queryable STRING);", 2, 16, "'queryable' is a reserved word"),
            ("DEFINE SCHEMA\nRECORD TYPE A (_x STRING);", 2, 16, "a name that starts with an underscore"),
            ("DEFINE SCHEMA\nRECORD TYPE A (x ENCRYPTED ASSET);", 2, 28, "expected a type that CloudKit can encrypt"),
            (
                "DEFINE SCHEMA\nRECORD TYPE A (x ENCRYPTED REFERENCE);", 2, 28,
                "expected a type that CloudKit can encrypt"
            ),
            ("DEFINE SCHEMA\nRECORD TYPE A (x LIST<LIST<STRING>>);", 2, 23, "a list holds single values, not lists"),
            ("DEFINE SCHEMA\nRECORD TYPE A (x LIST<STRING);", 2, 29, "expected '>' after the list's element type"),
            ("DEFINE SCHEMA\nRECORD TYPE A (x NUMBER PREFERRED AS STRING);", 2, 38, "expected INT64 or DOUBLE"),
            ("DEFINE SCHEMA\nRECORD TYPE A (x STRING, x INT64);", 2, 26, "the field 'x' is listed twice in 'A'"),
            ("DEFINE SCHEMA\nRECORD TYPE A ();\nRECORD TYPE A ();", 3, 13, "the record type 'A' is defined twice"),
            ("DEFINE SCHEMA\nCREATE ROLE R;\nCREATE ROLE R;", 3, 13, "the role 'R' is created twice"),
            ("DEFINE SCHEMA\nCREATE TABLE A;", 2, 8, "expected ROLE, found 'TABLE'"),
            ("DEFINE SCHEMA\nDROP TYPE A;", 2, 1, "expected CREATE ROLE, RECORD TYPE or the end of the schema"),
            ("DEFINE SCHEMA\nRECORD TYPE A (x STRING GRANT);", 2, 25, "expected ')' after the last field"),
            ("DEFINE SCHEMA\nRECORD TYPE A (GRANT READ TO);", 2, 29, "expected the name of the role, found ')'"),
            ("DEFINE SCHEMA\nRECORD TYPE A (GRANT READ, STRING TO x);", 2, 26, "expected TO, found ','"),
            ("DEFINE SCHEMA\nRECORD TYPE \"A\n\" ();", 2, 13, "a quoted name is not closed on its line"),
            ("DEFINE SCHEMA\nRECORD TYPE \"\" ();", 2, 13, "a quoted name is empty"),
            ("DEFINE SCHEMA /* never closed", 1, 15, "a comment that starts with /* has no */"),
            ("DEFINE SCHEMA\nRECORD TYPE A (x STRING = 1);", 2, 25, "unexpected character '='"),
            ("DEFINE SCHEMA\nRECORD TYPE Caf\u{E9} ();", 2, 16, "unexpected character 'é' (U+00E9)"),
        ] as [(String, Int, Int, String)])
    func parseErrors(text: String, line: Int, column: Int, message: String) {
        let error = #expect(throws: RecordSchema.ParseError.self) { _ = try RecordSchema(parsing: text) }
        #expect(error?.line == line, "\(String(describing: error))")
        #expect(error?.column == column, "\(String(describing: error))")
        #expect(error?.message.hasPrefix(message) == true, "\(String(describing: error))")
    }

    @Test("A parse error says where and what, as its description and its localized description")
    func parseErrorDescription() {
        let error = RecordSchema.ParseError(line: 4, column: 15, message: "expected a field type, found 'STRNG'")
        #expect(error.description == "line 4, column 15: expected a field type, found 'STRNG'")
        #expect(error.localizedDescription == error.description)
    }
}
