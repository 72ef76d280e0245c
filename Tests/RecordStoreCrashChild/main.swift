import Foundation

// The process that the crash tests start, and kill with SIGKILL at a random moment:
//   record-store-crash-child <directory> write|compact|checkpoint|concurrent
// It writes commit after commit to the store in <directory>, printing each commit's number once
// the commit has returned, so that the test knows which commits were acknowledged.
//   record-store-crash-child <directory> sync <serverURL>
// It writes steps of edits to the store in <directory> and syncs after each with the CloudKit
// Web Services stand-in at <serverURL> (see SyncWorkload), printing its progress.
let arguments = CommandLine.arguments
if arguments.count == 4, arguments[2] == "sync", let serverURL = URL(string: arguments[3]) {
    do {
        try await SyncWorkload.run(directory: URL(fileURLWithPath: arguments[1]), serverURL: serverURL)
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(1)
    }
}
guard arguments.count == 3, ["write", "compact", "checkpoint", "concurrent"].contains(arguments[2]) else {
    FileHandle.standardError.write(
        Data("usage: record-store-crash-child <directory> write|compact|checkpoint|concurrent|sync <serverURL>\n".utf8))
    exit(2)
}
do {
    let directory = URL(fileURLWithPath: arguments[1])
    switch arguments[2] {
    case "concurrent": try ConcurrentCrashWorkload.run(directory: directory)
    default:
        try CrashWorkload.run(
            directory: directory, compacting: arguments[2] == "compact", checkpointing: arguments[2] == "checkpoint")
    }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
