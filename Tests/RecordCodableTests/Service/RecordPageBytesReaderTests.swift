import Foundation
import Testing

@testable import RecordCodable

/// `RecordPageBytesReader` decides how a page of records is read, never what: a body it reads
/// straight from its bytes is the body the tape's general way reads, and every body it does not
/// read is read by that way from the start, with each entry's result and each error. These tests
/// walk each boundary: bodies it reads, against the general way's value, and bodies it leaves,
/// against `JSONDecoder`'s outcome.
@Suite("Service: a page of records read straight from its bytes")
struct RecordPageBytesReaderTests {
    /// The body the general way reads from `data`: a tape, then the body's wire reader.
    static func generalOutcome<Body: RecordPageBody & Equatable & Sendable>(
        _ type: Body.Type, _ data: Data
    ) -> DecodeOutcome<Body> {
        DecodeOutcome {
            guard let tape = parsedTape(data) else { throw CocoaError(.coderReadCorrupt) }
            return try Body(wire: WireReader(tape, at: 0))
        }
    }

    /// Checks that `text` reads straight as a `Body`, to the general way's body and `JSONDecoder`'s.
    static func expectStraight<Body: RecordPageBody & Decodable & Equatable & Sendable>(
        _ type: Body.Type, _ text: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let data = Data(text.utf8)
        let straight = Body.straight(from: data)
        #expect(straight != nil, "\(text)", sourceLocation: sourceLocation)
        guard let straight else { return }
        #expect(generalOutcome(Body.self, data) == .value(straight), "\(text)", sourceLocation: sourceLocation)
        #expect(
            expectSameOutcome(Body.self, from: data, text, sourceLocation: sourceLocation) == .value(straight),
            sourceLocation: sourceLocation)
    }

    static let note = #"{"recordName":"N1","recordType":"Note","fields":{"t":{"type":"STRING","value":"Hi"}}}"#
    static let everyType =
        #"{"recordName":"N2","recordType":"Note","recordChangeTag":"c1","fields":{"#
        + #""s":{"type":"STRING","value":"a \"b\" \u00e9"},"i":{"type":"INT64","value":-9},"#
        + #""d":{"value":4.75,"type":"DOUBLE"},"t":{"type":"TIMESTAMP","value":1700000000000},"#
        + #""b":{"type":"BYTES","value":"AAEC/w=="},"r":{"type":"REFERENCE","value":{"recordName":"A"}},"#
        + #""sl":{"type":"STRING_LIST","value":["x","y"]},"il":{"type":"INT64_LIST","value":[]},"#
        + #""rl":{"type":"REFERENCE_LIST","value":[{"recordName":"B","action":"DELETE_SELF"}]}},"#
        + #""created":{"timestamp":1,"userRecordName":"_u","deviceID":"d"},"modified":{"timestamp":2},"#
        + #""zoneID":{"zoneName":"Z","ownerRecordName":"_o"},"deleted":false}"#
    static let deletedRecord = #"{"recordName":"gone","deleted":true}"#
    static let serverError = #"{"recordName":"N3","serverErrorCode":"NOT_FOUND","reason":"no such record"}"#
    static let futureField = #"{"recordName":"N4","fields":{"f":{"type":"FUTURE_KIND","value":1}}}"#

    @Test(
        "A query page of records of the usual shape reads straight, to the general way's page",
        arguments: [
            #"{"records":[]}"#,
            #"{"records":[ ]}"#,
            #"{"continuationMarker":"m"}"#,
            #"{"records":[\#(note)]}"#,
            #"{"records":[\#(note),\#(everyType),\#(deletedRecord)],"continuationMarker":"m1","syncToken":"s"}"#,
            #"{"syncToken":"s","records":[\#(everyType)],"continuationMarker":"m\u00e9"}"#,
            " \n\t{ \"records\" : [ \(note) ,\r\n \(everyType) ] , \"continuationMarker\" : \"m\" } \n",
        ])
    func queryPageReadsStraight(_ text: String) {
        Self.expectStraight(RecordsQueryResponse.self, text)
    }

    @Test(
        "Any other query body is left to the general way, which reads it or fails as JSONDecoder does",
        arguments: [
            // A server's error, or a record the general way keeps as unreadable, among records.
            #"{"records":[\#(note),\#(serverError)]}"#,
            #"{"records":[\#(serverError)]}"#,
            #"{"records":[\#(note),\#(futureField),\#(everyType)]}"#,
            // A malformed record in the middle: an error at its own path, or unreadable.
            #"{"records":[\#(note),{"recordName":"N5","fields":{"i":{"type":"INT64","value":1.5}}},\#(note)]}"#,
            #"{"records":[\#(note),{"recordType":"Note"},\#(note)]}"#,
            #"{"records":[\#(note),7,\#(note)]}"#,
            #"{"records":[\#(note),null]}"#,
            // Members the reader does not know, meets twice, or finds null.
            "{}",
            #"{"records":[],"moreComing":true}"#,
            #"{"records":[],"extra":1}"#,
            #"{"records":[],"records":[\#(note)]}"#,
            #"{"records":[],"syncToken":"a","syncToken":"b"}"#,
            #"{"records":null}"#,
            #"{"records":[],"continuationMarker":null}"#,
            #"{"records":[],"continuationMarker":5}"#,
            #"{"records":{}}"#,
            #"{"record\u0073":[]}"#,
            // What JSONDecoder allows and the reader leaves: trailing commas, a byte order mark.
            #"{"records":[\#(note),]}"#,
            #"{"records":[],}"#,
            "\u{FEFF}" + #"{"records":[]}"#,
            // Text that is not JSON.
            #"{"records":[\#(note)]"#,
            #"{"records":[\#(note)]} x"#,
            #"{"records":[\#(note)}"#,
            #"[{"records":[]}]"#,
            "",
        ])
    func queryPageLeaves(_ text: String) {
        let data = Data(text.utf8)
        #expect(RecordsQueryResponse.straight(from: data) == nil, "\(text)")
        let outcome = expectSameOutcome(RecordsQueryResponse.self, from: data, text)
        if readsFast(data) { #expect(outcome == Self.generalOutcome(RecordsQueryResponse.self, data), "\(text)") }
    }

    /// A record named `name` of type `type` whose fields object holds `fields`, each a name as
    /// JSON text (escapes and all) with a string value of its own.
    static func record(_ name: String, type: String = "Note", _ fields: [String]) -> String {
        let members = fields.enumerated().map { #""\#($1)":{"type":"STRING","value":"v\#($0)"}"# }
        return #"{"recordName":"\#(name)","recordType":"\#(type)","fields":{\#(members.joined(separator: ","))}}"#
    }

    /// A page of `records`.
    static func page(_ records: [String]) -> String {
        #"{"records":[\#(records.joined(separator: ","))]}"#
    }

    static let seventeen = "seventeen_chars_a"

    @Test(
        "Records that name other fields than the record before, or the same ones otherwise, read as the general way reads them",
        arguments: [
            // Fewer, more, another order, another name of the same length and first byte.
            page([record("A", ["a", "b", "c"]), record("B", ["a", "b"]), record("C", ["a", "b", "c"])]),
            page([record("A", ["a", "b"]), record("B", ["a", "b", "c"]), record("C", ["a", "b"])]),
            page([record("A", ["a", "b"]), record("B", ["b", "a"]), record("C", ["a", "b"])]),
            page([record("A", ["ab", "cd"]), record("B", ["ab", "ce"]), record("C", [])]),
            // Names past 16 bytes that differ only there, or in length alone.
            page([record("A", [seventeen]), record("B", ["seventeen_chars_b"]), record("C", [seventeen])]),
            page([
                record("A", [seventeen]), record("B", [seventeen + "b"]), record("C", [String(seventeen.dropLast())]),
            ]),
            // The same name written with an escape, or not ASCII; one that is, another that is not.
            page([record("A", ["a", "b"]), record("B", [#"\u0061"#, "b"]), record("C", ["a", #"\u0062"#])]),
            page([record("A", ["é", "b"]), record("B", ["é", "b"]), record("C", [#"e\u0301"#, "b"])]),
            // A name whose text has an escape, then text of the same bytes that reads to another.
            page([record("A", [#"a\\nb"#]), record("B", [#"a\nb"#]), record("C", [#"a\\nb"#])]),
            // Another type, a type with an escape, a long type.
            page([
                record("A", type: "Note", ["a"]), record("B", type: "Post", ["a"]),
                record("C", type: #"No\u0074e"#, ["a"]), record("D", type: "AVeryLongRecordTypeName", ["a"]),
                record("E", type: "AVeryLongRecordTypeName", ["a"]),
            ]),
            // A record of more fields than a list keeps, after one that fills it.
            page([
                record("A", (0..<64).map { "f\($0)" }), record("B", (0..<65).map { "f\($0)" }),
                record("C", (0..<64).map { "f\($0)" }),
            ]),
        ])
    func recordsNamedOtherwise(_ text: String) {
        Self.expectStraight(RecordsQueryResponse.self, text)
        // Each record of the page is the record read alone.
        let page = RecordsQueryResponse.straight(from: Data(text.utf8))
        let records = (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: [Any]])?["records"] ?? []
        #expect(page?.records.count == records.count)
        for (result, object) in zip(page?.records ?? [], records) {
            let alone = (try? JSONSerialization.data(withJSONObject: object)).flatMap(RecordBytesReader.record(from:))
            #expect(result.record == alone, "\(text)")
            #expect(result.record?.fields == alone?.fields, "\(text)")
        }
    }

    @Test("Records that name the same fields in the same order share the first one's names, each with its own values")
    func sharedNames() throws {
        let names = ["title", "views", Self.seventeen, "é"]
        let text = Self.page((0..<3).map { Self.record("R\($0)", names) })
        let page = try #require(RecordsQueryResponse.straight(from: Data(text.utf8)))
        let records = page.records.compactMap(\.record)
        #expect(records.count == 3)
        // A name that is not plain text is never matched by its bytes: "é" ends each record's
        // match, and no record shares names.
        #expect(records.map(\.sharesNames) == [false, false, false])
        let plain = ["title", "views", Self.seventeen]
        let plainPage = try #require(
            RecordsQueryResponse.straight(from: Data(Self.page((0..<3).map { Self.record("R\($0)", plain) }).utf8)))
        // The first keeps its own fields, the others only their values.
        #expect(plainPage.records.compactMap(\.record?.sharesNames) == [false, true, true])
        for record in plainPage.records.compactMap(\.record) {
            #expect(record.fieldStorage.names == plain)
            #expect(record["title"] == .string("v0") && record["views"] == .string("v1"))
            #expect(record[Self.seventeen] == .string("v2") && record["missing"] == nil)
            var names: [String] = []
            record.forEachField { name, _ in names.append(name) }
            #expect(names == plain)
            #expect(record.fields == ["title": .string("v0"), "views": .string("v1"), Self.seventeen: .string("v2")])
        }
        // A change to a record that shares names changes it alone.
        var changed = plainPage.records[1].record
        changed?["title"] = .string("changed")
        #expect(changed?["title"] == .string("changed"))
        #expect(plainPage.records[2].record?["title"] == .string("v0"))
        #expect(plainPage.records[0].record?["title"] == .string("v0"))
    }

    @Test("Names are shared from the last record that kept its own, across one without fields")
    func namesAcrossRecords() throws {
        let text = Self.page([
            Self.record("A", ["a", "b"]), #"{"recordName":"B","recordType":"Note","fields":{}}"#,
            Self.record("C", ["a", "b"]),
        ])
        let page = try #require(RecordsQueryResponse.straight(from: Data(text.utf8)))
        #expect(page.records.compactMap(\.record?.sharesNames) == [false, false, true])
        #expect(page.records[2].record?.fields == ["a": .string("v0"), "b": .string("v1")])
    }

    @Test("A per-record error still comes out as the general way gives it, the other records read")
    func perRecordError() throws {
        let data = Data(#"{"records":[\#(Self.note),\#(Self.serverError),\#(Self.futureField)]}"#.utf8)
        let page = try RecordJSONDecoder().decode(RecordsQueryResponse.self, from: data)
        #expect(page.records.count == 3)
        #expect(page.records[0].record?.recordName == "N1")
        #expect(page.records[1].error?.recordName == "N3")
        #expect(page.records[2].unreadable?.recordName == "N4")
    }

    @Test("Lookup, modify and changes bodies read straight, to the general way's body")
    func otherBodies() {
        Self.expectStraight(RecordsLookupResponse.self, #"{"records":[\#(Self.note),\#(Self.everyType)]}"#)
        Self.expectStraight(RecordsModifyResponse.self, #"{"records":[\#(Self.note)],"syncToken":"s"}"#)
        // Each record without a zone of its own is placed in the page's, as the general way does.
        Self.expectStraight(
            RecordsChangesResponse.self,
            #"{"records":[\#(Self.note),\#(Self.everyType),\#(Self.deletedRecord)],"syncToken":"s","#
                + #""moreComing":true,"zoneID":{"zoneName":"Z2"}}"#)
        Self.expectStraight(RecordsChangesResponse.self, #"{"records":[],"moreComing":false}"#)
    }

    @Test("A zone changes body reads straight, each zone's page as a records-changes body, or not at all")
    func zoneChanges() {
        let zone = #"{"zoneID":{"zoneName":"Z"},"records":[\#(Self.note),\#(Self.deletedRecord)],"syncToken":"s1"}"#
        let zoneError = #"{"zoneID":{"zoneName":"Y"},"serverErrorCode":"ZONE_NOT_FOUND","reason":"gone"}"#
        for text in [#"{"zones":[]}"#, #"{"zones":[\#(zone)]}"#, #"{"zones":[\#(zone),{"moreComing":true}]}"#] {
            let data = Data(text.utf8)
            let straight = ZoneChangesResponse.straight(from: data)
            #expect(straight != nil, "\(text)")
            #expect(expectSameOutcome(ZoneChangesResponse.self, from: data, text) == straight.map { .value($0) })
        }
        for text in [
            #"{"zones":[\#(zone),\#(zoneError)]}"#, #"{"zones":[{"records":[\#(Self.serverError)]}]}"#,
            #"{"zones":[],"zones":[]}"#, #"{"zones":[\#(zone)],"extra":1}"#, #"{"zones":[{"continuationMarker":"m"}]}"#,
            #"{"zones":[\#(zone),]}"#, #"{"zones":null}"#, "{}",
        ] {
            let data = Data(text.utf8)
            #expect(ZoneChangesResponse.straight(from: data) == nil, "\(text)")
            expectSameOutcome(ZoneChangesResponse.self, from: data, text)
        }
    }

    @Test("Each body leaves what it does not read: a member of another body, or an error among records")
    func otherBodiesLeave() {
        let cases: [(String, (Data) -> Bool)] = [
            (#"{"records":[],"continuationMarker":"m"}"#, { RecordsLookupResponse.straight(from: $0) == nil }),
            (#"{"records":[],"syncToken":"s"}"#, { RecordsLookupResponse.straight(from: $0) == nil }),
            (#"{"records":[\#(Self.serverError)]}"#, { RecordsModifyResponse.straight(from: $0) == nil }),
            (#"{"records":[],"zoneID":{"zoneName":"Z","x":1}}"#, { RecordsChangesResponse.straight(from: $0) == nil }),
            (#"{"records":[],"moreComing":1}"#, { RecordsChangesResponse.straight(from: $0) == nil }),
        ]
        for (text, leaves) in cases {
            let data = Data(text.utf8)
            #expect(leaves(data), "\(text)")
        }
        expectSameOutcome(RecordsLookupResponse.self, from: Data(cases[0].0.utf8))
        expectSameOutcome(RecordsModifyResponse.self, from: Data(cases[2].0.utf8))
        expectSameOutcome(RecordsChangesResponse.self, from: Data(cases[3].0.utf8))
        expectSameOutcome(RecordsChangesResponse.self, from: Data(cases[4].0.utf8))
    }

    @Test("Random pages, as RecordJSONEncoder writes them, read straight or not, to the general way's page")
    func randomPages() {
        var random = RandomSource(seed: 0x5EED_1043)
        var straight = 0
        for iteration in 0..<400 {
            let count = Int(random.next() % 4)
            let records = (0..<count).map { _ in RecordResult.success(Record.random(using: &random)) }
            let marker = random.next() % 2 == 0 ? "m\(iteration)" : nil
            let body = RecordsQueryResponse(records: records, continuationMarker: marker)
            guard let data = try? RecordJSONEncoder().encode(body) else { continue }
            let general = Self.generalOutcome(RecordsQueryResponse.self, data)
            if let read = RecordsQueryResponse.straight(from: data) {
                straight += 1
                #expect(general == .value(read), "iteration \(iteration)")
            } else if readsFast(data) {
                // What the tape does not take, JSONDecoder reads, as `queryPageLeaves` shows.
                #expect(
                    DecodeOutcome { try RecordJSONDecoder().decode(RecordsQueryResponse.self, from: data) } == general)
            }
        }
        // Many random records hold a field of a type the reader leaves; many pages do not.
        #expect(straight > 50)
    }

    @Test(
        "Random pages of records much alike — the same names, or a few more, fewer or others — read to the general way's page"
    )
    func randomPagesOfAlikeRecords() {
        var random = RandomSource(seed: 0x5EED_1044)
        var shared = 0
        for iteration in 0..<300 {
            let base = Record.random(using: &random)
            let records = (0..<random.int(in: 2...6)).map { _ in
                var record = base
                for _ in 0..<random.int(in: 0...2) { record.mutate(using: &random) }
                return RecordResult.success(record)
            }
            guard let data = try? RecordJSONEncoder().encode(RecordsQueryResponse(records: records)),
                let read = RecordsQueryResponse.straight(from: data)
            else { continue }
            #expect(Self.generalOutcome(RecordsQueryResponse.self, data) == .value(read), "iteration \(iteration)")
            // Each record is the record read alone (dates kept to the millisecond either way).
            let alone = records.map { result in
                result.record.flatMap { try? RecordJSONEncoder().encode($0) }.flatMap {
                    try? RecordJSONDecoder().decode(Record.self, from: $0)
                }
            }
            #expect(read.records.map(\.record) == alone, "iteration \(iteration)")
            shared += read.records.filter { $0.record?.sharesNames == true }.count
        }
        // Most records that follow one named alike share its names.
        #expect(shared > 100)
    }
}
