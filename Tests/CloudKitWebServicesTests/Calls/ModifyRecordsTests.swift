import CloudKitWebServices
import Foundation
import RecordCodable
import Testing

@Suite("records/modify: split at 200, refused records resent, lost answers settled")
struct ModifyRecordsTests {
    static func records(_ count: Int) -> [Record] {
        (0..<count).map { noteRecord("N\($0)", title: "t\($0)") }
    }

    static func answer(_ names: some Sequence<String>, syncToken: String? = nil) -> ScriptedTransport.Step {
        let token = syncToken.map { #","syncToken":"\#($0)""# } ?? ""
        return .ok(#"{"records":[\#(names.map { noteJSON($0, title: "x") }.joined(separator: ","))]\#(token)}"#)
    }

    @Test("450 operations that may be split go as 200, 200 and 50, answers joined in order")
    func split() async throws {
        let transport = ScriptedTransport([
            Self.answer((0..<200).map { "N\($0)" }, syncToken: "a"),
            Self.answer((200..<400).map { "N\($0)" }, syncToken: "b"),
            Self.answer((400..<450).map { "N\($0)" }, syncToken: "c"),
        ])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let answer = try await database.modifyRecords(RecordsModifyRequest(savingRecords: Self.records(450)))
        #expect(transport.requests.map { operationNames($0.body).count } == [200, 200, 50])
        #expect(transport.requests.flatMap { operationNames($0.body) } == (0..<450).map { "N\($0)" })
        #expect(answer.records.map(\.recordName) == (0..<450).map { "N\($0)" })
        #expect(answer.syncToken == "c")
        #expect(database.maximumOperationsPerRequest == 200)
    }

    @Test("A request without operations is not sent")
    func empty() async throws {
        let transport = ScriptedTransport([])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let answer = try await database.modifyRecords(RecordsModifyRequest(operations: []))
        #expect(answer.records.isEmpty)
        #expect(transport.requests.isEmpty)
    }

    @Test("Exactly 200 operations go in one request")
    func atTheLimit() async throws {
        let transport = ScriptedTransport([Self.answer((0..<200).map { "N\($0)" })])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let request = RecordsModifyRequest(savingRecords: Self.records(200), zoneID: RecordZoneID(zoneName: "Z"))
        _ = try await database.modifyRecords(request)
        #expect(transport.requests.count == 1)
    }

    @Test(
        "An atomic request of more than 200 operations is refused, never split",
        arguments: [(Bool?.some(true), "_defaultZone"), (nil, "Notes"), (true, "Notes")])
    func atomicTooLarge(atomic: Bool?, zone: String) async throws {
        let transport = ScriptedTransport([])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let request = RecordsModifyRequest(
            savingRecords: Self.records(201), zoneID: RecordZoneID(zoneName: zone), atomic: atomic)
        let error = try await #require(throws: CloudKitError.self) { try await database.modifyRecords(request) }
        guard case .invalidRequest(let why) = error.reason else {
            Issue.record("expected an invalid request, got \(error)")
            return
        }
        #expect(why.contains("atomic request of 201 operations"))
        #expect(transport.requests.isEmpty)
    }

    @Test("A custom zone's request with atomic false is split")
    func nonAtomicCustomZone() async throws {
        let transport = ScriptedTransport([Self.answer((0..<200).map { "N\($0)" }), Self.answer(["N200"])])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let request = RecordsModifyRequest(
            savingRecords: Self.records(201), zoneID: RecordZoneID(zoneName: "Notes"), atomic: false)
        let answer = try await database.modifyRecords(request)
        #expect(answer.records.count == 201)
        #expect(jsonObject(transport.requests[1].body)["atomic"] as? Bool == false)
    }

    @Test("When a later part fails, the error carries the results of the parts applied")
    func splitFailureKeepsCompleted() async throws {
        let transport = ScriptedTransport([
            Self.answer((0..<200).map { "N\($0)" }), .status(403, #"{"serverErrorCode":"ACCESS_DENIED"}"#),
        ])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let error = try await #require(throws: CloudKitError.self) {
            try await database.modifyRecords(RecordsModifyRequest(savingRecords: Self.records(201)))
        }
        #expect(error.completed.count == 200)
        #expect(error.serverError?.serverErrorCode == .accessDenied)
        #expect(error.recordName == "N200")
    }

    @Test("LIMIT_EXCEEDED for a request that may be split sends it again in halves")
    func limitExceededHalves() async throws {
        let transport = ScriptedTransport([
            .status(400, #"{"serverErrorCode":"LIMIT_EXCEEDED"}"#), Self.answer(["N0", "N1"]),
            Self.answer(["N2", "N3"]),
        ])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let answer = try await database.modifyRecords(RecordsModifyRequest(savingRecords: Self.records(4)))
        #expect(
            transport.requests.map { operationNames($0.body) } == [
                ["N0", "N1", "N2", "N3"], ["N0", "N1"], ["N2", "N3"],
            ])
        #expect(answer.records.map(\.recordName) == ["N0", "N1", "N2", "N3"])
    }

    @Test("LIMIT_EXCEEDED for an atomic request is thrown")
    func limitExceededAtomic() async throws {
        let transport = ScriptedTransport([.status(400, #"{"serverErrorCode":"LIMIT_EXCEEDED"}"#)])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let request = RecordsModifyRequest(savingRecords: Self.records(4), zoneID: RecordZoneID(zoneName: "Notes"))
        let error = try await #require(throws: CloudKitError.self) { try await database.modifyRecords(request) }
        #expect(error.serverError?.serverErrorCode == .limitExceeded)
        #expect(transport.requests.count == 1)
    }

    @Test("Records refused for now are sent again alone, after the longest delay asked; the rest are kept")
    func perRecordRetry() async throws {
        let sleeps = RecordedSleeps()
        let transport = ScriptedTransport([
            .ok(
                #"{"records":[\#(noteJSON("N0", title: "x")),\#(refusalJSON("N1", "THROTTLED", retryAfter: 3)),"#
                    + #"\#(refusalJSON("N2", "CONFLICT")),\#(refusalJSON("N3", "ZONE_BUSY", retryAfter: 5))]}"#),
            .ok(#"{"records":[\#(noteJSON("N1", title: "x")),\#(refusalJSON("N3", "TRY_AGAIN_LATER"))]}"#),
            .ok(#"{"records":[\#(noteJSON("N3", title: "x"))],"syncToken":"z"}"#),
        ])
        let database = testDatabase(transport, policy: sleeps.policy())
        let answer = try await database.modifyRecords(RecordsModifyRequest(savingRecords: Self.records(4)))
        #expect(
            transport.requests.map { operationNames($0.body) } == [["N0", "N1", "N2", "N3"], ["N1", "N3"], ["N3"]])
        #expect(sleeps.all == [.seconds(5), .seconds(2)])
        #expect(answer.records.map(\.recordName) == ["N0", "N1", "N2", "N3"])
        #expect(answer.records.map { $0.record != nil } == [true, true, false, true])
        #expect(answer.records[2].error?.serverErrorCode == .conflict)
        #expect(answer.syncToken == "z")
    }

    @Test("When the retry of records refused for now fails, the error carries the results settled before")
    func perRecordRetryFailureKeepsCompleted() async throws {
        let transport = ScriptedTransport([
            .ok(
                #"{"records":[\#(noteJSON("N0", title: "x")),\#(refusalJSON("N1", "THROTTLED")),"#
                    + #"\#(refusalJSON("N2", "CONFLICT"))]}"#),
            .status(403, #"{"serverErrorCode":"ACCESS_DENIED"}"#),
        ])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let error = try await #require(throws: CloudKitError.self) {
            try await database.modifyRecords(RecordsModifyRequest(savingRecords: Self.records(3)))
        }
        #expect(transport.requests.map { operationNames($0.body) } == [["N0", "N1", "N2"], ["N1"]])
        #expect(error.serverError?.serverErrorCode == .accessDenied)
        #expect(error.recordName == "N1")
        #expect(error.completed.map(\.recordName) == ["N0", "N2"])
        #expect(error.completed.first?.record != nil)
        #expect(error.completed.last?.error?.serverErrorCode == .conflict)
    }

    @Test("Records still refused when the retries run out are returned refused")
    func perRecordRetryGivesUp() async throws {
        let sleeps = RecordedSleeps()
        let refused = ScriptedTransport.Step.ok(#"{"records":[\#(refusalJSON("N0", "THROTTLED"))]}"#)
        let transport = ScriptedTransport([refused, refused, refused])
        let database = testDatabase(transport, policy: sleeps.policy(maximumRetries: 2))
        let answer = try await database.modifyRecords(RecordsModifyRequest(savingRecords: Self.records(1)))
        #expect(answer.records.first?.error?.serverErrorCode == .throttled)
        #expect(transport.requests.count == 3)
    }

    @Test("In an atomic request refused for now, the whole request is sent again; not when another failure is real")
    func atomicRetry() async throws {
        let zone = RecordZoneID(zoneName: "Notes")
        let transport = ScriptedTransport([
            .ok(#"{"records":[\#(refusalJSON("N0", "ATOMIC_ERROR")),\#(refusalJSON("N1", "ZONE_BUSY"))]}"#),
            Self.answer(["N0", "N1"]),
            .ok(#"{"records":[\#(refusalJSON("N0", "CONFLICT")),\#(refusalJSON("N1", "ZONE_BUSY"))]}"#),
        ])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let request = RecordsModifyRequest(savingRecords: Self.records(2), zoneID: zone)
        let first = try await database.modifyRecords(request)
        #expect(first.records.allSatisfy { $0.record != nil })
        #expect(transport.requests.map { operationNames($0.body) } == [["N0", "N1"], ["N0", "N1"]])
        let second = try await database.modifyRecords(request)
        #expect(second.records.map { $0.error?.serverErrorCode } == [.conflict, .zoneBusy])
        #expect(transport.requests.count == 3)
    }

    @Test("A create whose answer was lost, resent and refused EXISTS, is saved when the server has what was sent")
    func lostCreate() async throws {
        let transport = ScriptedTransport([
            .noAnswer,
            .ok(#"{"records":[\#(refusalJSON("N0", "EXISTS")),\#(noteJSON("N1", title: "t1"))]}"#),
            .ok(#"{"records":[\#(noteJSON("N0", title: "t0", tag: "server-tag"))]}"#),
        ])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let answer = try await database.modifyRecords(RecordsModifyRequest(savingRecords: Self.records(2)))
        #expect(answer.records.map { $0.record?.recordName } == ["N0", "N1"])
        #expect(answer.records[0].record?.metadata?.changeTag == "server-tag")
        #expect(transport.requests.map { $0.path.contains("records/lookup") } == [false, false, true])
        let looked = jsonObject(transport.requests[2].body)["records"] as? [[String: Any]]
        #expect(looked?.compactMap { $0["recordName"] as? String } == ["N0"])
    }

    @Test("A lost create refused EXISTS stays refused when the server's record is another's")
    func lostCreateOfAnother() async throws {
        let transport = ScriptedTransport([
            .noAnswer,
            .ok(#"{"records":[\#(refusalJSON("N0", "EXISTS"))]}"#),
            .ok(#"{"records":[\#(noteJSON("N0", title: "someone else's"))]}"#),
        ])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let answer = try await database.modifyRecords(RecordsModifyRequest(savingRecords: Self.records(1)))
        #expect(answer.records.first?.error?.serverErrorCode == .exists)
    }

    @Test(
        "Lost creates are settled by the lookup's record of their own name, whatever the lookup's order or count",
        arguments: [["N1", "N0"], ["N1"]])
    func lostCreatesMatchedByName(lookedUp: [String]) async throws {
        let entries = lookedUp.map { noteJSON($0, title: "same") }.joined(separator: ",")
        let transport = ScriptedTransport([
            .noAnswer,
            .ok(#"{"records":[\#(refusalJSON("N0", "EXISTS")),\#(refusalJSON("N1", "EXISTS"))]}"#),
            .ok(#"{"records":[\#(entries)]}"#),
        ])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let records = [noteRecord("N0", title: "same"), noteRecord("N1", title: "same")]
        let answer = try await database.modifyRecords(RecordsModifyRequest(savingRecords: records))
        // A record the lookup did not return stays refused EXISTS, as the server answered it.
        let settled = ["N0", "N1"].map { lookedUp.contains($0) ? $0 : nil }
        #expect(answer.records.map(\.recordName) == ["N0", "N1"])
        #expect(answer.records.map { $0.record?.recordName } == settled)
        #expect(answer.records.map { $0.error?.serverErrorCode } == settled.map { $0 == nil ? .exists : nil })
    }

    @Test("An update whose answer was lost, resent and refused as a conflict, is saved when the server has it")
    func lostUpdate() async throws {
        let transport = ScriptedTransport([
            .noAnswer,
            .ok(#"{"records":[\#(refusalJSON("N0", "SERVER_RECORD_CHANGED"))]}"#),
            .ok(#"{"records":[\#(noteJSON("N0", title: "edited", tag: "t2"))]}"#),
        ])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let update = RecordOperation(.update, record: noteRecord("N0", title: "edited"))
        let answer = try await database.modifyRecords(RecordsModifyRequest(operations: [update]))
        #expect(answer.records.first?.record?.metadata?.changeTag == "t2")
    }

    @Test("EXISTS without a lost answer is returned as the server said, with no lookup")
    func existsWithoutLostAnswer() async throws {
        let transport = ScriptedTransport([.ok(#"{"records":[\#(refusalJSON("N0", "EXISTS"))]}"#)])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let answer = try await database.modifyRecords(RecordsModifyRequest(savingRecords: Self.records(1)))
        #expect(answer.records.first?.error?.serverErrorCode == .exists)
        #expect(transport.requests.count == 1)
    }

    @Test("An answer with fewer entries than operations is returned as it came, never matched wrongly")
    func mismatchedAnswer() async throws {
        let transport = ScriptedTransport([Self.answer(["N0"])])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let answer = try await database.modifyRecords(RecordsModifyRequest(savingRecords: Self.records(2)))
        #expect(answer.records.map(\.recordName) == ["N0"])
    }

    @Test("A lookup of more than 200 records is sent in parts, answers joined")
    func lookupSplit() async throws {
        let transport = ScriptedTransport([
            Self.answer((0..<200).map { "N\($0)" }), Self.answer(["N200"]),
        ])
        let database = testDatabase(transport, policy: RecordedSleeps().policy())
        let request = RecordsLookupRequest(records: (0..<201).map { .init(recordName: "N\($0)") })
        let answer = try await database.lookupRecords(request)
        #expect(answer.records.count == 201)
        #expect(transport.requests.count == 2)
    }
}
