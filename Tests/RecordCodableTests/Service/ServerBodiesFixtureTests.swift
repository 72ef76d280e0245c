import Foundation
import Testing

@testable import RecordCodable

/// The Web Services bodies recorded from the real server, or printed by Apple and other projects,
/// vendored in `Tests/Fixtures/cloudkit-wire/` (see ``RecordedBodies``): each reads with its package
/// type, loses nothing a client needs, and reads back equal from the JSON it writes.
@Suite("Server bodies: recorded fixtures")
struct ServerBodiesFixtureTests {
    /// Reads every fixture of `kind` as a `T`, checks that its JSON keeps every key and value of
    /// the fixture, and that it reads back equal; returns the values read.
    @discardableResult
    static func check<T: Codable & Equatable>(
        _ kind: String, as type: T.Type, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [T] {
        let files = try RecordedBodies.files(of: kind)
        #expect(!files.isEmpty, "no fixture of kind \(kind)", sourceLocation: sourceLocation)
        return try files.map { file in
            let data = try Data(contentsOf: file)
            let value = try JSONDecoder().decode(T.self, from: data)
            let written = try JSONEncoder().encode(value)
            #expect(
                try JSONDecoder().decode(T.self, from: written) == value, "\(file.lastPathComponent)",
                sourceLocation: sourceLocation)
            let lost = JSONSubset.missing(
                from: try JSONSerialization.jsonObject(with: data),
                in: try JSONSerialization.jsonObject(with: written))
            #expect(lost.isEmpty, "\(file.lastPathComponent) loses \(lost)", sourceLocation: sourceLocation)
            return value
        }
    }

    @Test("zones/list answers")
    func zonesListResponses() throws {
        let lists = try Self.check("zonesListResponse", as: ZonesListResponse.self)
        for list in lists {
            #expect(list.syncToken != nil)
            #expect(list.moreComing == false)
            #expect(list.zones.allSatisfy { $0.zoneType == "REGULAR_CUSTOM_ZONE" })
        }
    }

    @Test("assets/upload answers")
    func assetTokensResponses() throws {
        let responses = try Self.check("assetTokensResponse", as: AssetsUploadResponse.self)
        #expect(responses.flatMap(\.tokens).allSatisfy { !$0.url.isEmpty && !$0.fieldName.isEmpty })
        // One of them names no record, as the server does for a request that named none.
        #expect(responses.flatMap(\.tokens).contains { $0.recordName == nil })
    }

    @Test("Answers to an asset's upload")
    func assetUploadResults() throws {
        for result in try Self.check("assetUploadResult", as: AssetUploadResult.self) {
            let asset = result.asset
            #expect(asset.fileChecksum != nil && asset.receipt != nil && asset.size != nil)
            #expect(asset.wrappingKey != nil && asset.referenceChecksum != nil)
        }
    }

    @Test("Error bodies")
    func errorBodies() throws {
        for error in try Self.check("errorBody", as: RecordServerError.self) {
            #expect(error.uuid != nil && error.reason != nil)
            #expect(error.recoverySuggestion != nil)
        }
    }

    @Test("records/query requests")
    func queryRequests() throws {
        let requests = try Self.check("queryRequest", as: RecordsQueryRequest.self)
        #expect(requests.contains { !$0.query.filterBy.isEmpty && $0.resultsLimit != nil && $0.desiredKeys != nil })
    }

    @Test("iCloud's batched queries: each element a records/query request")
    func batchQueryRequests() throws {
        struct Batch: Codable, Equatable {
            var batch: [RecordsQueryRequest]
        }
        for file in try RecordedBodies.files(of: "batchQueryRequest") {
            let batch = try JSONDecoder().decode(Batch.self, from: Data(contentsOf: file))
            #expect(!batch.batch.isEmpty)
            #expect(try JSONDecoder().decode(Batch.self, from: JSONEncoder().encode(batch)) == batch)
        }
    }

    @Test("records/lookup requests")
    func lookupRequests() throws {
        let requests = try Self.check("lookupRequest", as: RecordsLookupRequest.self)
        #expect(requests.allSatisfy { !$0.recordNames.isEmpty })
    }

    @Test("records/changes answers: every record read, deletions kept")
    func changesResponses() throws {
        let responses = try Self.check("changesResponse", as: RecordsChangesResponse.self)
        let entries = responses.flatMap(\.records)
        #expect(entries.allSatisfy { $0.record != nil })
        #expect(entries.contains { $0.record?.metadata?.deleted == true })
        #expect(responses.allSatisfy { $0.syncToken != nil && !$0.moreComing })
    }

    @Test("The check for lost keys notices a key, a value or an element left out")
    func lossCheck() throws {
        func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }
        let original = try json(#"{"a":1,"b":{"c":"x","d":[true,null]},"deleted":false}"#)
        #expect(
            JSONSubset.missing(from: original, in: try json(#"{"a":1,"b":{"c":"x","d":[true,null]},"e":2}"#)).isEmpty)
        #expect(JSONSubset.missing(from: original, in: try json(#"{"a":1,"b":{"d":[true,null]}}"#)) == [".b.c"])
        #expect(JSONSubset.missing(from: original, in: try json(#"{"a":2,"b":{"c":"x","d":[true,null]}}"#)) == [".a"])
        #expect(JSONSubset.missing(from: original, in: try json(#"{"a":1,"b":{"c":"x","d":[true]}}"#)) == [".b.d"])
        #expect(JSONSubset.missing(from: try json(#"{"deleted":true}"#), in: try json("{}")) == [".deleted"])
    }
}

/// Whether one JSON document keeps everything another holds.
enum JSONSubset {
    /// The paths of the values of `original` that `written` does not hold equal. A `deleted` key
    /// that is `false` may be left out, as a record writes only a deletion.
    static func missing(from original: Any, in written: Any, at path: String = "") -> [String] {
        switch (original, written) {
        case (let original as [String: Any], let written as [String: Any]):
            return original.flatMap { key, value -> [String] in
                guard let counterpart = written[key] else {
                    if key == "deleted", (value as? NSNumber) == false { return [] }
                    return [path + "." + key]
                }
                return missing(from: value, in: counterpart, at: path + "." + key)
            }
        case (let original as [Any], let written as [Any]):
            guard original.count == written.count else { return [path] }
            return zip(original, written).enumerated().flatMap { index, pair in
                missing(from: pair.0, in: pair.1, at: path + "[\(index)]")
            }
        case (let original as String, let written as String):
            return original == written ? [] : [path]
        case (let original as NSNumber, let written as NSNumber):
            return original == written ? [] : [path]
        case (is NSNull, is NSNull):
            return []
        default:
            return [path]
        }
    }
}
