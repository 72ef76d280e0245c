// Talking to CloudKit Web Services from a server: the JSON of a `records/modify` request that
// saves two models, and the reading of the server's answer.
//
//     swift run server-json
import Foundation
import RecordCodable

struct Note: Codable, RecordRepresentable {
    static var recordType: String { "Note" }

    var id: String
    var title: String
    var tags: [String]
    var due: Date?
    var folder: RecordReference?
    var metadata: RecordMetadata?
}

let notes = [
    Note(
        id: "note-1", title: "Buy milk", tags: ["errands"], due: Date(timeIntervalSince1970: 1_700_000_000),
        folder: RecordReference(recordName: "folder-home", action: .deleteSelf), metadata: nil),
    // A note fetched earlier: it carries the server's change tag, so it is saved as an update.
    Note(
        id: "note-2", title: "Call Ada", tags: [], due: nil, folder: nil,
        metadata: RecordMetadata(changeTag: "9c")),
]

do {
    let request = try RecordsModifyRequest(saving: notes, zoneID: RecordZoneID(zoneName: "Notes"), atomic: true)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    print("POST https://api.apple-cloudkit.com/database/1/iCloud.com.example.notes/development/private/records/modify")
    print(String(decoding: try encoder.encode(request), as: UTF8.self))

    // What the server answers: the saved record with its new change tag, and a conflict.
    let answer = Data(
        #"""
        {"records":[
          {"recordName":"note-1","recordType":"Note","recordChangeTag":"a1",
           "fields":{"title":{"value":"Buy milk","type":"STRING"},"tags":{"value":["errands"],"type":"STRING_LIST"},
                     "due":{"value":1700000000000,"type":"TIMESTAMP"},
                     "folder":{"value":{"recordName":"folder-home","action":"DELETE_SELF"},"type":"REFERENCE"}},
           "created":{"timestamp":1700000100000,"userRecordName":"_a1b2","deviceID":"2"},
           "modified":{"timestamp":1700000100000,"userRecordName":"_a1b2","deviceID":"2"}},
          {"recordName":"note-2","reason":"record to update has changed","serverErrorCode":"CONFLICT"}
        ]}
        """#.utf8)
    let response = try JSONDecoder().decode(RecordsModifyResponse.self, from: answer)
    print()
    for result in response.records {
        switch result {
        case .success(let record):
            let note = try RecordDecoder().decode(Note.self, from: record)
            print("Saved \(note.id) \"\(note.title)\", change tag \(note.metadata?.changeTag ?? "none")")
        case .failure(let error):
            print("Not saved: \(error)")
        case .unreadable(let unreadable):
            print("Saved, but not readable here: \(unreadable)")
        }
    }
} catch {
    print("Error: \(error)")
    exit(1)
}
