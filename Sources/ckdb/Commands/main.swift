// ckdb: CloudKit schema files (.ckdb, as `cktool export-schema` writes them) checked, formatted and
// compared. The work is RecordSchema's (RecordCodable's Schema folder); this file picks the
// command from the arguments and ends with its exit status (see Command.help).
import Foundation
import RecordCodable

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    let status: Int32
    switch arguments.contains(where: { $0 == "--help" || $0 == "-h" }) ? "--help" : arguments.first {
    case "validate": status = try Command.validate(Array(arguments.dropFirst()))
    case "format": status = try Command.format(Array(arguments.dropFirst()))
    case "diff": status = try Command.diff(Array(arguments.dropFirst()))
    case "--help", "-h", "help":
        print(Command.help)
        status = 0
    case let command?:
        throw Exit(status: 64, message: "ckdb: no command '\(command)'.\n\n\(Command.help)")
    case nil:
        throw Exit(status: 64, message: Command.help)
    }
    exit(status)
} catch let exit as Exit {
    if let message = exit.message { printError(message) }
    Foundation.exit(exit.status)
}
