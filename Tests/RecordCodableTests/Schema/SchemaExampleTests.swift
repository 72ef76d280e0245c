import Foundation
import Testing

/// The `schema` example prints the schema of the quick start's model and checks it against the
/// export beside it.
@Suite("The schema example")
struct SchemaExampleTests {
    @Test func schemaExample() throws {
        let (output, status) = try ExampleTests().run("schema")
        #expect(status == 0)
        #expect(output.contains("    RECORD TYPE Member (\n        \"___createTime\" TIMESTAMP SORTABLE,"))
        #expect(output.contains("        balance         ENCRYPTED STRING,\n"))
        #expect(output.contains("        portrait        ASSET,\n"))
        #expect(output.contains("  - Member.age needs SORTABLE, which the schema does not give it.\n"))
        #expect(output.contains("Checked 1 record type and 2 queries against schema.ckdb: 1 problem."))
    }
}
