import Foundation
import Testing

@testable import RecordCodable

/// Seeded, reproducible random tests of the schema language: random schemas read back as they
/// were written, and random or mutated text either reads, and then writes text that reads back the
/// same, or throws a `ParseError` inside the text, never anything else and never a crash or a hang.
///
/// A failure names its seed and iteration; `RandomSource(seed:)` with that seed replays it.
@Suite("Schema properties")
struct SchemaPropertyTests {
    static let seed: UInt64 = 0x5C4E_3A19

    @Test("Random schemas read back from their text as they were")
    func randomSchemasRoundTrip() throws {
        var random = RandomSource(seed: Self.seed)
        for iteration in 0..<2_000 {
            let schema = RecordSchema.random(using: &random)
            let read = try RecordSchema(parsing: schema.text)
            #expect(read == schema, "seed \(Self.seed), iteration \(iteration)\n\(schema.text)")
            guard read == schema else { return }
        }
    }

    @Test("Random text of the language's pieces reads, and round-trips, or is a ParseError inside the text")
    func randomText() {
        var random = RandomSource(seed: Self.seed &+ 1)
        var outcomes = (parsed: 0, errors: 0)
        for iteration in 0..<5_000 {
            var text = random.bool() ? "DEFINE SCHEMA " : ""
            for _ in 0..<random.int(in: 0...40) {
                text += Self.pieces[random.int(in: 0...(Self.pieces.count - 1))]
            }
            if expectParsedOrParseError(text, "seed \(Self.seed &+ 1), iteration \(iteration)") {
                outcomes.parsed += 1
            } else {
                outcomes.errors += 1
            }
        }
        // Both ways out are taken: some text is the language (about one in a hundred), most is not.
        #expect(outcomes.parsed > 30)
        #expect(outcomes.errors > 1_000)
    }

    @Test("Mutated exports read, and round-trip, or are a ParseError inside the text")
    func mutatedExports() {
        var random = RandomSource(seed: Self.seed &+ 2)
        let exports = [
            SchemaExportTests.departments, SchemaExportTests.users, SchemaExportTests.coreDataMirror,
            SchemaExportTests.handWritten,
        ]
        var outcomes = (parsed: 0, errors: 0)
        for iteration in 0..<4_000 {
            var scalars = Array(exports[iteration % exports.count].unicodeScalars)
            for _ in 0..<random.int(in: 1...4) {
                scalars.mutate(using: &random)
            }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars)
            if expectParsedOrParseError(String(text), "seed \(Self.seed &+ 2), iteration \(iteration)") {
                outcomes.parsed += 1
            } else {
                outcomes.errors += 1
            }
        }
        #expect(outcomes.parsed > 100)
        #expect(outcomes.errors > 100)
    }

    // A parser that went quadratic would take minutes here, even in a release build; that is
    // left to show in the suite's time, not in a timed expectation that a busy machine can fail.
    @Test("A long schema reads whole, and a repeat at its end is still found at its line")
    func longSchema() throws {
        let fields = (0..<20_000).map { "    f\($0) STRING" }.joined(separator: ",\n")
        let types = (0..<2_000).map { "RECORD TYPE T\($0) (x INT64);" }.joined(separator: "\n")
        let text = "DEFINE SCHEMA\nRECORD TYPE Wide (\n\(fields)\n);\n\(types)\n"
        let schema = try RecordSchema(parsing: text)
        #expect(schema.recordTypes.count == 2_001)
        #expect(schema.recordType(named: "Wide")?.fields.count == 20_000)
        #expect(try RecordSchema(parsing: schema.text) == schema)
        let error = #expect(throws: RecordSchema.ParseError.self) {
            _ = try RecordSchema(parsing: text + "RECORD TYPE T0 ();")
        }
        #expect(error?.line == 22_004)
    }

    /// The pieces random text is made of: the language's words, names of every kind, its marks,
    /// comments, and characters it does not know.
    static let pieces = [
        "DEFINE ", "SCHEMA ", "CREATE ", "ROLE ", "RECORD ", "TYPE ", "GRANT ", "READ", "WRITE", "TO ", "LIST",
        "<", ">", "(", ")", ",", ";", " ", "\n", "\t", "ENCRYPTED ", "STRING ", "INT64 ", "DOUBLE ", "BYTES ",
        "ASSET ", "REFERENCE ", "LOCATION ", "TIMESTAMP ", "NUMBER ", "PREFERRED ", "AS ", "QUERYABLE ",
        "SORTABLE ", "SEARCHABLE ", "name ", "Note ", "\"___recordID\" ", "\"grant\" ", "\"a b\" ", "\"", "_x ",
        "// comment\n", "-- comment\n", "/* block */", "/*", "*/", "-", "/", "é", "\u{0}", "\r\n", "RECORD TYPE A (",
        "x STRING", "GRANT READ TO \"_world\"", "\u{FEFF}", "1", "=",
    ]

    /// Expects `text` to read as a schema whose text reads back the same, or to throw a
    /// `ParseError` at a place inside the text. Returns whether it read.
    private func expectParsedOrParseError(_ text: String, _ comment: Comment) -> Bool {
        do {
            let schema = try RecordSchema(parsing: text)
            let again = try RecordSchema(parsing: schema.text)
            #expect(again == schema, comment)
            return true
        } catch let error as RecordSchema.ParseError {
            let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(error.line >= 1 && error.line <= lines.count, "\(comment): \(error)")
            let lineLength = error.line <= lines.count ? lines[error.line - 1].count : 0
            #expect(error.column >= 1 && error.column <= lineLength + 1, "\(comment): \(error)")
            #expect(!error.message.isEmpty, comment)
            return false
        } catch {
            Issue.record("\(comment): not a ParseError: \(error)")
            return false
        }
    }
}

extension RecordSchema {
    /// A random schema of names of every kind, every field type, and grants.
    static func random(using random: inout RandomSource) -> RecordSchema {
        var roles: [String] = []
        for _ in 0..<random.int(in: 0...2) {
            let role = String.randomName(using: &random)
            if !roles.contains(role) { roles.append(role) }
        }
        var recordTypes: [RecordType] = []
        for _ in 0..<random.int(in: 0...3) {
            let name = String.randomName(using: &random)
            guard !recordTypes.contains(where: { $0.name == name }) else { continue }
            var fields: [Field] = []
            for _ in 0..<random.int(in: 0...8) {
                let fieldName = String.randomName(using: &random)
                guard !fields.contains(where: { $0.name == fieldName }) else { continue }
                fields.append(Field.random(named: fieldName, using: &random))
            }
            let grants = (0..<random.int(in: 0...3)).map { _ in
                Grant(
                    Grant.Permissions(rawValue: random.int(in: 1...7)),
                    to: random.bool() ? RecordSchema.Role.world : String.randomName(using: &random))
            }
            recordTypes.append(RecordType(name: name, fields: fields, grants: grants))
        }
        return RecordSchema(roles: roles, recordTypes: recordTypes)
    }
}

extension RecordSchema.Field {
    static func random(named name: String, using random: inout RandomSource) -> RecordSchema.Field {
        let singles: [RecordSchema.FieldType] = [
            .asset, .bytes, .double, .int64, .location, .reference, .string, .timestamp, .number(preferredAs: nil),
            .number(preferredAs: .int64), .number(preferredAs: .double),
        ]
        let single = singles[random.int(in: 0...(singles.count - 1))]
        let type: RecordSchema.FieldType = random.bool() ? .list(single) : single
        return RecordSchema.Field(
            name: name, type: type, isEncrypted: type.canBeEncrypted && random.bool(),
            indexes: RecordSchema.Indexes(rawValue: random.int(in: 0...7)))
    }
}

extension String {
    /// A name: mostly a plain identifier, sometimes a reserved word, a system name or one that
    /// only quotes can hold.
    static func randomName(using random: inout RandomSource) -> String {
        switch random.int(in: 0...9) {
        case 0: ["grant", "Preferred", "QUERYABLE", "sortable", "searchable"][random.int(in: 0...4)]
        case 1: "___" + plainName(using: &random)
        case 2: plainName(using: &random) + " " + plainName(using: &random)
        default: plainName(using: &random)
        }
    }

    private static func plainName(using random: inout RandomSource) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let rest = letters + Array("0123456789_")
        var name = String(letters[random.int(in: 0...(letters.count - 1))])
        for _ in 0..<random.int(in: 0...6) { name.append(rest[random.int(in: 0...(rest.count - 1))]) }
        return name
    }
}

extension Array where Element == Unicode.Scalar {
    /// Deletes, inserts, repeats or swaps a few characters somewhere.
    mutating func mutate(using random: inout RandomSource) {
        guard !isEmpty else {
            append("(")
            return
        }
        let index = random.int(in: 0...(count - 1))
        let end = Swift.min(count, index + random.int(in: 1...12))
        let inserted: [Unicode.Scalar] = ["(", ")", ",", ";", "<", ">", "\"", "/", "*", "-", "_", "x", " ", "\n", "é"]
        switch random.int(in: 0...3) {
        case 0: removeSubrange(index..<end)
        case 1: insert(inserted[random.int(in: 0...(inserted.count - 1))], at: index)
        case 2: insert(contentsOf: Array(self[index..<end]), at: index)
        default: swapAt(index, random.int(in: 0...(count - 1)))
        }
    }
}
