import Foundation
import Testing

@testable import RecordCodable

/// `changes(to:)`: what differs between two schemas, in plain words, and which changes a container
/// whose schema is deployed to production refuses.
@Suite("Schema changes")
struct SchemaDiffTests {
    typealias Field = RecordSchema.Field
    typealias RecordType = RecordSchema.RecordType
    typealias Change = RecordSchema.Change

    static let deployed = SchemaCktoolFormatTests.recipes

    @Test("An unchanged schema has no change, however its text is ordered, commented or spaced")
    func unchanged() throws {
        let deployed = try RecordSchema(parsing: Self.deployed)
        #expect(deployed.changes(to: deployed).isEmpty)
        // The same schema by hand: other order, comments, no unindexed system fields, grants split.
        let byHand = try RecordSchema(
            parsing: """
                DEFINE SCHEMA
                RECORD TYPE Users (roles LIST<INT64>, GRANT READ TO "_world", GRANT WRITE TO "_creator");
                RECORD TYPE ShoppingListEntry (
                    recipe REFERENCE QUERYABLE, quantityInGramsOrUnit DOUBLE SORTABLE QUERYABLE,
                    "___recordID" REFERENCE QUERYABLE,
                    GRANT READ TO "_world", GRANT CREATE TO "_icloud", GRANT WRITE TO "_creator"
                );
                /* the recipes */
                RECORD TYPE Recipe (
                    title STRING SORTABLE SEARCHABLE QUERYABLE, steps LIST<STRING>, secretNote ENCRYPTED STRING,
                    photo ASSET, cookMinutes INT64 SORTABLE QUERYABLE, "___recordID" REFERENCE QUERYABLE,
                    "___createdBy" REFERENCE QUERYABLE, "___createTime" TIMESTAMP SORTABLE QUERYABLE,
                    GRANT WRITE, READ TO "_creator", GRANT CREATE TO "_icloud", GRANT READ TO "_world",
                    GRANT WRITE TO curator, GRANT CREATE, READ TO curator
                );
                CREATE ROLE curator;
                """)
        #expect(deployed.changes(to: byHand).isEmpty)
        #expect(byHand.changes(to: deployed).isEmpty)
    }

    @Test("A model's schema, which lists only the system fields it indexes, is no change from its export")
    func modelAgainstExport() throws {
        let model = try SchemaCktoolFormatTests.shoppingListEntry()
        let export = try #require(try RecordSchema(parsing: Self.deployed).recordType(named: "ShoppingListEntry"))
        #expect(RecordSchema(recordTypes: [export]).changes(to: RecordSchema(recordTypes: [model])).isEmpty)
    }

    @Test("Every kind of change, in order, with the ones a deployed container refuses")
    func everyChange() throws {
        let old = try RecordSchema(parsing: Self.deployed)
        var new = old
        new.roles = ["editor"]
        new.recordTypes.removeAll { $0.name == "ShoppingListEntry" }
        new.recordTypes.append(
            RecordType(
                name: "Pantry", fields: [Field(name: "shelf", type: .int64, indexes: .queryable)],
                grants: [.init(.read, to: "_world")]))
        var recipe = try #require(new.recordType(named: "Recipe"))
        recipe.fields.removeAll { $0.name == "photo" || $0.name == "___createdBy" }
        recipe.fields.append(Field(name: "servings", type: .int64))
        recipe.fields = recipe.fields.map { field in
            var field = field
            switch field.name {
            case "cookMinutes": field.type = .double
            case "secretNote": field.isEncrypted = false
            case "steps": field.type = .string
            case "title": field.indexes = [.queryable, .searchable]
            case "___modTime": field.indexes = .sortable
            default: break
            }
            return field
        }
        recipe.grants = [
            .init([.read, .write], to: "_creator"), .init(.create, to: "_icloud"), .init(.read, to: "curator"),
        ]
        new.recordTypes = new.recordTypes.map { $0.name == "Recipe" ? recipe : $0 }

        let changes = old.changes(to: new)
        #expect(
            changes == [
                .removedRole("curator"),
                .addedRole("editor"),
                .addedRecordType("Pantry"),
                .addedField(recordType: "Pantry", field: Field(name: "shelf", type: .int64, indexes: .queryable)),
                .changedGrant(recordType: "Pantry", role: "_world", old: [], new: .read),
                .removedIndexes(recordType: "Recipe", field: "___createdBy", indexes: .queryable),
                .addedIndexes(recordType: "Recipe", field: "___modTime", indexes: .sortable),
                .changedFieldType(
                    recordType: "Recipe",
                    old: Field(name: "cookMinutes", type: .int64, indexes: [.queryable, .sortable]),
                    new: Field(name: "cookMinutes", type: .double, indexes: [.queryable, .sortable])),
                .removedField(recordType: "Recipe", field: Field(name: "photo", type: .asset)),
                .changedFieldType(
                    recordType: "Recipe", old: Field(name: "secretNote", type: .string, isEncrypted: true),
                    new: Field(name: "secretNote", type: .string)),
                .addedField(recordType: "Recipe", field: Field(name: "servings", type: .int64)),
                .changedFieldType(
                    recordType: "Recipe", old: Field(name: "steps", type: .list(.string)),
                    new: Field(name: "steps", type: .string)),
                .removedIndexes(recordType: "Recipe", field: "title", indexes: .sortable),
                .changedGrant(recordType: "Recipe", role: "_world", old: .read, new: []),
                .changedGrant(recordType: "Recipe", role: "curator", old: [.read, .create, .write], new: .read),
                .removedRecordType("ShoppingListEntry"),
            ])
        #expect(
            changes.filter(\.isRefusedByDeployedContainer) == [
                changes[7], changes[8], changes[9], changes[11], changes[15],
            ])
        #expect(
            changes.map(\.description) == [
                "The role curator is no longer created.",
                "The role editor is created.",
                "The record type Pantry is added.",
                "Pantry.shelf is added: INT64 QUERYABLE.",
                "Pantry grants READ to \"_world\", where it granted nothing.",
                "Recipe.___createdBy loses QUERYABLE: queries that need it fail.",
                "Recipe.___modTime gains SORTABLE.",
                "Recipe.cookMinutes changes type from INT64 to DOUBLE: refused by a deployed container, which keeps "
                    + "each field's type.",
                "Recipe.photo (ASSET) is removed: refused by a deployed container, which keeps every field it has.",
                "Recipe.secretNote changes type from ENCRYPTED STRING to STRING: refused by a deployed container, "
                    + "which keeps each field's type.",
                "Recipe.servings is added: INT64.",
                "Recipe.steps changes type from LIST<STRING> to STRING: refused by a deployed container, which "
                    + "keeps each field's type.",
                "Recipe.title loses SORTABLE: queries that need it fail.",
                "Recipe grants nothing to \"_world\", where it granted READ.",
                "Recipe grants READ to curator, where it granted READ, CREATE, WRITE.",
                "The record type ShoppingListEntry is removed: refused by a deployed container, which keeps every "
                    + "record type it has.",
            ])
    }

    @Test("A NUMBER may take a preference; any other change of a NUMBER is refused")
    func numberPreference() {
        func change(_ old: RecordSchema.FieldType, _ new: RecordSchema.FieldType) -> Change? {
            let before = RecordSchema(recordTypes: [RecordType(name: "T", fields: [Field(name: "n", type: old)])])
            let after = RecordSchema(recordTypes: [RecordType(name: "T", fields: [Field(name: "n", type: new)])])
            return before.changes(to: after).first
        }
        #expect(change(.number(preferredAs: nil), .number(preferredAs: .int64))?.isRefusedByDeployedContainer == false)
        #expect(
            change(.number(preferredAs: nil), .number(preferredAs: .double))?.description
                == "T.n changes type from NUMBER to NUMBER PREFERRED AS DOUBLE.")
        #expect(
            change(.number(preferredAs: .int64), .number(preferredAs: .double))?.isRefusedByDeployedContainer == true)
        #expect(change(.number(preferredAs: .int64), .number(preferredAs: nil))?.isRefusedByDeployedContainer == true)
        #expect(change(.number(preferredAs: nil), .int64)?.isRefusedByDeployedContainer == true)
        #expect(
            change(.list(.number(preferredAs: nil)), .number(preferredAs: .int64))?.isRefusedByDeployedContainer == true
        )
    }

    @Test("A new record type lists its fields, but not its unindexed system fields")
    func newRecordType() throws {
        let export = try RecordSchema(parsing: SchemaCktoolFormatTests.coreData)
        let changes = RecordSchema().changes(to: export)
        #expect(changes.first == .addedRecordType("CD_Pantry"))
        #expect(!changes.contains { if case .addedField(_, let field) = $0 { field.name == "___etag" } else { false } })
        #expect(
            changes.contains(
                .addedField(
                    recordType: "Cellar", field: Field(name: "___recordID", type: .reference, indexes: .queryable))))
        #expect(changes.allSatisfy { !$0.isRefusedByDeployedContainer })
        #expect(export.changes(to: RecordSchema()) == [.removedRecordType("CD_Pantry"), .removedRecordType("Cellar")])
    }
}
