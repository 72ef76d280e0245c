// The commands of ckdb: each reads its arguments and files, asks RecordSchema, prints, and
// returns the exit status.
import Foundation
import RecordCodable

/// The commands, and the help that lists them.
enum Command {
    static let help = """
        ckdb: CloudKit schema files (.ckdb), as `cktool export-schema` writes them.

        Usage:
          ckdb validate FILE...            Check that each file is CloudKit's schema language.
          ckdb format FILE [--in-place | --check]
                                           Print the schema as cktool writes it (--in-place: write
                                           it back to FILE; --check: print nothing, fail if FILE
                                           is written otherwise). Blank lines after the last
                                           statement, as `cktool export-schema` prints, are kept.
          ckdb diff OLD NEW                List what changes from OLD to NEW, in plain words, and
                                           which changes a deployed container refuses.
          ckdb --help                      Show this help.

        Exit status:
          validate  0 every file is valid; 1 a file is not (each error as FILE:LINE:COLUMN: error: …)
          format    0 done (--check: the file is written as cktool writes it); 1 the file is not the
                    language, or (--check) is written otherwise
          diff      0 no change; 1 changes that a deployed container accepts; 2 at least one change
                    that it refuses (a record type or field removed, a field's type changed);
                    3 a file is not the language
          any       64 the arguments are wrong; 66 a file cannot be read
        """

    static func validate(_ paths: [String]) throws -> Int32 {
        guard !paths.isEmpty else { throw Exit(status: 64, message: "ckdb validate: name the files to check.") }
        var status: Int32 = 0
        for path in paths {
            do {
                let schema = try readSchema(at: path, failing: 1)
                let fields = schema.recordTypes.reduce(0) { $0 + $1.fields.count }
                print("\(path): valid: \(count(schema.recordTypes.count, "record type")), \(count(fields, "field")).")
            } catch let exit as Exit {
                printError(exit.message ?? "")
                status = max(status, exit.status)
            }
        }
        return status
    }

    static func format(_ arguments: [String]) throws -> Int32 {
        let options = arguments.filter { $0.hasPrefix("--") }
        let paths = arguments.filter { !$0.hasPrefix("--") }
        guard paths.count == 1, let path = paths.first, options.count <= 1,
            options.allSatisfy({ $0 == "--in-place" || $0 == "--check" })
        else { throw Exit(status: 64, message: "ckdb format: give one FILE, and --in-place or --check at most.") }
        let text = try read(path)
        let formatted = try schema(in: text, at: path, failing: 1).text
        switch options.first {
        case "--in-place":
            if !isFormatted(text, as: formatted) {
                do {
                    try formatted.write(to: URL(fileURLWithPath: path), atomically: true, encoding: .utf8)
                } catch {
                    throw Exit(status: 66, message: "ckdb: cannot write \(path): \(error.localizedDescription)")
                }
            }
        case "--check":
            guard isFormatted(text, as: formatted) else {
                throw Exit(
                    status: 1, message: "\(path): not written as cktool writes it; run `ckdb format --in-place`.")
            }
        default:
            print(formatted, terminator: "")
        }
        return 0
    }

    /// Whether `text` is `formatted`, the schema as cktool writes it, but for any blank lines after
    /// its last line: `cktool export-schema` ends the schema it prints with one, and the file it
    /// writes with `--output-file` without, so that a file saved either way is formatted, and
    /// `--in-place` leaves it as it is. A file whose last line has no line break is not.
    static func isFormatted(_ text: String, as formatted: String) -> Bool {
        text.utf8.starts(with: formatted.utf8)
            && text.utf8.dropFirst(formatted.utf8.count).allSatisfy { $0 == UInt8(ascii: "\n") }
    }

    static func diff(_ paths: [String]) throws -> Int32 {
        guard paths.count == 2 else { throw Exit(status: 64, message: "ckdb diff: give two files, OLD and NEW.") }
        let old = try readSchema(at: paths[0], failing: 3)
        let new = try readSchema(at: paths[1], failing: 3)
        let changes = old.changes(to: new)
        let refused = changes.filter(\.isRefusedByDeployedContainer)
        for change in changes {
            print((change.isRefusedByDeployedContainer ? "refused:  " : "accepted: ") + change.description)
        }
        guard !changes.isEmpty else {
            print("No change from \(paths[0]) to \(paths[1]).")
            return 0
        }
        print(
            "\(count(changes.count, "change")) from \(paths[0]) to \(paths[1]), "
                + "\(refused.count) refused by a deployed container.")
        return refused.isEmpty ? 1 : 2
    }
}
