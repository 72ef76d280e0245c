#if canImport(CloudKit)
    import CloudKit
    import CoreLocation
#elseif CloudKitShim && os(Linux)
    import CloudKitAPIShim
#endif

#if canImport(CloudKit) || (CloudKitShim && os(Linux))
    import Foundation
    import RecordCodable
    import RecordCodableCloudKit
    import Testing

    /// A coding path as text: keys by their string values, joined by dots ("tags.Index 1").
    func pathText(_ path: [any CodingKey]) -> String {
        path.map(\.stringValue).joined(separator: ".")
    }

    /// Expects `body` to throw an `EncodingError` at `path` whose description holds `words`.
    func expectEncodingError(
        at path: String, mentioning words: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () throws -> Void
    ) {
        let error = #expect(throws: EncodingError.self, sourceLocation: sourceLocation) { try body() }
        guard case .invalidValue(_, let context) = error else { return }
        #expect(pathText(context.codingPath) == path, "\(context)", sourceLocation: sourceLocation)
        #expect(context.debugDescription.contains(words), "\(context.debugDescription)", sourceLocation: sourceLocation)
    }

    /// Expects `body` to throw a `DecodingError.dataCorrupted` at `path` whose description holds `words`.
    func expectDecodingError(
        at path: String, mentioning words: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () throws -> Void
    ) {
        let error = #expect(throws: DecodingError.self, sourceLocation: sourceLocation) { try body() }
        guard case .dataCorrupted(let context) = error else {
            if error != nil { Issue.record("expected dataCorrupted, got \(String(describing: error))") }
            return
        }
        #expect(pathText(context.codingPath) == path, "\(context)", sourceLocation: sourceLocation)
        #expect(context.debugDescription.contains(words), "\(context.debugDescription)", sourceLocation: sourceLocation)
    }

    /// Converts `record` to a `CKRecord` and back, and expects the same record.
    @discardableResult
    func expectRoundTrip(
        _ record: Record, systemFields: CloudKitSystemFields? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CKRecord {
        let ckRecord = try record.ckRecord(systemFields: systemFields)
        let back = try Record(ckRecord)
        #expect(back == record, sourceLocation: sourceLocation)
        return ckRecord
    }

    /// A record of one field.
    func record(_ field: String = "value", _ value: RecordValue) -> Record {
        Record(recordType: "Item", recordName: "I1", fields: [field: value])
    }

    /// A file that exists, for assets.
    func temporaryFile(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("RecordCodableCloudKitTests-\(name)")
        try Data("content of \(name)".utf8).write(to: url)
        return url
    }

    extension CKRecord {
        /// The changed keys, sorted, to compare.
        var sortedChangedKeys: [String] { changedKeys().sorted() }
    }
#endif

#if canImport(CloudKit) || (CloudKitShim && os(Linux))
    /// The record that system fields describe, to compare by identity: two archives of the same record need
    /// not be the same bytes.
    func archivedRecord(_ systemFields: CloudKitSystemFields?) -> CKRecord? {
        guard let data = systemFields?.data, let unarchiver = try? NSKeyedUnarchiver(forReadingFrom: data) else {
            return nil
        }
        unarchiver.requiresSecureCoding = true
        defer { unarchiver.finishDecoding() }
        return CKRecord(coder: unarchiver)
    }

    /// Expects `systemFields` to be those of `ckRecord`: its type, name and zone.
    func expectSystemFields(
        _ systemFields: CloudKitSystemFields?, of ckRecord: CKRecord, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let archived = archivedRecord(systemFields)
        #expect(archived?.recordType == ckRecord.recordType, sourceLocation: sourceLocation)
        #expect(archived?.recordID.recordName == ckRecord.recordID.recordName, sourceLocation: sourceLocation)
        #expect(archived?.recordID.zoneID.zoneName == ckRecord.recordID.zoneID.zoneName, sourceLocation: sourceLocation)
        #expect(
            archived?.recordID.zoneID.ownerName == ckRecord.recordID.zoneID.ownerName, sourceLocation: sourceLocation)
    }
#endif
