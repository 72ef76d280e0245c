import Foundation
import Testing

@testable import RecordCodable

/// The bodies recorded from the real server and printed by Apple and other projects (see
/// ``RecordedBodies``) read to the same values through `RecordJSONDecoder` as through
/// `JSONDecoder`, and write back the same bytes through `RecordJSONEncoder` as through
/// `JSONEncoder` with sorted keys.
@Suite("RecordJSONEncoder and RecordJSONDecoder: recorded fixtures")
struct RecordJSONFixtureTests {
    /// Reads every fixture of `kind` as a `T` through both paths, and writes what it read back
    /// through both; returns how many read.
    @discardableResult
    static func check<T: Codable & Equatable & Sendable>(
        _ kind: String, as type: T.Type, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Int {
        let files = try RecordedBodies.files(of: kind)
        #expect(!files.isEmpty, "no fixture of kind \(kind)", sourceLocation: sourceLocation)
        var read = 0
        for file in files {
            let data = try Data(contentsOf: file)
            let outcome = expectSameOutcome(T.self, from: data, file.lastPathComponent, sourceLocation: sourceLocation)
            guard case .value(let value) = outcome else { continue }
            read += 1
            expectSameBytes(value, file.lastPathComponent, sourceLocation: sourceLocation)
            let written = try RecordJSONEncoder().encode(value)
            #expect(
                expectSameOutcome(T.self, from: written, sourceLocation: sourceLocation) == .value(value),
                "\(file.lastPathComponent) reads back", sourceLocation: sourceLocation)
        }
        return read
    }

    @Test("Every recorded body reads and writes the same through both paths")
    func everyKind() throws {
        struct Batch<Element: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
            var batch: [Element]
        }
        try Self.check("record", as: Record.self)
        try Self.check("operation", as: RecordOperation.self)
        try Self.check("modifyRequest", as: RecordsModifyRequest.self)
        try Self.check("modifyResponse", as: RecordsModifyResponse.self)
        try Self.check("queryRequest", as: RecordsQueryRequest.self)
        try Self.check("queryResponse", as: RecordsQueryResponse.self)
        try Self.check("lookupRequest", as: RecordsLookupRequest.self)
        try Self.check("lookupResponse", as: RecordsLookupResponse.self)
        try Self.check("changesResponse", as: RecordsChangesResponse.self)
        try Self.check("zonesListResponse", as: ZonesListResponse.self)
        try Self.check("assetTokensResponse", as: AssetsUploadResponse.self)
        try Self.check("assetUploadResult", as: AssetUploadResult.self)
        try Self.check("errorBody", as: RecordServerError.self)
        // Bodies of a type of the caller's own, which JSONDecoder reads on both paths.
        try Self.check("batchQueryRequest", as: Batch<RecordsQueryRequest>.self)
        try Self.check("batchQueryResponse", as: Batch<RecordsQueryResponse>.self)
    }

    @Test("The real server's pages are read by the fast reader itself, not handed to JSONDecoder")
    func realPagesReadFast() throws {
        for kind in ["queryResponse", "lookupResponse", "modifyResponse", "changesResponse", "zonesListResponse"] {
            for file in try RecordedBodies.files(of: kind) {
                let data = try Data(contentsOf: file)
                guard (try? JSONSerialization.jsonObject(with: data)) != nil else { continue }
                #expect(readsFast(data), "\(file.lastPathComponent)")
            }
        }
    }
}
