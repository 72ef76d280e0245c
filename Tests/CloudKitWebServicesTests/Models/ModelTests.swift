import CloudKitWebServices
import Foundation
import RecordCodable
import Testing

@Suite("Models: saved, fetched by name, queried with unreadable records reported")
struct ModelTests {
    @Test("Saving models encodes each as a record and creates it")
    func save() async throws {
        let transport = ScriptedTransport([
            .ok(#"{"records":[\#(noteJSON("a", title: "First")),\#(noteJSON("b", title: "Second"))]}"#)
        ])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let answer = try await database.save([Note(id: "a", title: "First"), Note(id: "b", title: "Second")])
        #expect(answer.records.compactMap(\.record).count == 2)
        let operations = jsonObject(transport.requests[0].body)["operations"] as? [[String: Any]] ?? []
        #expect(operations.map { $0["operationType"] as? String } == ["create", "create"])
        let record = operations.first?["record"] as? [String: Any]
        #expect(record?["recordType"] as? String == "Note")
        let title = (record?["fields"] as? [String: Any])?["title"] as? [String: Any]
        #expect(title?["value"] as? String == "First")
    }

    @Test("Fetching a model by name decodes the record; a name the server does not have is nil")
    func fetch() async throws {
        let transport = ScriptedTransport([
            .ok(#"{"records":[\#(noteJSON("a", title: "First"))]}"#),
            .ok(#"{"records":[\#(refusalJSON("zz", "NOT_FOUND"))]}"#),
            .ok(#"{"records":[\#(refusalJSON("x", "ACCESS_DENIED"))]}"#),
        ])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        #expect(try await database.fetch(Note.self, recordName: "a") == Note(id: "a", title: "First"))
        #expect(try await database.fetch(Note.self, recordName: "zz") == nil)
        let refusal = try await #require(throws: RecordServerError.self) {
            try await database.fetch(Note.self, recordName: "x")
        }
        #expect(refusal.serverErrorCode == .accessDenied)
        let looked = jsonObject(transport.requests[0].body)["records"] as? [[String: Any]]
        #expect(looked?.first?["recordName"] as? String == "a")
    }

    @Test("A query into models reports a record that does not decode and one that cannot be read, and keeps the rest")
    func queryWithUnreadable() async throws {
        let mistyped = #"{"recordName":"b","recordType":"Note","fields":{"title":{"value":42,"type":"INT64"}}}"#
        let unreadable = #"{"recordName":"c","recordType":"Note","fields":{"title":{"value":"x","type":"HOLOGRAM"}}}"#
        let transport = ScriptedTransport([
            .ok(#"{"records":[\#(noteJSON("a", title: "First")),\#(mistyped)],"continuationMarker":"M"}"#),
            .ok(
                #"{"records":[\#(unreadable),\#(refusalJSON("d", "ACCESS_DENIED")),\#(noteJSON("e", title: "Last"))]}"#),
        ])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        var results: [CloudKitModelResult<Note>] = []
        for try await page in database.queryModels(
            Note.self, RecordsQueryRequest(query: RecordQuery(recordType: "Note")))
        {
            results += page
        }
        #expect(results.map(\.model) == [Note(id: "a", title: "First"), nil, nil, nil, Note(id: "e", title: "Last")])
        guard case .undecodable(let record, _) = results[1] else {
            Issue.record("expected an undecodable record, got \(results[1])")
            return
        }
        #expect(record.recordName == "b")
        #expect(throws: DecodingError.self) { try results[1].get() }
        guard case .unreadable(let unread) = results[2] else {
            Issue.record("expected an unreadable record, got \(results[2])")
            return
        }
        #expect(unread.recordName == "c")
        guard case .failure(let refusal) = results[3] else {
            Issue.record("expected a refusal, got \(results[3])")
            return
        }
        #expect(refusal.recordName == "d")
    }
}
