import Foundation
import Testing

@testable import RecordCodable

/// The text a schema writes is the text `cktool export-schema` writes: an export read and written
/// again is the same text, and a schema written by hand comes out as an export would.
///
/// The schemas here are made up, in the shape exports have: `DEFINE SCHEMA` and a blank line; each
/// statement after a blank line, indented four spaces; fields indented eight, by name in byte
/// order (Core Data's `CD_` fields before the system fields, lower-case names after), the names
/// padded to one column a space wider than the longest; index options `QUERYABLE SEARCHABLE
/// SORTABLE`; one grant for each role, by role, permissions `READ, CREATE, WRITE`; built-in roles
/// quoted, the schema's own bare; record types by name.
@Suite("Schema text as cktool writes it")
struct SchemaCktoolFormatTests {
    typealias Field = RecordSchema.Field
    typealias RecordType = RecordSchema.RecordType
    typealias Grant = RecordSchema.Grant

    /// A public recipe box: a role of its own, indexes on system fields, an encrypted field, every
    /// permission, and the `Users` type every container has.
    static let recipes = """
        DEFINE SCHEMA

            CREATE ROLE curator;

            RECORD TYPE Recipe (
                "___createTime" TIMESTAMP QUERYABLE SORTABLE,
                "___createdBy"  REFERENCE QUERYABLE,
                "___etag"       STRING,
                "___modTime"    TIMESTAMP,
                "___modifiedBy" REFERENCE,
                "___recordID"   REFERENCE QUERYABLE,
                cookMinutes     INT64 QUERYABLE SORTABLE,
                photo           ASSET,
                secretNote      ENCRYPTED STRING,
                steps           LIST<STRING>,
                title           STRING QUERYABLE SEARCHABLE SORTABLE,
                GRANT READ, WRITE TO "_creator",
                GRANT CREATE TO "_icloud",
                GRANT READ TO "_world",
                GRANT READ, CREATE, WRITE TO curator
            );

            RECORD TYPE ShoppingListEntry (
                "___createTime"       TIMESTAMP,
                "___createdBy"        REFERENCE,
                "___etag"             STRING,
                "___modTime"          TIMESTAMP,
                "___modifiedBy"       REFERENCE,
                "___recordID"         REFERENCE QUERYABLE,
                quantityInGramsOrUnit DOUBLE QUERYABLE SORTABLE,
                recipe                REFERENCE QUERYABLE,
                GRANT WRITE TO "_creator",
                GRANT CREATE TO "_icloud",
                GRANT READ TO "_world"
            );

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

    /// A private database that Core Data mirrors: `CD_` types before the others, `CD_` fields
    /// before the system fields, string and bytes fields with their `_ckAsset` companions.
    static let coreData = """
        DEFINE SCHEMA

            RECORD TYPE CD_Pantry (
                CD_entityName    STRING QUERYABLE SEARCHABLE SORTABLE,
                CD_label         STRING QUERYABLE SEARCHABLE SORTABLE,
                CD_label_ckAsset ASSET,
                CD_photo         BYTES QUERYABLE SORTABLE,
                CD_photo_ckAsset ASSET,
                CD_shelf         INT64 QUERYABLE SORTABLE,
                CD_weight        DOUBLE QUERYABLE SORTABLE,
                "___createTime"  TIMESTAMP,
                "___createdBy"   REFERENCE,
                "___etag"        STRING,
                "___modTime"     TIMESTAMP,
                "___modifiedBy"  REFERENCE,
                "___recordID"    REFERENCE,
                GRANT WRITE TO "_creator",
                GRANT CREATE TO "_icloud",
                GRANT READ TO "_world"
            );

            RECORD TYPE Cellar (
                "___createTime" TIMESTAMP,
                "___createdBy"  REFERENCE,
                "___etag"       STRING,
                "___modTime"    TIMESTAMP,
                "___modifiedBy" REFERENCE,
                "___recordID"   REFERENCE QUERYABLE,
                bottles         LIST<ENCRYPTED STRING>,
                legacyCount     NUMBER PREFERRED AS INT64,
                GRANT READ, CREATE, WRITE TO "_creator"
            );

        """

    @Test("An export read and written again is the same text", arguments: [recipes, coreData])
    func exportRoundTrip(text: String) throws {
        let schema = try RecordSchema(parsing: text)
        #expect(schema.text == text)
        #expect(try RecordSchema(parsing: schema.text) == schema)
    }

    /// The model of `recipes`' shopping list entries.
    struct ShoppingListEntry: Codable {
        var id: String
        var quantityInGramsOrUnit: Double
        var recipe: RecordReference
    }

    /// The record type of ``ShoppingListEntry``, with the indexes and grants of `recipes`.
    static func shoppingListEntry() throws -> RecordType {
        try RecordType(
            ShoppingListEntry.self,
            indexes: [
                "quantityInGramsOrUnit": [.queryable, .sortable], "recipe": .queryable, "___recordID": .queryable,
            ],
            grants: RecordSchema.Grant.publicDatabase)
    }

    @Test("A model's record type lists the six system fields, and writes what an export of it writes")
    func modelAsExported() throws {
        let model = try Self.shoppingListEntry()
        #expect(
            model.fields.filter(\.isSystemField).map(\.name) == RecordSchema.SystemField.allCases.map(\.rawValue))
        let exported = try #require(try RecordSchema(parsing: Self.recipes).recordType(named: "ShoppingListEntry"))
        #expect(model == exported)
        #expect(RecordSchema(recordTypes: [model]).text == RecordSchema(recordTypes: [exported]).text)
    }

    @Test("Index options in the order exports write them")
    func indexOrder() throws {
        let cases: [(RecordSchema.Indexes, String)] = [
            (.queryable, "QUERYABLE"), (.searchable, "SEARCHABLE"), (.sortable, "SORTABLE"),
            ([.queryable, .searchable], "QUERYABLE SEARCHABLE"), ([.queryable, .sortable], "QUERYABLE SORTABLE"),
            ([.searchable, .sortable], "SEARCHABLE SORTABLE"),
            ([.sortable, .searchable, .queryable], "QUERYABLE SEARCHABLE SORTABLE"),
        ]
        for (indexes, written) in cases {
            let schema = RecordSchema(recordTypes: [
                RecordType(name: "T", fields: [Field(name: "f", type: .string, indexes: indexes)])
            ])
            #expect(schema.text.contains("        f STRING \(written)\n"))
            #expect(try RecordSchema(parsing: schema.text) == schema)
        }
    }

    @Test("Permissions in the order exports write them")
    func permissionOrder() {
        let cases: [(Grant.Permissions, String)] = [
            (.read, "READ"), (.create, "CREATE"), (.write, "WRITE"), ([.read, .create], "READ, CREATE"),
            ([.read, .write], "READ, WRITE"), ([.write, .create], "CREATE, WRITE"),
            ([.write, .create, .read], "READ, CREATE, WRITE"),
        ]
        for (permissions, written) in cases {
            let recordType = RecordType(name: "T", grants: [Grant(permissions, to: RecordSchema.Role.creator)])
            #expect(RecordSchema(recordTypes: [recordType]).text.contains("        GRANT \(written) TO \"_creator\"\n"))
        }
    }

    @Test("One grant for each role, by role: built-in roles quoted, the schema's own bare")
    func grantsByRole() {
        let recordType = RecordType(
            name: "Recipe",
            grants: [
                Grant(.read, to: "_world"), Grant(.write, to: "_creator"), Grant(.read, to: "curator"),
                Grant(.create, to: "_icloud"), Grant(.read, to: "_creator"), Grant(.write, to: "Editor"),
                Grant([], to: "nobody"),
            ])
        #expect(
            recordType.grants == [
                Grant(.write, to: "Editor"), Grant([.read, .write], to: "_creator"), Grant(.create, to: "_icloud"),
                Grant(.read, to: "_world"), Grant(.read, to: "curator"),
            ])
        #expect(
            RecordSchema(recordTypes: [recordType]).text.hasSuffix(
                """
                        GRANT WRITE TO Editor,
                        GRANT READ, WRITE TO "_creator",
                        GRANT CREATE TO "_icloud",
                        GRANT READ TO "_world",
                        GRANT READ TO curator
                    );

                """))
        var changed = recordType
        changed.grants.append(Grant(.create, to: "Editor"))
        #expect(changed.grants.first == Grant([.create, .write], to: "Editor"))
    }

    @Test("Record types and fields by name in byte order: upper case, then underscores, then lower case")
    func byteOrder() {
        let schema = RecordSchema(recordTypes: [
            RecordType(name: "Users"), RecordType(name: "Catalog"), RecordType(name: "CD_Item"),
            RecordType(name: "appData"),
        ])
        #expect(schema.recordTypes.map(\.name) == ["CD_Item", "Catalog", "Users", "appData"])
        var changed = schema
        changed.recordTypes.append(RecordType(name: "Basket"))
        #expect(changed.recordTypes.map(\.name) == ["Basket", "CD_Item", "Catalog", "Users", "appData"])
        let fields = RecordType(
            name: "T",
            fields: ["title", "___recordID", "CD_title", "Zeta", "___createTime", "alpha"].map {
                Field(name: $0, type: .string)
            })
        #expect(fields.fields.map(\.name) == ["CD_title", "Zeta", "___createTime", "___recordID", "alpha", "title"])
    }

    @Test("A schema written by hand comes out as cktool writes it, and formatting it again changes nothing")
    func handWrittenFormatted() throws {
        let handWritten = """
            // Kept by hand.
            define schema
            record type Users (roles LIST<INT64>, GRANT READ TO "_world", GRANT WRITE TO "_creator");
            RECORD TYPE Recipe (
              title STRING SORTABLE SEARCHABLE QUERYABLE,   -- any order
              "cookMinutes" INT64 SORTABLE QUERYABLE,
              "___createTime" TIMESTAMP SORTABLE QUERYABLE,
              GRANT WRITE, READ TO "_creator",
              GRANT WRITE TO curator, GRANT CREATE, READ TO curator
            );
            CREATE ROLE curator;
            """
        let formatted = """
            DEFINE SCHEMA

                CREATE ROLE curator;

                RECORD TYPE Recipe (
                    "___createTime" TIMESTAMP QUERYABLE SORTABLE,
                    cookMinutes     INT64 QUERYABLE SORTABLE,
                    title           STRING QUERYABLE SEARCHABLE SORTABLE,
                    GRANT READ, WRITE TO "_creator",
                    GRANT READ, CREATE, WRITE TO curator
                );

                RECORD TYPE Users (
                    roles LIST<INT64>,
                    GRANT WRITE TO "_creator",
                    GRANT READ TO "_world"
                );

            """
        let schema = try RecordSchema(parsing: handWritten)
        #expect(schema.text == formatted)
        #expect(try RecordSchema(parsing: formatted).text == formatted)
    }
}
