import Foundation
import Testing

/// The examples in `Examples/` are executables of the package; these tests run each one and check
/// what it prints, so that an example cannot silently stop working.
@Suite("Examples")
struct ExampleTests {
    /// The folder of the package's built products, where the examples are built beside the tests.
    static var productsFolder: URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // The test runner may be inside an .xctest bundle, itself in the products folder.
        while folder.pathExtension == "xctest" || folder.lastPathComponent == "MacOS"
            || folder.lastPathComponent == "Contents"
        {
            folder.deleteLastPathComponent()
        }
        return folder
    }

    /// Runs the example `name` and returns what it printed and how it ended.
    func run(_ name: String) throws -> (output: String, status: Int32) {
        let executable = Self.productsFolder.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            Issue.record("The example \(name) is not built at \(executable.path): run `swift build` first.")
            return ("", -1)
        }
        let process = Process()
        process.executableURL = executable
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: output, as: UTF8.self), process.terminationStatus)
    }

    @Test func quickstart() throws {
        let (output, status) = try run("quickstart")
        #expect(status == 0)
        #expect(output.contains("Record Member 7C0F7E5A-1111-4B8E-9C3B-2D5A6F7E8A9B"))
        #expect(output.contains("nicknames    STRING_LIST"))
        #expect(output.contains("history      ASSETID"))
        #expect(output.contains("preferences  BYTES"))
        #expect(output.contains("Round trip held"))
    }

    @Test func assetsAndReferences() throws {
        let (output, status) = try run("assets-and-references")
        #expect(status == 0)
        #expect(output.contains("album: reference to album-summer, action DELETE_SELF"))
        #expect(output.contains("image: asset, local file sunset.jpg"))
        #expect(output.contains("Caption files after two encodes: 1"))
        #expect(output.contains("Round trip held"))
        #expect(
            output.contains(#""image":{"type":"ASSETID","value":{"fileChecksum":"AbCd","receipt":"r-1","size":4}}"#))
    }

    @Test func serverJSON() throws {
        let (output, status) = try run("server-json")
        #expect(status == 0)
        #expect(output.contains(#""operationType" : "create""#))
        #expect(output.contains(#""operationType" : "update""#))
        #expect(output.contains(#""recordChangeTag" : "9c""#))
        #expect(output.contains("Saved note-1 \"Buy milk\", change tag a1"))
        #expect(output.contains("Not saved: Record 'note-2' failed with CONFLICT"))
    }
}
