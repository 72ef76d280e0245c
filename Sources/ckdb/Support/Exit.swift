// What every command of ckdb needs: how it ends, and its files read.
import Foundation
import RecordCodable

/// How the tool ends, and why, when it ends early.
struct Exit: Error {
    var status: Int32
    var message: String?
}

func read(_ path: String) throws -> String {
    do {
        return try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
    } catch {
        throw Exit(status: 66, message: "ckdb: cannot read \(path): \(error.localizedDescription)")
    }
}

/// The schema in the file at `path`; a file that is not the language ends the tool with
/// `status`, its error where it is.
func readSchema(at path: String, failing status: Int32) throws -> RecordSchema {
    try schema(in: read(path), at: path, failing: status)
}

/// The schema `text`, read from the file at `path`; text that is not the language ends the tool
/// with `status`, its error where it is in the file.
func schema(in text: String, at path: String, failing status: Int32) throws -> RecordSchema {
    do {
        return try RecordSchema(parsing: text)
    } catch let error as RecordSchema.ParseError {
        throw Exit(status: status, message: "\(path):\(error.line):\(error.column): error: \(error.message)")
    }
}

func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
