import Foundation
import Testing

/// The `ckdb` command, run as a user runs it, on files in a temporary folder: what it prints and
/// its exit status for CI.
@Suite("The ckdb tool")
struct CkdbToolTests {
    /// Runs the built `ckdb` with `arguments`; returns its standard output, its standard error and
    /// its exit status.
    func ckdb(_ arguments: String...) throws -> (output: String, errors: String, status: Int32) {
        let executable = ExampleTests.productsFolder.appendingPathComponent("ckdb")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            Issue.record("ckdb is not built at \(executable.path): run `swift build` first.")
            return ("", "", -1)
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read both before waiting, so that neither pipe fills and blocks the tool.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self),
            process.terminationStatus
        )
    }

    /// A new temporary folder for one test's files.
    func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ckdb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    func write(_ text: String, to name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    static let messy = """
        DEFINE SCHEMA
        RECORD TYPE Recipe (title STRING SORTABLE QUERYABLE, "___recordID" REFERENCE QUERYABLE,
            GRANT WRITE, READ TO "_creator");
        """

    static let formatted = """
        DEFINE SCHEMA

            RECORD TYPE Recipe (
                "___recordID" REFERENCE QUERYABLE,
                title         STRING QUERYABLE SORTABLE,
                GRANT READ, WRITE TO "_creator"
            );

        """

    @Test("validate: 0 for a valid file; 1 and FILE:LINE:COLUMN for one that is not the language")
    func validate() throws {
        let folder = try folder()
        let good = try write(SchemaCktoolFormatTests.recipes, to: "good.ckdb", in: folder)
        let bad = try write("DEFINE SCHEMA\nRECORD TYPE A (\n  x STRNG\n);\n", to: "bad.ckdb", in: folder)
        let valid = try ckdb("validate", good)
        #expect(valid.status == 0)
        #expect(valid.output == "\(good): valid: 3 record types, 26 fields.\n")
        let invalid = try ckdb("validate", good, bad)
        #expect(invalid.status == 1)
        #expect(invalid.errors.hasPrefix("\(bad):3:5: error: expected a field type"))
        #expect(try ckdb("validate", folder.appendingPathComponent("none.ckdb").path).status == 66)
    }

    @Test("format: prints the schema as cktool writes it, checks a file, rewrites it in place")
    func format() throws {
        let folder = try folder()
        let path = try write(Self.messy, to: "schema.ckdb", in: folder)
        let printed = try ckdb("format", path)
        #expect(printed.status == 0)
        #expect(printed.output == Self.formatted)
        let check = try ckdb("format", path, "--check")
        #expect(check.status == 1)
        #expect(check.errors.contains("not written as cktool writes it"))
        #expect(try ckdb("format", "--in-place", path).status == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.formatted)
        #expect(try ckdb("format", path, "--check").status == 0)
        #expect(try ckdb("format", path, "--sideways").status == 64)
    }

    @Test("format: an export that ends with blank lines, as cktool prints one, is formatted and left as it is")
    func formatTrailingBlankLines() throws {
        let folder = try folder()
        let printed = Self.formatted + "\n"
        let path = try write(printed, to: "printed.ckdb", in: folder)
        #expect(try ckdb("format", path, "--check").status == 0)
        #expect(try ckdb("format", "--in-place", path).status == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == printed)
        #expect(try ckdb("format", path).output == Self.formatted)

        let unended = try write(String(Self.formatted.dropLast()), to: "unended.ckdb", in: folder)
        #expect(try ckdb("format", unended, "--check").status == 1)
        let spaced = try write(Self.formatted + " \n", to: "spaced.ckdb", in: folder)
        #expect(try ckdb("format", spaced, "--check").status == 1)
    }

    @Test("diff: 0 for no change, 1 for accepted changes, 2 for refused ones, 3 for a file that is not the language")
    func diff() throws {
        let folder = try folder()
        let old = try write(Self.formatted, to: "old.ckdb", in: folder)
        let messy = try write(Self.messy, to: "messy.ckdb", in: folder)
        let added = try write(
            Self.formatted.replacingOccurrences(
                of: "        title", with: "        notes         STRING,\n        title"),
            to: "added.ckdb", in: folder)
        let retyped = try write(
            Self.formatted.replacingOccurrences(of: "title         STRING", with: "title         INT64"),
            to: "retyped.ckdb", in: folder)
        let broken = try write("DEFINE SCHEMA RECORD", to: "broken.ckdb", in: folder)

        let same = try ckdb("diff", old, messy)
        #expect(same.status == 0)
        #expect(same.output == "No change from \(old) to \(messy).\n")

        let accepted = try ckdb("diff", old, added)
        #expect(accepted.status == 1)
        #expect(accepted.output.hasPrefix("accepted: Recipe.notes is added: STRING.\n"))
        #expect(accepted.output.hasSuffix("1 change from \(old) to \(added), 0 refused by a deployed container.\n"))

        let refused = try ckdb("diff", old, retyped)
        #expect(refused.status == 2)
        #expect(refused.output.hasPrefix("refused:  Recipe.title changes type from STRING to INT64: refused"))

        let notTheLanguage = try ckdb("diff", old, broken)
        #expect(notTheLanguage.status == 3)
        #expect(notTheLanguage.errors.hasPrefix("\(broken):1:21: error: expected TYPE"))
    }

    @Test("--help prints the commands and exit statuses; a wrong command is a usage error")
    func help() throws {
        let help = try ckdb("--help")
        #expect(help.status == 0)
        #expect(help.output.contains("ckdb diff OLD NEW"))
        #expect(help.output.contains("2 at least one change"))
        #expect(try ckdb("diff", "--help").output == help.output)
        let unknown = try ckdb("lint", "x.ckdb")
        #expect(unknown.status == 64)
        #expect(unknown.errors.hasPrefix("ckdb: no command 'lint'."))
        #expect(try ckdb().status == 64)
        #expect(try ckdb("diff", "only-one.ckdb").status == 64)
    }
}
