import Foundation

/// The body of the server's answer to a `records/changes` request: the records of a zone that
/// changed since the request's sync token.
///
/// A deleted record comes with ``RecordMetadata/deleted`` set and usually no fields. The page is
/// read record by record, as every page is: a record that cannot be read is an
/// ``RecordResult/unreadable(_:)`` entry, and the others are read all the same.
///
/// ```swift
/// let changes = try JSONDecoder().decode(RecordsChangesResponse.self, from: body)
/// for record in changes.records.compactMap(\.record) {
///     if record.metadata?.deleted == true { store.remove(record.recordName) } else { store.save(record) }
/// }
/// token = changes.syncToken ?? token
/// ```
public struct RecordsChangesResponse: Hashable, Sendable, Codable, WireCodable {
    /// The records that changed, in the server's order. A record without a zone of its own, read
    /// or given to ``init(records:syncToken:moreComing:zoneID:)``, has the page's ``zoneID`` in its
    /// metadata, so that it is saved back where it is.
    public var records: [RecordResult]

    /// The token to send with the next request for this zone's changes.
    public var syncToken: String?

    /// Whether the server has more changes than this page: ask again with ``syncToken`` (see
    /// ``RecordsChangesRequest/nextPage(after:)``). A body without it has none.
    public var moreComing: Bool

    /// The zone the changes are in, when the server says.
    public var zoneID: RecordZoneID?

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - records: The records that changed; those without a zone are given `zoneID`, as a page
    ///     read from the server gives them, so that the response reads back equal.
    ///   - syncToken: The token to send with the next request.
    ///   - moreComing: Whether the server has more changes than this page.
    ///   - zoneID: The zone the changes are in.
    public init(
        records: [RecordResult], syncToken: String? = nil, moreComing: Bool = false, zoneID: RecordZoneID? = nil
    ) {
        self.records = Self.placing(records, in: zoneID)
        self.syncToken = syncToken
        self.moreComing = moreComing
        self.zoneID = zoneID
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
        let records = try RecordResult.page(from: reader)
        syncToken = try reader.optionalMember("syncToken")?.string()
        moreComing = try reader.optionalMember("moreComing")?.bool() ?? false
        zoneID = try reader.optionalMember("zoneID").map { try WireField.zoneID(from: $0) }
        self.records = Self.placing(records, in: zoneID)
    }

    /// `records`, each without a zone of its own given `zoneID`. The server names the zone once,
    /// for the page: each record keeps it, so that saving the record later sends it back to its
    /// own zone.
    private static func placing(_ records: [RecordResult], in zoneID: RecordZoneID?) -> [RecordResult] {
        guard let zoneID else { return records }
        return records.map { result in
            guard case .success(var record) = result, record.metadata?.zoneID == nil else { return result }
            var metadata = record.metadata ?? RecordMetadata()
            metadata.zoneID = zoneID
            record.metadata = metadata
            return .success(record)
        }
    }

    func wireJSON(at path: [any CodingKey]) throws -> WireJSON {
        var object: [String: WireJSON] = [
            "records": try RecordResult.pageJSON(records, at: path),
            "moreComing": .bool(moreComing),
        ]
        object.set("syncToken", syncToken.map(WireJSON.string))
        object.set("zoneID", zoneID.map { WireField.zoneID($0) })
        return .object(object)
    }
}

extension RecordsChangesResponse: RecordPageBody {
    static let pageKeys: Set<RecordPageBytesReader.PageKey> = [.syncToken, .moreComing, .zoneID]

    init(page: RecordPageBytesReader.Page) {
        // As the general way reads it: each record without a zone placed in the page's.
        self.init(
            records: page.records, syncToken: page.syncToken, moreComing: page.moreComing ?? false, zoneID: page.zoneID)
    }
}
