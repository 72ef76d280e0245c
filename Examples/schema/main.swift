// The schema of the quick start's model, produced from its type and written as
// `cktool export-schema` writes schemas (ready for `cktool import-schema`), and checked, with the
// queries the app sends, against the schema the container has (schema.ckdb beside this file, an
// export, or the file named as the first argument).
//
//     swift run schema
//     swift run schema path/to/exported.ckdb
//
// For .ckdb files themselves (validate, format as cktool writes, diff two schemas and see which
// changes a deployed container refuses), see the ckdb tool: `swift run ckdb --help`.
import Foundation
import RecordCodable

/// The quick start's model, unchanged (see Examples/quickstart/main.swift).
struct Member: Codable, Equatable, RecordRepresentable {
    static var recordType: String { "Member" }

    enum Level: String, RecordEnum {
        case bronze, silver, gold, unknown
        static var fallbackCase: Level { .unknown }
    }

    struct Preferences: Codable, Equatable {
        var newsletter: Bool
        var language: String
        var quietHours: ClosedRange<Int>
    }

    struct History: RecordAssetValue, Equatable {
        var visits: [Date]
    }

    var id: UUID
    var name: String
    var age: Int
    var height: Double
    var isActive: Bool
    var joined: Date
    var signature: Data
    var website: URL
    var portrait: URL
    var balance: Decimal
    var level: Level
    var nicknames: [String]
    var scores: [Int]
    var club: RecordReference
    var home: RecordLocation
    var preferences: Preferences
    var history: History
    var referrer: String?
    var metadata: RecordMetadata?
}

do {
    // The model's source stays as it is: the encoder encrypts the balance by its key.
    var encoder = RecordEncoder()
    encoder.encryptedKeys = ["balance"]

    // What the type cannot tell (a URL may be a file or an address), and what the app needs
    // (indexes for its queries, who may do what), the app says.
    let member = try RecordSchema.RecordType(
        Member.self,
        encoder: encoder,
        fileURLKeys: ["portrait"],
        indexes: [
            "name": [.queryable, .searchable], "level": .queryable, "club": .queryable,
            "___createTime": .sortable, "___recordID": .queryable,
        ],
        grants: RecordSchema.Grant.publicDatabase)
    let models = RecordSchema(recordTypes: [member])
    print("The schema of the quick start's model, for cktool import-schema:")
    print()
    print(models.text)

    // The queries the app sends.
    let newestNamedAda = RecordQuery(
        recordType: "Member",
        filterBy: [.init(fieldName: "name", comparator: .containsAllTokens, fieldValue: .string("Ada"))],
        sortBy: [.init(fieldName: "___createTime", ascending: false)])
    let goldByAge = RecordQuery(
        recordType: "Member",
        filterBy: [.init(fieldName: "level", comparator: .equals, fieldValue: .string("gold"))],
        sortBy: [.init(fieldName: "age")])
    let queries = [newestNamedAda, goldByAge]

    let file =
        CommandLine.arguments.dropFirst().first.map { URL(fileURLWithPath: $0) }
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("schema.ckdb")
    let container = try RecordSchema(parsing: String(contentsOf: file, encoding: .utf8))
    print("Checking the model and its queries against \(file.lastPathComponent):")
    let problems = container.problems(for: models, queries: queries)
    for problem in problems {
        print("  - \(problem)")
    }
    let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
    print("Checked 1 record type and \(queries.count) queries against \(file.lastPathComponent): \(count).")
} catch let error as RecordSchema.ParseError {
    print("The schema file is not CloudKit's schema language: \(error)")
    exit(1)
} catch {
    print("Error: \(error)")
    exit(1)
}
