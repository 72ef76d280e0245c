import Foundation

/// The body of a CloudKit Web Services `records/modify` request: operations that create, update,
/// replace or delete records, applied in one call.
///
/// Encode it with `JSONEncoder` and `POST` it to
/// `https://api.apple-cloudkit.com/database/1/<container>/<environment>/<database>/records/modify`:
///
/// ```swift
/// let request = try RecordsModifyRequest(saving: [post1, post2])
/// let body = try JSONEncoder().encode(request)
/// // {"operations":[{"operationType":"create","record":{…}}, …]}
/// ```
///
/// The server answers with a ``RecordsModifyResponse``.
///
/// A request saves to one zone. When ``zoneID`` is `nil`, the request is sent with the zone its
/// records came from (their ``RecordMetadata/zoneID``), so that a fetched record is saved back
/// where it is; records of different zones cannot share a request.
public struct RecordsModifyRequest: Hashable, Sendable, Codable, WireCodable {
    /// The operations, applied in order.
    public var operations: [RecordOperation]

    /// The zone of the records, or `nil` for the zone the records came from, and for new records
    /// the default zone.
    public var zoneID: RecordZoneID?

    /// Whether the whole request fails when one operation fails; `nil` leaves it to the server,
    /// whose default is `true`. It applies to custom zones only.
    public var atomic: Bool?

    /// The fields the response includes for each record, or `nil` for all of them.
    public var desiredKeys: [String]?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - operations: The operations, applied in order.
    ///   - zoneID: The zone of the records, or `nil` for the zone the records came from.
    ///   - atomic: Whether the whole request fails when one operation fails.
    ///   - desiredKeys: The fields the response includes for each record.
    public init(
        operations: [RecordOperation],
        zoneID: RecordZoneID? = nil,
        atomic: Bool? = nil,
        desiredKeys: [String]? = nil
    ) {
        self.operations = operations
        self.zoneID = zoneID
        self.atomic = atomic
        self.desiredKeys = desiredKeys
    }

    /// Creates a request that saves records, such as those of a graph from
    /// ``RecordEncoder/encodeGraph(_:)``.
    ///
    /// Each record is saved as ``RecordOperation/init(saving:)`` does: with an `update` when it
    /// carries a change tag from the server or was made as an update, a `create` otherwise,
    /// unless `operationType` is given.
    ///
    /// - Parameters:
    ///   - records: The records to save.
    ///   - operationType: The operation for every record, or `nil` to choose per record. The
    ///     server refuses an `update`, `replace` or `delete` of a record without its change tag;
    ///     the forced operations need none.
    ///   - zoneID: The zone of the records, or `nil` for the zone the records came from.
    ///   - atomic: Whether the whole request fails when one operation fails.
    public init(
        savingRecords records: some Sequence<Record>,
        operationType: RecordOperation.OperationType? = nil,
        zoneID: RecordZoneID? = nil,
        atomic: Bool? = nil
    ) {
        let operations = records.map { record in RecordOperation(operationType ?? .saving(record), record: record) }
        self.init(operations: operations, zoneID: zoneID, atomic: atomic)
    }

    /// Writes the request body as CloudKit Web Services reads it.
    ///
    /// - Throws: `EncodingError.invalidValue` when ``zoneID`` is `nil` and the records come from
    ///   different zones, for a saved record without a ``Record/recordType``, for an operation
    ///   that the server refuses as written (see ``RecordOperation/encode(to:)``: a record without a
    ///   name that is not created), and for any value that a record's JSON cannot carry. Reading
    ///   is more lenient: a request read from JSON that has such an operation is read, and throws
    ///   when written again.
    public func encode(to encoder: any Encoder) throws {
        try WireCoding.encode(self, to: encoder)
    }

    /// Reads a request body.
    public init(from decoder: any Decoder) throws {
        self = try WireCoding.decode(Self.self, from: decoder)
    }

    /// The zone the request saves to: the one given, else the one zone its records came from.
    ///
    /// - Throws: `EncodingError.invalidValue` when no zone is given and the records come from
    ///   different zones.
    func effectiveZoneID(at path: [any CodingKey]) throws -> RecordZoneID? {
        if let zoneID { return zoneID }
        var found: (zoneID: RecordZoneID, recordName: String)?
        for (index, operation) in operations.enumerated() {
            guard let zoneID = operation.record.metadata?.zoneID else { continue }
            guard let first = found else {
                found = (zoneID, operation.record.recordName)
                continue
            }
            guard first.zoneID == zoneID else {
                throw EncodingError.invalid(
                    zoneID,
                    at: path + [AnyCodingKey(stringValue: "operations"), AnyCodingKey(index: index)],
                    "Record '\(operation.record.recordName)' is in zone \(Self.describe(zoneID, beside: first.zoneID)) "
                        + "but record '\(first.recordName)' is in zone \(Self.describe(first.zoneID, beside: zoneID)): "
                        + "a request saves to one zone. Send a request for each zone.")
            }
        }
        return found?.zoneID
    }

    /// A zone as the mixed-zones error names it beside `other`: by name, and by owner too when
    /// both have one name, which only their owners tell apart.
    private static func describe(_ zoneID: RecordZoneID, beside other: RecordZoneID) -> String {
        guard zoneID.zoneName == other.zoneName else { return "'\(zoneID.zoneName)'" }
        return "'\(zoneID.zoneName)'" + (zoneID.ownerRecordName.map { " of owner '\($0)'" } ?? " of the current user")
    }

    func wireJSON(at path: [any CodingKey]) throws -> WireJSON {
        var object: [String: WireJSON] = [:]
        object["operations"] = try operations.wireJSON(member: "operations", at: path) { try $0.wireJSON(at: $1) }
        object.set("zoneID", try effectiveZoneID(at: path).map { WireField.zoneID($0) })
        object.set("atomic", atomic.map(WireJSON.bool))
        object.set("desiredKeys", desiredKeys.map { .array($0.map(WireJSON.string)) })
        return .object(object)
    }

    /// Writes the request as ``wireJSON(at:)`` builds it, its keys in their sorted order
    /// (`atomic`, `desiredKeys`, `operations`, `zoneID`), each operation straight to the bytes: a
    /// record in a request costs what it costs alone. The operations are checked, and fail, in
    /// order, before the records' zones are, as in `wireJSON(at:)`.
    func write(to writer: inout JSONBytesWriter, at path: @autoclosure () -> [any CodingKey]) throws {
        writer.beginObject()
        if let atomic {
            writer.writeKey("atomic", first: true)
            writer.append(atomic ? "true" : "false")
        }
        if let desiredKeys {
            writer.writeKey("desiredKeys", first: atomic == nil)
            writer.write(strings: desiredKeys)
        }
        writer.writeKey("operations", first: atomic == nil && desiredKeys == nil)
        writer.beginArray()
        for (index, operation) in operations.enumerated() {
            writer.nextElement(first: index == 0)
            let start = writer.count
            try operation.write(
                to: &writer, at: path() + [AnyCodingKey(stringValue: "operations"), AnyCodingKey(index: index)])
            // The records of a request are most often alike: room for as many more as the first
            // took, and one spare, is made at once.
            if index == 0 {
                let (more, overflow) = (writer.count - start).multipliedReportingOverflow(by: operations.count)
                if !overflow { writer.reserve(more: more) }
            }
        }
        writer.endArray(empty: operations.isEmpty)
        if let zoneID = try effectiveZoneID(at: path()) {
            writer.writeKey("zoneID", first: false)
            try writer.write(WireField.zoneID(zoneID), at: path() + [AnyCodingKey(stringValue: "zoneID")])
        }
        writer.endObject(empty: false)
    }

    init(wire reader: WireReader) throws {
        operations = try reader.member("operations").mapElements(RecordOperation.init(wire:))
        zoneID = try reader.optionalMember("zoneID").map { try WireField.zoneID(from: $0) }
        atomic = try reader.optionalMember("atomic")?.bool()
        desiredKeys = try reader.optionalMember("desiredKeys")?.mapElements { try $0.string() }
    }
}
