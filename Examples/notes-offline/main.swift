// Notes kept offline with RecordStore, then synced: park notes, build the records/modify
// request for what the store owes the server, apply an answer in which another device had
// changed one note, and see both versions of that note side by side; then lose the answer to the
// resolution, and see the store settle the CONFLICT that sending it again meets.
//
//     swift run notes-offline
//
// The server's answers are written here by hand, as CloudKit Web Services sends them, so that
// the example runs without an account.
import Foundation
import RecordCodable
import RecordStoreKit

/// A folder, stored as a record of its own that notes link to.
struct Folder: Codable, LinkedRecord {
    var id: String
    var name: String
}

/// A note in a folder.
struct Note: Codable {
    var id: String
    var title: String
    var body: String
    var folder: Folder
}

/// Prints a body as CloudKit receives it.
func show(_ title: String, _ body: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    print("\n\(title)\n\(String(decoding: try encoder.encode(body), as: UTF8.self))")
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("notes-offline-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: directory) }
let store = try RecordStore(directory: directory)

// 1. Offline: the notes are parked, durably, each call returning once they are on disk.
let inbox = Folder(id: "inbox", name: "Inbox")
try store.parkAll([
    Note(id: "groceries", title: "Groceries", body: "Milk, eggs", folder: inbox),
    Note(id: "plumber", title: "Call the plumber", body: "About the kitchen tap", folder: inbox),
])
print("Pending: \(try store.records(in: .pending).map(\.key.recordName))")

// 2. Online again: the store builds the request for what it owes the server.
guard let request = try store.modifyRequests().first else {
    print("Nothing to send, although notes were parked a moment ago")
    exit(1)
}
try show("records/modify request:", request)

// 3. The server saved the folder and the groceries, but the plumber note had been changed on
//    another device since: a conflict.
func saved(_ operation: RecordOperation, tag: String) -> RecordResult {
    var record = operation.record
    record.metadata = RecordMetadata(changeTag: tag)
    return .success(record)
}
let response = RecordsModifyResponse(
    records: request.operations.map { operation in
        operation.record.recordName == "plumber"
            ? .failure(
                RecordServerError(
                    recordName: "plumber", reason: "record changed on the server",
                    serverErrorCode: .serverRecordChanged))
            : saved(operation, tag: "tag-1")
    })
let outcome = try store.apply(response, for: request)
print("\nSaved: \(outcome.saved.map(\.recordName)), in conflict: \(outcome.conflicts.map(\.recordName))")

// 4. The store asks for the server's version of the note in conflict, and keeps it beside the
//    local one.
for lookup in try store.conflictLookupRequests() {
    try show("records/lookup request:", lookup)
    var theirs = try RecordEncoder().encode(
        Note(id: "plumber", title: "Call the plumber", body: "Tap fixed already, cancel", folder: inbox))
    theirs.metadata = RecordMetadata(changeTag: "tag-9")
    try store.applyFetched(RecordsLookupResponse(records: [.success(theirs)]), for: lookup)
}

// 5. Both versions, side by side, for the app (or its user) to choose.
let decoder = RecordDecoder()
for conflict in try store.records(in: .conflict) {
    guard let serverRecord = conflict.serverRecord else { continue }
    let folders = try store.records(ofType: "Folder")
    let mine = try decoder.decode(Note.self, from: conflict.record, linkedRecords: folders)
    let theirs = try decoder.decode(Note.self, from: serverRecord, linkedRecords: folders)
    print("\nConflict kept both versions of '\(mine.title)':")
    print("  this device: \(mine.body)")
    print("  the server:  \(theirs.body)")

    // 6. A merge resolves it: saved as an update of the server's version, changes only.
    try store.park(Note(id: mine.id, title: mine.title, body: "\(theirs.body) (was: \(mine.body))", folder: inbox))
}
guard let resolution = try store.modifyRequests().first else {
    print("Nothing to send, although a conflict was resolved a moment ago")
    exit(1)
}
try show("The resolution, as the next records/modify request:", resolution)
let plumber = RecordKey(recordType: "Note", recordName: "plumber")
let resolved = try store.record(for: plumber)

// 7. A lost answer: the server saves the resolution, but the connection closes before its answer
//    comes. The store sends the update again, and the server, which has it already, refuses the
//    old change tag with CONFLICT. Meanwhile the note was edited once more.
guard let resent = try store.modifyRequests().first else {
    print("Nothing sent again, although the answer never came")
    exit(1)
}
try store.park(Note(id: "plumber", title: "Call the plumber", body: "Tap fixed, all done", folder: inbox))
let refused = RecordServerError(recordName: "plumber", reason: "change tag is stale", serverErrorCode: .conflict)
try store.apply(RecordsModifyResponse(records: [.failure(refused)]), for: resent)

// 8. Looked up, the server's version is the one the store sent: no conflict, and the edit made
//    meanwhile goes out as an update of it.
for lookup in try store.conflictLookupRequests() {
    guard var theirs = resolved else { break }
    theirs.metadata = RecordMetadata(changeTag: "tag-10")
    try store.applyFetched(RecordsLookupResponse(records: [.success(theirs)]), for: lookup)
}
print("\nAfter the lost answer, in conflict: \(try store.records(in: .conflict).map(\.key.recordName))")
if let next = try store.modifyRequests().first {
    try show("The edit made meanwhile, as the next records/modify request:", next)
}
