import Foundation
import Testing

@testable import RecordCodable

/// Schemas as containers export them, read and checked against models and queries that fit them
/// and models that do not.
@Suite("Schema exports and checks")
struct SchemaExportTests {
    typealias Field = RecordSchema.Field
    typealias Problem = RecordSchema.Problem

    // MARK: Exports, written from the grammar

    /// A company's departments and employees, in the shape of the example in Apple's guide to the
    /// schema language: system fields extended with indexes, a role, and the public grants.
    static let departments = """
        DEFINE SCHEMA
            CREATE ROLE DeptManager;

            RECORD TYPE Department (
                "___createTime" TIMESTAMP QUERYABLE SORTABLE,
                "___recordID" REFERENCE QUERYABLE,
                name STRING QUERYABLE SEARCHABLE,
                address STRING,
                phone LIST<STRING>,
                employees LIST<REFERENCE>,
                GRANT WRITE TO "_creator",
                GRANT CREATE TO "_icloud",
                GRANT READ TO "_world",
                GRANT WRITE, CREATE, READ TO DeptManager
            );

            RECORD TYPE Employee (
                "___createTime" TIMESTAMP QUERYABLE SORTABLE,
                "___recordID" REFERENCE QUERYABLE,
                name STRING QUERYABLE,
                address STRING,
                hiredate TIMESTAMP SORTABLE,
                salary INT64,
                GRANT WRITE TO "_creator",
                GRANT CREATE TO "_icloud",
                GRANT READ TO "_world"
            );
        """

    /// The `Users` type every container has, with every system field listed, as exports show it.
    static let users = """
        DEFINE SCHEMA

            RECORD TYPE Users (
                "___createTime" TIMESTAMP,
                "___createdBy"  REFERENCE,
                "___etag"       STRING,
                "___modTime"    TIMESTAMP,
                "___modifiedBy" REFERENCE,
                "___recordID"   REFERENCE,
                roles           LIST<INT64>,
                GRANT WRITE TO "_creator",
                GRANT READ TO "_world"
            );
        """

    /// A container that Core Data mirrors: `CD_` types and fields, an asset companion beside each
    /// string or bytes field that may outgrow the record, and a `NUMBER` field that a development
    /// write created before the schema named its type.
    static let coreDataMirror = """
        DEFINE SCHEMA

            RECORD TYPE CD_Note (
                "___recordID" REFERENCE QUERYABLE,
                CD_body STRING,
                CD_body_ckAsset ASSET,
                CD_createdAt TIMESTAMP,
                CD_entityName STRING,
                CD_isPinned INT64,
                CD_rating NUMBER PREFERRED AS INT64,
                CD_thumbnail BYTES,
                CD_thumbnail_ckAsset ASSET,
                CD_title STRING,
                CD_title_ckAsset ASSET,
                CD_version NUMBER,
                GRANT WRITE TO "_creator",
                GRANT CREATE TO "_icloud",
                GRANT READ TO "_world"
            );
        """

    /// A schema kept by hand, with comments of every kind, encrypted fields and a grant among the
    /// fields.
    static let handWritten = """
        // The journal app's schema. Keep in step with Models.swift.
        DEFINE SCHEMA

            /* Editors can fix anyone's entries;
               everyone else only their own. */
            CREATE ROLE Editor;

            RECORD TYPE Entry (
                "___createTime" TIMESTAMP SORTABLE,   -- newest first
                "___modTime"    TIMESTAMP,
                title           STRING QUERYABLE SORTABLE,
                GRANT WRITE TO "_creator",
                body            ENCRYPTED STRING,      // never readable by the server
                mood            STRING QUERYABLE,
                tags            LIST<STRING> QUERYABLE,
                location        ENCRYPTED LOCATION,
                scores          LIST<ENCRYPTED DOUBLE>,
                GRANT READ, WRITE TO Editor
            );
        """

    @Test(
        "Each export reads, and writes text that reads back the same",
        arguments: [departments, users, coreDataMirror, handWritten])
    func exportsRoundTrip(text: String) throws {
        let schema = try RecordSchema(parsing: text)
        #expect(!schema.recordTypes.isEmpty)
        #expect(try RecordSchema(parsing: schema.text) == schema)
    }

    @Test("The department example reads as it is written")
    func departmentExample() throws {
        let schema = try RecordSchema(parsing: Self.departments)
        #expect(schema.roles == ["DeptManager"])
        let department = try #require(schema.recordType(named: "Department"))
        #expect(
            department.fields.map(\.name) == ["___createTime", "___recordID", "address", "employees", "name", "phone"])
        #expect(department.field(named: "___createTime")?.indexes == [.queryable, .sortable])
        #expect(department.field(named: "employees")?.type == .list(.reference))
        // Grants by role, as exports list them: the schema's own role before the built-in ones.
        #expect(department.grants.first == RecordSchema.Grant([.read, .create, .write], to: "DeptManager"))
        #expect(Array(department.grants.suffix(3)) == RecordSchema.Grant.publicDatabase)
    }

    @Test("The hand-written schema: comments skipped, encrypted fields and grants read")
    func handWrittenSchema() throws {
        let entry = try #require(RecordSchema(parsing: Self.handWritten).recordType(named: "Entry"))
        #expect(entry.field(named: "body") == Field(name: "body", type: .string, isEncrypted: true))
        #expect(entry.field(named: "scores") == Field(name: "scores", type: .list(.double), isEncrypted: true))
        #expect(
            entry.grants == [
                RecordSchema.Grant([.read, .write], to: "Editor"), RecordSchema.Grant(.write, to: "_creator"),
            ])
    }

    // MARK: Models that fit, and models that do not

    struct Employee: Codable, LinkedRecord {
        var id: String
        var name: String
        var address: String
        var hiredate: Date
        var salary: Int
    }

    struct Department: Codable {
        var id: String
        var name: String
        var address: String
        var phone: [String]
        var employees: [Employee]
    }

    @Test("Models that fit the department example have no problem")
    func departmentModelsFit() throws {
        let models = try RecordSchema(models: [Department.self, Employee.self])
        let byName = RecordQuery(
            recordType: "Department",
            filterBy: [.init(fieldName: "name", comparator: .containsAnyTokens, fieldValue: .string("sales"))],
            sortBy: [.init(fieldName: "___createTime", ascending: false)])
        let recentHires = RecordQuery(
            recordType: "Employee",
            filterBy: [
                .init(fieldName: "hiredate", comparator: .greaterThan, fieldValue: .date(Date())),
                .init(fieldName: "___recordID", comparator: .in, fieldValue: .list([])),
            ])
        #expect(
            try RecordSchema(parsing: Self.departments).problems(for: models, queries: [byName, recentHires]).isEmpty)
    }

    @Test("A salary that is a Double, a missing field, a missing record type: every problem listed")
    func departmentModelsDoNotFit() throws {
        struct Employee: Codable, RecordRepresentable {
            static var recordType: String { "Employee" }
            var id: String
            var name: String
            var salary: Double
            var isManager: Bool
            var badge: Data
        }
        struct Invoice: Codable {
            var id: String
            var total: Decimal
        }
        let models = try RecordSchema(models: [Employee.self, Invoice.self])
        let problems = try RecordSchema(parsing: Self.departments).problems(for: models)
        #expect(
            problems == [
                .missingField(recordType: "Employee", field: "badge"),
                .missingField(recordType: "Employee", field: "isManager"),
                .typeMismatch(recordType: "Employee", field: "salary", model: .double, schema: .int64),
                .missingRecordType("Invoice"),
            ])
        #expect(problems[2].description == "Employee.salary is DOUBLE in the model but INT64 in the schema.")
        #expect(problems[3].description == "The schema has no record type 'Invoice'.")
    }

    @Test("A Bool is INT64, so it fits an INT64 field and not a STRING one")
    func boolIsInt64() throws {
        struct Flags: Codable {
            var id: String
            var a: Bool
            var b: Bool
        }
        let schema = try RecordSchema(parsing: "DEFINE SCHEMA RECORD TYPE Flags (a INT64, b STRING);")
        #expect(
            try schema.problems(for: RecordSchema(models: [Flags.self]))
                == [.typeMismatch(recordType: "Flags", field: "b", model: .int64, schema: .string)])
    }

    /// The Core Data model's fields, named as Core Data names them.
    struct Note: Codable, RecordRepresentable {
        static var recordType: String { "CD_Note" }
        var id: String
        var title: String
        var body: String
        var createdAt: Date
        var entityName: String
        var isPinned: Bool
        var rating: Int
        var version: Double
        var thumbnail: Data?
    }

    static let coreDataEncoder: RecordEncoder = {
        var encoder = RecordEncoder()
        encoder.keyEncodingStrategy = .custom { path in
            AnyCodingKey(stringValue: "CD_" + (path.last?.stringValue ?? ""))
        }
        return encoder
    }()

    @Test("A model of the Core Data mirror fits it: CD_ names, asset companions ignored, NUMBER takes its preference")
    func coreDataModelFits() throws {
        let models = try RecordSchema(models: [Note.self], encoder: Self.coreDataEncoder)
        #expect(try RecordSchema(parsing: Self.coreDataMirror).problems(for: models).isEmpty)
    }

    @Test("A NUMBER preferred as INT64 refuses a Double; a plain NUMBER takes either")
    func numberPreference() throws {
        struct Note: Codable, RecordRepresentable {
            static var recordType: String { "CD_Note" }
            var id: String
            var rating: Double
            var version: Int
        }
        let models = try RecordSchema(models: [Note.self], encoder: Self.coreDataEncoder)
        #expect(
            try RecordSchema(parsing: Self.coreDataMirror).problems(for: models) == [
                .typeMismatch(
                    recordType: "CD_Note", field: "CD_rating", model: .double, schema: .number(preferredAs: .int64))
            ])
    }

    struct Entry: Codable {
        var id: String
        var title: String
        @Encrypted var body: String
        var mood: String
        var tags: [String]
        @Encrypted var location: RecordLocation?
        @Encrypted var scores: [Double]
    }

    @Test("The journal's model fits its hand-written schema, encrypted fields and all")
    func journalFits() throws {
        let models = RecordSchema(recordTypes: [
            try .init(Entry.self, indexes: ["title": [.queryable, .sortable], "___createTime": .sortable])
        ])
        let newest = RecordQuery(
            recordType: "Entry",
            filterBy: [.init(fieldName: "tags", comparator: .listContains, fieldValue: .string("travel"))],
            sortBy: [.init(fieldName: "___createTime", ascending: false)])
        #expect(try RecordSchema(parsing: Self.handWritten).problems(for: models, queries: [newest]).isEmpty)
    }

    @Test("A field encrypted on one side only is a problem, whichever side")
    func encryptionMismatch() throws {
        struct Entry: Codable {
            var id: String
            var title: String
            var body: String
            @Encrypted var mood: String
        }
        let problems = try RecordSchema(parsing: Self.handWritten).problems(for: RecordSchema(models: [Entry.self]))
        #expect(
            problems == [
                .encryptionMismatch(recordType: "Entry", field: "body", encryptedInModel: false),
                .encryptionMismatch(recordType: "Entry", field: "mood", encryptedInModel: true),
            ])
        #expect(problems[1].description.hasPrefix("Entry.mood is encrypted in the model but not in the schema"))
    }

    @Test("Queries on fields without the index they need, on encrypted fields, on fields and types that are not there")
    func queryProblems() throws {
        let queries = [
            RecordQuery(
                recordType: "Entry",
                filterBy: [
                    .init(fieldName: "mood", comparator: .lessThan, fieldValue: .string("m")),
                    .init(fieldName: "title", comparator: .containsAllTokens, fieldValue: .string("trip")),
                    .init(fieldName: "body", comparator: .equals, fieldValue: .string("secret")),
                    .init(fieldName: "weather", comparator: .equals, fieldValue: .string("rain")),
                    .init(fieldName: "title", comparator: .beginsWith, fieldValue: .string("A")),
                ],
                sortBy: [.init(fieldName: "___modTime"), .init(fieldName: "mood"), .init(fieldName: "scores")]),
            RecordQuery(recordType: "Trip"),
            RecordQuery(recordType: "Trip", sortBy: [.init(fieldName: "start")]),
        ]
        let problems = try RecordSchema(parsing: Self.handWritten).problems(for: RecordSchema(), queries: queries)
        #expect(
            problems == [
                .missingIndexes(recordType: "Entry", field: "mood", indexes: .sortable),
                .missingIndexes(recordType: "Entry", field: "title", indexes: .searchable),
                .queriesEncryptedField(recordType: "Entry", field: "body"),
                .missingField(recordType: "Entry", field: "weather"),
                .missingIndexes(recordType: "Entry", field: "___modTime", indexes: .sortable),
                .queriesEncryptedField(recordType: "Entry", field: "scores"),
                .missingRecordType("Trip"),
            ])
        #expect(problems[0].description == "Entry.mood needs SORTABLE, which the schema does not give it.")
        #expect(problems[2].description.contains("CloudKit cannot index an encrypted field"))
    }

    @Test("A query with no filter, for every record of a type, needs ___recordID QUERYABLE")
    func unfilteredQuery() throws {
        let note = RecordSchema.RecordType(
            name: "Note", fields: [Field(name: "title", type: .string, indexes: .queryable)])
        let models = RecordSchema(recordTypes: [
            RecordSchema.RecordType(name: "Note", fields: [Field(name: "title", type: .string)])
        ])
        let everyNote = RecordQuery(recordType: "Note")
        let byTitle = RecordQuery(
            recordType: "Note", filterBy: [.init(fieldName: "title", comparator: .equals, fieldValue: .string("A"))])
        let problems = RecordSchema(recordTypes: [note]).problems(for: models, queries: [everyNote, byTitle])
        #expect(problems == [.missingIndexes(recordType: "Note", field: "___recordID", indexes: .queryable)])
        #expect(problems.first?.description == "Note.___recordID needs QUERYABLE, which the schema does not give it.")
        var indexed = note
        indexed.fields.append(Field(name: "___recordID", type: .reference, indexes: .queryable))
        #expect(RecordSchema(recordTypes: [indexed]).problems(for: models, queries: [everyNote, byTitle]) == [])
    }

    @Test("A query on a field the models encrypt is a problem, also while the schema lacks the field")
    func queryOnFieldEncryptedInModels() throws {
        let schema = RecordSchema(recordTypes: [
            RecordSchema.RecordType(name: "Note", fields: [Field(name: "title", type: .string)])
        ]
        )
        let models = RecordSchema(recordTypes: [
            RecordSchema.RecordType(
                name: "Note",
                fields: [Field(name: "title", type: .string), Field(name: "pin", type: .string, isEncrypted: true)])
        ])
        let query = RecordQuery(
            recordType: "Note", filterBy: [.init(fieldName: "pin", comparator: .equals, fieldValue: .string("1"))],
            sortBy: [.init(fieldName: "pin")])
        #expect(
            schema.problems(for: models, queries: [query])
                == [Problem]([
                    .missingField(recordType: "Note", field: "pin"),
                    .queriesEncryptedField(recordType: "Note", field: "pin"),
                ]))
    }

    @Test("Indexes the models declare are checked against the schema's, system fields included")
    func declaredIndexes() throws {
        let models = RecordSchema(recordTypes: [
            try .init(
                Entry.self,
                indexes: ["title": [.queryable, .searchable], "mood": .queryable, "___modTime": .sortable])
        ])
        #expect(
            try RecordSchema(parsing: Self.handWritten).problems(for: models) == [
                .missingIndexes(recordType: "Entry", field: "___modTime", indexes: .sortable),
                .missingIndexes(recordType: "Entry", field: "title", indexes: .searchable),
            ])
    }

    @Test("A schema written from models reads back, and checks its own models without a problem")
    func modelsAgainstTheirOwnSchema() throws {
        let models = try RecordSchema(models: [Department.self, Employee.self, Entry.self])
        let written = try RecordSchema(parsing: models.text)
        #expect(written == models)
        #expect(written.problems(for: models).isEmpty)
    }
}
