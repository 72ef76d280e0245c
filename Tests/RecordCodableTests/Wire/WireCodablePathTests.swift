import Foundation
import Testing

@testable import RecordCodable

/// The `Codable` path of the wire types takes one of two routes through Foundation's coders: keyed
/// containers, each value read as the kind its place in CloudKit's format expects, when the coder
/// hands string-keyed dictionaries to `Dictionary`'s own conformance (the default key strategies);
/// and the generic route of string-keyed dictionaries of ``WireJSON`` otherwise. These tests hold
/// the two routes to the same JSON, the same values and the same errors, on real server bodies,
/// on mutated and crafted JSON, and under hostile key strategies.
///
/// The generic route is reached in two ways: by coding the ``WireJSON`` tree itself, and through
/// coders whose key strategy changes no key (``identityDecoder()``), which Foundation treats as
/// any strategy but the default.
@Suite("Wire: the Codable path's two routes")
struct WireCodablePathTests {
    // MARK: Reading

    @Test("Every fixture body reads to the same JSON both ways, and writes the same bytes both ways")
    func fixtureBodies() throws {
        let files = try RecordedBodies.allFiles()
        #expect(files.count > 50)
        for file in files {
            let json = try Data(contentsOf: file)
            let read = expectSameReading(json, "\(file.lastPathComponent)")
            guard let members = read else { continue }
            for formatting in Self.formattings {
                expectSameWriting(members, formatting, "\(file.lastPathComponent)")
            }
        }
    }

    @Test("Mutated record JSON reads to the same JSON both ways, or fails with the same error")
    func mutatedJSON() throws {
        var random = RandomSource(seed: PropertyTests.seed &+ 16)
        var encoder = RecordEncoder()
        encoder.maximumRecordSize = .max
        // Values that a field's type guesses wrong, or that fail to read where they are.
        let snippets = [
            #"{"type":"INT64","value":"12"}"#, #"{"type":"DOUBLE","value":-0}"#, #"{"type":"DOUBLE","value":1e400}"#,
            #"{"type":"INT64_LIST","value":[0,1.5,"2"]}"#, #"{"type":"STRING","value":null}"#,
            "[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]",
            #"{"type":"REFERENCE_LIST","value":[{"recordName":"r"},"s"]}"#, #"{"value":[1,2.5]}"#, "-0", "1e400",
        ]
        // Sorted keys: the JSON that the seed's mutations cut into is the same in every run, whatever
        // order this process's hashing gives the record's fields.
        let sortedKeys = JSONEncoder()
        sortedKeys.outputFormatting = .sortedKeys
        var outcomes = (read: 0, failed: 0)
        for iteration in 0..<1_500 {
            let record = try encoder.encode(Everything.random(using: &random, forWire: true))
            var json = Array(try sortedKeys.encode(record))
            // With two faults in one object, each route may meet either first, as each reading of
            // a dictionary may: the errors are compared when there is one.
            let mutations = random.int(in: 1...3)
            for _ in 0..<mutations where !json.isEmpty {
                let index = random.int(in: 0...(json.count - 1))
                let snippet = Array(snippets[random.int(in: 0...(snippets.count - 1))].utf8)
                switch random.int(in: 0...3) {
                case 0: json[index] = random.byte()
                case 1: json.remove(at: index)
                case 2: json.insert(contentsOf: snippet, at: index)
                default:
                    // A field of its own, so that the JSON stays valid.
                    let fields = Array(#""fields":{"#.utf8)
                    if let start = json.firstRange(of: fields)?.upperBound {
                        json.insert(
                            contentsOf: Array(#""inserted\#(iteration)":"#.utf8) + snippet + [UInt8(ascii: ",")],
                            at: start)
                    }
                }
            }
            let comment: Comment = "seed \(PropertyTests.seed &+ 16), iteration \(iteration)"
            if expectSameReading(Data(json), comment, comparingErrors: mutations == 1) != nil {
                outcomes.read += 1
            } else {
                outcomes.failed += 1
            }
        }
        // Both ways out are taken.
        #expect(outcomes.read > 100)
        #expect(outcomes.failed > 100)
    }

    /// Fields whose values are not what their type says, or hold what cannot be read, each inside
    /// a record: the record reads to the same value, or fails with the same error, both ways.
    static let craftedFields = [
        // Numbers sent as strings, as with `numbersAsStrings`.
        #"{"type":"INT64","value":"12"}"#, #"{"type":"DOUBLE","value":"2.5"}"#, #"{"type":"TIMESTAMP","value":"1700"}"#,
        // A value that is absent, null, or of another kind than its type says.
        #"{"type":"STRING"}"#, #"{"type":"STRING","value":null}"#, #"{"type":"STRING","value":3}"#,
        #"{"type":"INT64","value":{"a":1}}"#, #"{"type":"BYTES","value":["AA=="]}"#,
        #"{"type":"REFERENCE","value":"R"}"#, #"{"type":"LOCATION","value":[1,2]}"#,
        #"{"type":"INT64","value":true}"#, #"{"value":"no type"}"#, #"{"type":7,"value":"x"}"#,
        #"{"type":null,"value":1}"#, #"{"type":"FUTURE","value":{"a":[1]}}"#, "{}", "3", "null", #""text""#,
        // Numbers at the edges of what an Int64 and a Double hold, and minus zero.
        #"{"type":"DOUBLE","value":5}"#, #"{"type":"DOUBLE","value":5.0}"#, #"{"type":"DOUBLE","value":-0}"#,
        #"{"type":"DOUBLE","value":-0.0}"#, #"{"type":"DOUBLE","value":9007199254740993}"#,
        #"{"type":"DOUBLE","value":1e308}"#, #"{"type":"DOUBLE","value":1e400}"#, #"{"type":"DOUBLE","value":1e-400}"#,
        #"{"type":"DOUBLE","value":1.0000000000000001}"#, #"{"type":"INT64","value":1.5}"#,
        #"{"type":"INT64","value":1e3}"#, #"{"type":"INT64","value":-0}"#, #"{"type":"INT64","value":34.0}"#,
        #"{"type":"INT64","value":9223372036854775808}"#, #"{"type":"TIMESTAMP","value":-1}"#,
        // Lists of every kind, empty, mixed, and with minus zero or digits a double rounds.
        #"{"type":"INT64_LIST","value":[0,-0,1]}"#, #"{"type":"INT64_LIST","value":[1.5]}"#,
        #"{"type":"INT64_LIST","value":["1"]}"#, #"{"type":"INT64_LIST","value":[]}"#,
        #"{"type":"INT64_LIST","value":[null]}"#, #"{"type":"DOUBLE_LIST","value":[1,2.5]}"#,
        #"{"type":"DOUBLE_LIST","value":[9007199254740993,0.5]}"#, #"{"type":"DOUBLE_LIST","value":[1e400]}"#,
        #"{"type":"DOUBLE_LIST","value":[-0.0,1]}"#, #"{"type":"DOUBLE_LIST","value":[1e300,2]}"#,
        #"{"type":"DOUBLE_LIST","value":[2,3]}"#, #"{"type":"STRING_LIST","value":[]}"#,
        #"{"type":"STRING_LIST","value":["a",1]}"#, #"{"type":"STRING_LIST","value":[[]]}"#,
        #"{"type":"TIMESTAMP_LIST","value":[1,2]}"#, #"{"type":"ENCRYPTED_STRING_LIST","value":["a"]}"#,
        #"{"type":"REFERENCE_LIST","value":[{"recordName":"a"},"b"]}"#,
        #"{"type":"REFERENCE_LIST","value":[{"recordName":"a","zoneID":{"zoneName":1e400}}]}"#,
        #"{"type":"REFERENCE_LIST","value":[]}"#, #"{"type":"LOCATION_LIST","value":[{"latitude":1,"longitude":-0}]}"#,
        #"{"type":"ASSETID_LIST","value":[{"fileChecksum":"c","size":"10"}]}"#,
        // Objects with members of other kinds than expected.
        #"{"type":"REFERENCE","value":{"recordName":1,"action":"NONE"}}"#,
        #"{"type":"LOCATION","value":{"latitude":"1","longitude":2,"timestamp":1.5}}"#,
        #"{"type":"ASSET","value":{"fileChecksum":"c","size":-1}}"#,
        #"{"type":"REFERENCE","value":{"recordName":"r","zoneID":"z"}}"#,
        // Encryption in both spellings, and flags that are not booleans.
        #"{"type":"ENCRYPTED_BYTES","value":"AAEC"}"#, #"{"type":"STRING","value":"x","isEncrypted":true}"#,
        #"{"type":"STRING","value":"x","isEncrypted":"yes"}"#, #"{"type":"STRING","value":"x","isEncrypted":null}"#,
        #"{"type":"STRING","value":"x","is_encrypted":true}"#,
        // Members CloudKit never sends beside a field's own, and keys given twice.
        #"{"type":"STRING","value":"x","extra":1e400}"#, #"{"type":"STRING","value":"x","extra":[{"a":1}]}"#,
        #"{"type":"STRING","type":"INT64","value":1}"#, #"{"type":"INT64","value":1,"value":"x"}"#,
    ]

    @Test("Crafted fields read to the same record both ways, or fail with the same error", arguments: craftedFields)
    func craftedField(_ field: String) throws {
        let json = #"{"recordName":"n","recordType":"T","fields":{"f":\#(field),"g":{"type":"STRING","value":"g"}}}"#
        expectSameReading(Data(json.utf8), "\(field)")
        expectSameRecord(Data(json.utf8), "\(field)")
    }

    @Test("Crafted record members read to the same record both ways, or fail with the same error")
    func craftedMembers() throws {
        let members = [
            #""fields":null"#, #""fields":"x""#, #""fields":[]"#, #""created":"yesterday""#,
            #""created":{"timestamp":"1700"}"#, #""modified":{"timestamp":1e400}"#, #""zoneID":[]"#,
            #""deleted":1"#, #""deleted":null"#, #""parent":{"recordName":"p","action":7}"#, #""recordChangeTag":5"#,
            #""pluginFields":{}"#, #""expirationTime":1700000000000"#, #""share":{"recordName":"s","zoneID":{}}"#,
            #""extra":[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]"#, #""extra":[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]"#,
        ]
        for member in members {
            let json = #"{"recordName":"n","recordType":"T",\#(member)}"#
            expectSameReading(Data(json.utf8), "\(member)")
            expectSameRecord(Data(json.utf8), "\(member)")
        }
    }

    /// A page with a record of every sort: one that reads, one of a type from the future, an error,
    /// entries that are no records, and numbers sent as strings.
    static let page = #"""
        {"records":[
          {"recordName":"a","recordType":"T","fields":{"n":{"type":"INT64","value":1}}},
          {"recordName":"b","recordType":"T","fields":{"n":{"type":"FUTURE","value":[1,{"x":-0}]}}},
          {"recordName":"c","serverErrorCode":"NOT_FOUND","reason":"gone"},
          "not a record", 3,
          {"recordName":"d","fields":{"d":{"type":"DOUBLE","value":"1.5"}},"zoneID":{"zoneName":"Z","zoneType":"REGULAR_CUSTOM_ZONE"}}
        ],"syncToken":"t","moreComing":false}
        """#

    @Test("Pages and requests read to the same bodies both ways, record by record")
    func bodies() throws {
        let page = Self.page
        expectSameReading(Data(page.utf8), "page")
        let identity = Self.identityDecoder()
        for type in [RecordsQueryResponse.self, RecordsLookupResponse.self] as [any Decodable.Type] {
            let keyed = try JSONDecoder().decode(type, from: Data(page.utf8))
            let generic = try identity.decode(type, from: Data(page.utf8))
            #expect(String(describing: keyed) == String(describing: generic))
        }
        let request = try JSONEncoder().encode(
            RecordsModifyRequest(savingRecords: [WireFormatTests.note], atomic: true))
        expectSameReading(request, "request")
        #expect(
            try JSONDecoder().decode(RecordsModifyRequest.self, from: request)
                == identity.decode(RecordsModifyRequest.self, from: request))
    }

    @Test("JSON nested deeper than CloudKit's is refused at the same place both ways")
    func nesting() throws {
        var deep = "1"
        for _ in 0..<20 { deep = "[\(deep)]" }
        let places = [
            #"{"recordName":"n","fields":{"f":{"type":"STRING","value":"x","extra":\#(deep)}}}"#,
            #"{"recordName":"n","fields":{"f":{"type":"FUTURE","value":\#(deep)}}}"#,
            #"{"recordName":"n","fields":{"f":{"type":"INT64_LIST","value":\#(deep)}}}"#,
            #"{"recordName":"n","fields":{"f":{"type":"REFERENCE","value":{"recordName":"r","zoneID":\#(deep)}}}}"#,
            #"{"records":[{"recordName":"n","fields":{"f":{"type":"STRING","value":\#(deep)}}}]}"#,
        ]
        for json in places {
            expectSameReading(Data(json.utf8), "\(json.prefix(60))")
            expectSameRecord(Data(json.utf8), "\(json.prefix(60))")
        }
        // The place and the message, as before there were two routes.
        let error = expectDecodingError(
            "dataCorrupted", at: "fields.f.extra" + String(repeating: ".Index 0", count: 14)
        ) {
            _ = try JSONDecoder().decode(Record.self, from: Data(places[0].utf8))
        }
        #expect(
            error?.context?.debugDescription
                == "The JSON nests more than 16 levels deep, deeper than CloudKit's records and bodies do.")
    }

    // MARK: Writing

    @Test("Random records write the same bytes both ways, in every output format")
    func randomRecords() throws {
        var random = RandomSource(seed: PropertyTests.seed &+ 17)
        var encoder = RecordEncoder()
        encoder.maximumRecordSize = .max
        for iteration in 0..<500 {
            var record = try encoder.encode(Everything.random(using: &random, forWire: true))
            if random.bool() { record.encryptedFields = Set(record.fields.keys.sorted().prefix(3)) }
            if random.bool() { record.metadata = WireFormatTests.note.metadata }
            for formatting in Self.formattings {
                let keyed = Self.encoder(formatting)
                let generic = Self.identityEncoder(formatting)
                let comment: Comment = "seed \(PropertyTests.seed &+ 17), iteration \(iteration), \(formatting)"
                switch (Result { try keyed.encode(record) }, Result { try generic.encode(record) }) {
                case (.success(let first), .success(let second)):
                    #expect(first == second, comment)
                case (.failure(let first), .failure(let second)):
                    #expect("\(first)" == "\(second)", comment)
                default:
                    Issue.record("only one route wrote the record: \(comment)")
                }
            }
        }
    }

    @Test("Every body writes the same bytes both ways")
    func bodiesWrite() throws {
        let record = WireFormatTests.note
        let throttled = RecordServerError(serverErrorCode: .init(rawValue: "THROTTLED"), retryAfter: 1.5)
        let bodies: [any Encodable] = [
            record, RecordsModifyRequest(savingRecords: [record], atomic: true),
            RecordsQueryResponse(records: [.success(record)], continuationMarker: "m"),
            RecordsModifyResponse(records: [.success(record), .failure(throttled)]),
            // Unreadable records are written back as they came.
            try JSONDecoder().decode(RecordsQueryResponse.self, from: Data(Self.page.utf8)),
        ]
        for body in bodies {
            for formatting in Self.formattings {
                #expect(
                    try Self.encoder(formatting).encode(body) == Self.identityEncoder(formatting).encode(body),
                    "\(type(of: body)), \(formatting)")
            }
        }
    }

    // MARK: Key strategies

    /// Key strategies that change keys: a coder with one of them takes the generic route, whose
    /// JSON has no keyed container for the strategy to change.
    static let hostileKeyStrategies: [(name: String, convert: @Sendable ([any CodingKey]) -> any CodingKey)] = [
        ("every key renamed", { _ in AnyCodingKey(stringValue: "renamed") }),
        ("type and value swapped", { path in AnyCodingKey(stringValue: swapped(path.last?.stringValue ?? "")) }),
        (
            "upper case inside fields only",
            { path in
                let key = path.last?.stringValue ?? ""
                return AnyCodingKey(stringValue: path.count > 2 ? key.uppercased() : key)
            }
        ),
        ("snake case by hand", { path in AnyCodingKey(stringValue: snakeCased(path.last?.stringValue ?? "")) }),
    ]

    private static func swapped(_ key: String) -> String {
        switch key {
        case "type": "value"
        case "value": "type"
        case "recordName": "recordType"
        case "recordType": "recordName"
        default: key
        }
    }

    private static func snakeCased(_ key: String) -> String {
        key.reduce(into: "") { result, character in
            if character.isUppercase { result += "_" + character.lowercased() } else { result.append(character) }
        }
    }

    @Test("Key strategies change nothing: snake case and hostile custom ones, on both coders")
    func keyStrategies() throws {
        var record = WireFormatTests.note
        record["snake_case_name"] = .string("kept")
        record["camelCaseName"] = .list([.reference(RecordReference(recordName: "R", action: .validate))])
        record.encryptedFields = ["title", "snake_case_name"]
        record.parent = RecordReference(recordName: "P")
        let request = RecordsModifyRequest(savingRecords: [record], atomic: false)
        let expected = try Self.encoder([.sortedKeys]).encode(record)
        let expectedRequest = try Self.encoder([.sortedKeys]).encode(request)

        var encoders: [(String, JSONEncoder)] = [("snake case", Self.encoder([.sortedKeys]))]
        encoders[0].1.keyEncodingStrategy = .convertToSnakeCase
        var decoders: [(String, JSONDecoder)] = [("snake case", JSONDecoder())]
        decoders[0].1.keyDecodingStrategy = .convertFromSnakeCase
        for (name, convert) in Self.hostileKeyStrategies {
            let encoder = Self.encoder([.sortedKeys])
            encoder.keyEncodingStrategy = .custom(convert)
            encoders.append((name, encoder))
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .custom(convert)
            decoders.append((name, decoder))
        }
        for (name, encoder) in encoders {
            #expect(try encoder.encode(record) == expected, "\(name)")
            #expect(try encoder.encode(request) == expectedRequest, "\(name)")
        }
        let readRequest = try JSONDecoder().decode(RecordsModifyRequest.self, from: expectedRequest)
        for (name, decoder) in decoders {
            #expect(try decoder.decode(Record.self, from: expected) == record, "\(name)")
            #expect(try decoder.decode(RecordsModifyRequest.self, from: expectedRequest) == readRequest, "\(name)")
            // A key that a strategy would turn into a field's own is not one.
            let snake = #"{"recordName":"n","fields":{"f":{"type":"STRING","value":"x","is_encrypted":true}}}"#
            #expect(try decoder.decode(Record.self, from: Data(snake.utf8)).encryptedFields.isEmpty, "\(name)")
        }
    }

    @Test("Keyed containers are used only where a coder hands dictionaries to Dictionary's conformance")
    func routeChoice() throws {
        let members = ["a": DictionaryMemberProbe()]
        #expect(try Self.probe(members, JSONEncoder(), JSONDecoder()) == (true, true))
        let snakeEncoder = JSONEncoder()
        snakeEncoder.keyEncodingStrategy = .convertToSnakeCase
        let snakeDecoder = JSONDecoder()
        snakeDecoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try Self.probe(members, snakeEncoder, snakeDecoder) == (false, false))
        #expect(try Self.probe(members, Self.identityEncoder([]), Self.identityDecoder()) == (false, false))
        // A member of a model's own keyed container, and the top of a document, are no dictionary's.
        let boxed = try JSONEncoder().encode(Box(value: DictionaryMemberProbe()))
        #expect(
            try JSONDecoder().decode(Box<DictionaryMemberProbe>.self, from: boxed).value.isDictionaryMember == false)
        #expect(
            try JSONDecoder().decode(DictionaryMemberProbe.self, from: Data("true".utf8)).isDictionaryMember == false)
    }

    @Test("A property list decoder reads records through the keyed route, to the same JSON as the generic one")
    func propertyLists() throws {
        // The encoder writes string-keyed dictionaries itself, keys as they are: the generic route.
        let probe = try PropertyListEncoder().encode(["a": DictionaryMemberProbe()])
        #expect(try PropertyListDecoder().decode([String: Bool].self, from: probe) == ["a": false])
        let read = try PropertyListDecoder().decode(
            [String: DictionaryMemberProbe].self, from: PropertyListEncoder().encode(["a": true]))
        #expect(read["a"]?.isDictionaryMember == true)

        let record = WireFormatTests.note
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let encoder = PropertyListEncoder()
            encoder.outputFormat = format
            let bytes = try encoder.encode(record)
            #expect(try PropertyListDecoder().decode(Record.self, from: bytes) == record, "\(format)")
            let members = try PropertyListDecoder().decode([String: WireDocumentMember].self, from: bytes)
            let generic = try PropertyListDecoder().decode([String: WireJSON].self, from: bytes)
            #expect(WireJSON.object(members.mapValues(\.json)).isIdentical(to: .object(generic)), "\(format)")
        }
    }

    // MARK: Helpers

    static let formattings: [JSONEncoder.OutputFormatting] = [
        [.sortedKeys], [.sortedKeys, .prettyPrinted], [.sortedKeys, .withoutEscapingSlashes],
    ]

    static func encoder(_ formatting: JSONEncoder.OutputFormatting) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        return encoder
    }

    /// A JSON encoder whose key strategy changes no key, but is not the default: the wire types
    /// take the generic route with it.
    static func identityEncoder(_ formatting: JSONEncoder.OutputFormatting) -> JSONEncoder {
        let encoder = Self.encoder(formatting)
        encoder.keyEncodingStrategy = .custom { path in path.last ?? AnyCodingKey(stringValue: "") }
        return encoder
    }

    /// A JSON decoder whose key strategy changes no key, but is not the default: the wire types
    /// take the generic route with it.
    static func identityDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in path.last ?? AnyCodingKey(stringValue: "") }
        return decoder
    }

    /// Whether a dictionary's member is written and read as a dictionary member by these coders.
    private static func probe(
        _ members: [String: DictionaryMemberProbe], _ encoder: JSONEncoder, _ decoder: JSONDecoder
    ) throws -> (written: Bool, read: Bool) {
        let written = try JSONDecoder().decode([String: Bool].self, from: encoder.encode(members))
        let read = try decoder.decode([String: DictionaryMemberProbe].self, from: Data(#"{"a":true}"#.utf8))
        return (written["a"] ?? false, read["a"]?.isDictionaryMember ?? false)
    }

    /// Reads `json` as a wire document both ways: through ``WireDocumentMember``, which takes the
    /// keyed route with Foundation's default decoder, and as string-keyed ``WireJSON``, the generic
    /// route. Expects the same JSON, or the same error, and returns the members read.
    @discardableResult
    private func expectSameReading(
        _ json: Data, _ comment: Comment, comparingErrors: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> [String: WireJSON]? {
        let keyed = Result { try JSONDecoder().decode([String: WireDocumentMember].self, from: json).mapValues(\.json) }
        let generic = Result { try JSONDecoder().decode([String: WireJSON].self, from: json) }
        return expectSame(keyed, generic, comment, comparingErrors: comparingErrors, sourceLocation: sourceLocation) {
            first, second in
            WireJSON.object(first).isIdentical(to: .object(second))
        }
    }

    /// Writes `members` both ways: as ``WireDocumentMember``s, which take the keyed route with
    /// Foundation's default encoder, and as the ``WireJSON`` object, the generic route.
    private func expectSameWriting(
        _ members: [String: WireJSON], _ formatting: JSONEncoder.OutputFormatting, _ comment: Comment,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let encoder = Self.encoder(formatting)
        let keyed = Result { try encoder.encode(members.mapValues(WireDocumentMember.init)) }
        let generic = Result { try encoder.encode(WireJSON.object(members)) }
        expectSame(keyed, generic, "\(comment), \(formatting)", sourceLocation: sourceLocation) { $0 == $1 }
    }

    /// Reads `json` as a `Record` through Foundation's default decoder, which takes the keyed
    /// route, and through ``identityDecoder()``: the same record, or the same error.
    private func expectSameRecord(_ json: Data, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) {
        let keyed = Result { try JSONDecoder().decode(Record.self, from: json) }
        let generic = Result { try Self.identityDecoder().decode(Record.self, from: json) }
        expectSame(keyed, generic, comment, sourceLocation: sourceLocation) { first, second in
            // Equal records may still differ in the sign of a zero.
            first == second
                && (try? Self.encoder([.sortedKeys]).encode(first))
                    == (try? Self.encoder([.sortedKeys]).encode(second))
        }
    }

    /// Expects both results to be equal values, or both errors that say the same.
    @discardableResult
    private func expectSame<Value>(
        _ keyed: Result<Value, any Error>, _ generic: Result<Value, any Error>, _ comment: Comment,
        comparingErrors: Bool = true, sourceLocation: SourceLocation, equal: (Value, Value) -> Bool
    ) -> Value? {
        switch (keyed, generic) {
        case (.success(let first), .success(let second)):
            #expect(equal(first, second), comment, sourceLocation: sourceLocation)
            return first
        case (.failure(let first), .failure(let second)):
            #expect(
                !comparingErrors || ErrorSummary(first) == ErrorSummary(second), comment, sourceLocation: sourceLocation
            )
        case (.success, .failure(let error)), (.failure(let error), .success):
            Issue.record("only one route failed: \(error); \(comment)", sourceLocation: sourceLocation)
        }
        return nil
    }
}

/// What an error says: its kind, the type it names, its coding path (each key's string and
/// integer), and its description. The key types in a coding path are the coders' own, so they
/// are left out.
private struct ErrorSummary: Equatable {
    var text: String

    init(_ error: any Error) {
        guard let error = error as? DecodingError, let context = error.context else {
            text = "\(type(of: error)): \(error)"
            return
        }
        var path = context.codingPath.map { "\($0.stringValue)#\($0.intValue.map(String.init) ?? "-")" }
        var subject = ""
        switch error {
        case .typeMismatch(let type, _), .valueNotFound(let type, _): subject = "\(type)"
        case .keyNotFound(let key, _): path.append("\(key.stringValue)#\(key.intValue.map(String.init) ?? "-")")
        default: break
        }
        text = "\(error.kind) \(subject) at \(path.joined(separator: ".")): \(context.debugDescription)"
    }
}

/// A value that says whether it was written or read as a member of a dictionary that the coder
/// handed to `Dictionary`'s own conformance.
private struct DictionaryMemberProbe: Codable, Equatable {
    var isDictionaryMember = false

    init() {}

    init(from decoder: any Decoder) throws {
        isDictionaryMember = DictionaryCoding.isDictionaryMember(decoder.codingPath)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(DictionaryCoding.isDictionaryMember(encoder.codingPath))
    }
}

extension WireJSON {
    /// Whether two values are the same to the bit: `==` takes minus zero for zero.
    func isIdentical(to other: WireJSON) -> Bool {
        switch (self, other) {
        case (.double(let first), .double(let second)):
            first.bitPattern == second.bitPattern
        case (.array(let first), .array(let second)):
            first.count == second.count && zip(first, second).allSatisfy { $0.isIdentical(to: $1) }
        case (.object(let first), .object(let second)):
            first.count == second.count
                && first.allSatisfy { key, value in second[key].map(value.isIdentical(to:)) ?? false }
        default:
            self == other
        }
    }
}
