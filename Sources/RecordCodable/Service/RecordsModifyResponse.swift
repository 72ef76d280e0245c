import Foundation

/// The body of the server's answer to a `records/modify` request: one result per operation, in
/// the order of the operations. A body without `records`, such as `{}`, has none.
public struct RecordsModifyResponse: Hashable, Sendable, Codable, WireCodable {
    /// The result of each operation: the record as the server saved it, or why it failed.
    public var records: [RecordResult]

    /// The zone's new sync token, when the server sends one.
    public var syncToken: String?

    /// Creates a response.
    public init(records: [RecordResult], syncToken: String? = nil) {
        self.records = records
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
        syncToken = try reader.optionalMember("syncToken")?.string()
    }

    func wireJSON(at path: [any CodingKey]) throws -> WireJSON {
        var object: [String: WireJSON] = ["records": try RecordResult.pageJSON(records, at: path)]
        object.set("syncToken", syncToken.map(WireJSON.string))
        return .object(object)
    }
}

extension RecordsModifyResponse: RecordPageBody {
    static let pageKeys: Set<RecordPageBytesReader.PageKey> = [.syncToken]

    init(page: RecordPageBytesReader.Page) {
        self.init(records: page.records, syncToken: page.syncToken)
    }
}
