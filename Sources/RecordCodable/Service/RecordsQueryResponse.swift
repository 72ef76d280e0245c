import Foundation

/// The body of the server's answer to a `records/query` request: a page of matching records.
public struct RecordsQueryResponse: Hashable, Sendable, Codable, WireCodable {
    /// The records of this page.
    public var records: [RecordResult]

    /// The marker to send with the same query for the next page, or `nil` on the last page.
    public var continuationMarker: String?

    /// The zone's sync token, which the server sends with some pages.
    public var syncToken: String?

    /// Creates a response.
    public init(records: [RecordResult], continuationMarker: String? = nil, syncToken: String? = nil) {
        self.records = records
        self.continuationMarker = continuationMarker
        self.syncToken = syncToken
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
        continuationMarker = try reader.optionalMember("continuationMarker")?.string()
        syncToken = try reader.optionalMember("syncToken")?.string()
    }

    func wireJSON(at path: [any CodingKey]) throws -> WireJSON {
        var object: [String: WireJSON] = ["records": try RecordResult.pageJSON(records, at: path)]
        object.set("continuationMarker", continuationMarker.map(WireJSON.string))
        object.set("syncToken", syncToken.map(WireJSON.string))
        return .object(object)
    }
}

extension RecordsQueryResponse: RecordPageBody {
    static let pageKeys: Set<RecordPageBytesReader.PageKey> = [.continuationMarker, .syncToken]

    init(page: RecordPageBytesReader.Page) {
        self.init(records: page.records, continuationMarker: page.continuationMarker, syncToken: page.syncToken)
    }
}
