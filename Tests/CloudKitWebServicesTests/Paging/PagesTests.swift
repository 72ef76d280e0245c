import CloudKitWebServices
import Foundation
import RecordCodable
import Testing

@Suite("Pages as AsyncSequences: continuation markers, moreComing and sync tokens")
struct PagesTests {
    @Test("A query's pages follow the continuation marker until a page has none")
    func queryPages() async throws {
        let transport = ScriptedTransport([
            .ok(#"{"records":[\#(noteJSON("N1", title: "a"))],"continuationMarker":"M1"}"#),
            .ok(#"{"records":[\#(noteJSON("N2", title: "b"))],"continuationMarker":"M2"}"#),
            .ok(#"{"records":[\#(noteJSON("N3", title: "c"))]}"#),
        ])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        var names: [String] = []
        for try await page in database.pages(of: RecordsQueryRequest(query: RecordQuery(recordType: "Note"))) {
            names += page.records.compactMap(\.recordName)
        }
        #expect(names == ["N1", "N2", "N3"])
        let markers = transport.requests.map { jsonObject($0.body)["continuationMarker"] as? String }
        #expect(markers == [nil, "M1", "M2"])
    }

    @Test("A query's pages stop when a page brings back the marker it was asked with")
    func queryRepeatedMarker() async throws {
        let transport = ScriptedTransport([
            .ok(#"{"records":[\#(noteJSON("N1", title: "a"))],"continuationMarker":"M1"}"#),
            .ok(#"{"records":[\#(noteJSON("N2", title: "b"))],"continuationMarker":"M1"}"#),
            .ok(#"{"records":[\#(noteJSON("N2", title: "b"))],"continuationMarker":"M1"}"#),
        ])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        var pages = 0
        for try await _ in database.pages(of: RecordsQueryRequest(query: RecordQuery(recordType: "Note"))) {
            pages += 1
            if pages > 2 { break }  // without the check, the marker would be followed for ever
        }
        #expect(pages == 2)
        #expect(transport.requests.count == 2)
    }

    @Test("Breaking out of the loop fetches nothing more")
    func breakStops() async throws {
        let transport = ScriptedTransport([.ok(#"{"records":[],"continuationMarker":"M1"}"#)])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        for try await _ in database.pages(of: RecordsQueryRequest(query: RecordQuery(recordType: "Note"))) { break }
        #expect(transport.requests.count == 1)
    }

    @Test("A zone's changes follow moreComing with each page's sync token, and stop on a repeated token")
    func recordChangesPages() async throws {
        let zone = RecordZoneID(zoneName: "Notes")
        let transport = ScriptedTransport([
            .ok(#"{"records":[\#(noteJSON("N1", title: "a"))],"syncToken":"S1","moreComing":true}"#),
            .ok(#"{"records":[],"syncToken":"S2","moreComing":true}"#),
            .ok(#"{"records":[],"syncToken":"S2","moreComing":true}"#),
        ])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        var tokens: [String?] = []
        for try await page in database.pages(of: RecordsChangesRequest(zoneID: zone, syncToken: "S0")) {
            tokens.append(page.syncToken)
        }
        #expect(tokens == ["S1", "S2", "S2"])
        #expect(transport.requests.map { jsonObject($0.body)["syncToken"] as? String } == ["S0", "S1", "S2"])
    }

    @Test("Several zones' changes ask again only for the zones with more")
    func zoneChangesPages() async throws {
        let transport = ScriptedTransport([
            .ok(
                #"{"zones":[{"zoneID":{"zoneName":"A"},"records":[],"syncToken":"A1","moreComing":true},"#
                    + #"{"zoneID":{"zoneName":"B"},"records":[],"syncToken":"B1","moreComing":false}]}"#),
            .ok(#"{"zones":[{"zoneID":{"zoneName":"A"},"records":[],"syncToken":"A2","moreComing":false}]}"#),
        ])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let request = ZoneChangesRequest(zones: [
            RecordsChangesRequest(zoneID: RecordZoneID(zoneName: "A")),
            RecordsChangesRequest(zoneID: RecordZoneID(zoneName: "B")),
        ])
        var pages = 0
        for try await _ in database.pages(of: request) { pages += 1 }
        #expect(pages == 2)
        let second = jsonObject(transport.requests[1].body)["zones"] as? [[String: Any]]
        #expect(second?.count == 1)
        #expect(second?.first?["syncToken"] as? String == "A1")
    }

    @Test("The database's changes follow moreComing with the sync token")
    func databaseChangesPages() async throws {
        let transport = ScriptedTransport([
            .ok(#"{"zones":[{"zoneID":{"zoneName":"A"}}],"syncToken":"D1","moreComing":true}"#),
            .ok(#"{"zones":[{"zoneID":{"zoneName":"B"},"deleted":true}],"syncToken":"D2","moreComing":false}"#),
        ])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        var zones: [String] = []
        for try await page in database.pages(of: DatabaseChangesRequest()) {
            zones += page.zones.map(\.zoneID.zoneName)
        }
        #expect(zones == ["A", "B"])
        #expect(transport.requests.map { jsonObject($0.body)["syncToken"] as? String } == [nil, "D1"])
    }

    @Test("A page that fails throws after the pages before it were handed out")
    func failingPage() async throws {
        let transport = ScriptedTransport([
            .ok(#"{"records":[],"continuationMarker":"M1"}"#), .status(403, #"{"serverErrorCode":"ACCESS_DENIED"}"#),
        ])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        var pages = 0
        await #expect(throws: CloudKitError.self) {
            for try await _ in database.pages(of: RecordsQueryRequest(query: RecordQuery(recordType: "Note"))) {
                pages += 1
            }
        }
        #expect(pages == 1)
    }
}
