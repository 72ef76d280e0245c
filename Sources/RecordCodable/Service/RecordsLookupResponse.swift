import Foundation

/// The body of the server's answer to a `records/lookup` request: one result per record asked
/// for, in the order asked.
public struct RecordsLookupResponse: Hashable, Sendable, Codable, WireCodable {
    /// The result for each record: the record, or why it could not be fetched.
    public var records: [RecordResult]

    /// Creates a response.
    public init(records: [RecordResult]) {
        self.records = records
    }

    /// Writes the response body as CloudKit Web Services sends it.
    public func encode(to encoder: any Encoder) throws {
        try WireCoding.encode(self, to: encoder)
    }

    /// Reads a response body; a record that cannot be read is an ``RecordResult/unreadable(_:)``
    /// entry.
    public init(from decoder: any Decoder) throws {
        self = try WireCoding.decode(Self.self, from: decoder)
    }

    init(wire reader: WireReader) throws {
        records = try RecordResult.page(from: reader)
    }

    func wireJSON(at path: [any CodingKey]) throws -> WireJSON {
        .object(["records": try RecordResult.pageJSON(records, at: path)])
    }
}

extension RecordsLookupResponse: RecordPageBody {
    static let pageKeys: Set<RecordPageBytesReader.PageKey> = []

    init(page: RecordPageBytesReader.Page) {
        self.init(records: page.records)
    }
}
