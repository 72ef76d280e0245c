import Foundation

/// The body of a CloudKit Web Services `records/lookup` request: fetch records by name.
///
/// Encode it with `JSONEncoder` and `POST` it to
/// `https://api.apple-cloudkit.com/database/1/<container>/<environment>/<database>/records/lookup`:
///
/// ```swift
/// let request = RecordsLookupRequest(recordNames: ["N1", "N2"], desiredKeys: ["title"])
/// let body = try JSONEncoder().encode(request)
/// // {"desiredKeys":["title"],"records":[{"recordName":"N1"},{"recordName":"N2"}]}
/// ```
///
/// The server answers with a ``RecordsLookupResponse``: one entry per record asked for, in the
/// same order, each the record or the reason it could not be fetched.
public struct RecordsLookupRequest: Hashable, Sendable, Codable, WireCodable {
    /// One record to fetch: the lookup record dictionary.
    public struct LookupRecord: Hashable, Sendable {
        /// The name of the record.
        public var recordName: String

        /// The fields to fetch of this record, or `nil` for the request's ``desiredKeys``.
        public var desiredKeys: [String]?

        /// Creates an entry.
        ///
        /// - Parameters:
        ///   - recordName: The name of the record.
        ///   - desiredKeys: The fields to fetch of this record, or `nil` for the request's.
        public init(recordName: String, desiredKeys: [String]? = nil) {
            self.recordName = recordName
            self.desiredKeys = desiredKeys
        }
    }

    /// The records to fetch, in the order the response answers them.
    public var records: [LookupRecord]

    /// The zone of the records, or `nil` for the default zone.
    public var zoneID: RecordZoneID?

    /// The fields each record of the response includes, or `nil` for all of them.
    public var desiredKeys: [String]?

    /// Whether the server sends the records' numbers as JSON strings, so that a reader that
    /// takes JSON numbers as doubles keeps every digit; this package reads them the same either
    /// way.
    public var numbersAsStrings: Bool?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - records: The records to fetch.
    ///   - zoneID: The zone of the records, or `nil` for the default zone.
    ///   - desiredKeys: The fields each record of the response includes, or `nil` for all.
    ///   - numbersAsStrings: Whether the server writes numbers as strings.
    public init(
        records: [LookupRecord],
        zoneID: RecordZoneID? = nil,
        desiredKeys: [String]? = nil,
        numbersAsStrings: Bool? = nil
    ) {
        self.records = records
        self.zoneID = zoneID
        self.desiredKeys = desiredKeys
        self.numbersAsStrings = numbersAsStrings
    }

    /// Creates a request for records by name.
    ///
    /// - Parameters:
    ///   - recordNames: The names of the records to fetch.
    ///   - zoneID: The zone of the records, or `nil` for the default zone.
    ///   - desiredKeys: The fields each record of the response includes, or `nil` for all.
    ///   - numbersAsStrings: Whether the server writes numbers as strings.
    public init(
        recordNames: some Sequence<String>,
        zoneID: RecordZoneID? = nil,
        desiredKeys: [String]? = nil,
        numbersAsStrings: Bool? = nil
    ) {
        self.init(
            records: recordNames.map { LookupRecord(recordName: $0) }, zoneID: zoneID, desiredKeys: desiredKeys,
            numbersAsStrings: numbersAsStrings)
    }

    /// The names of the records to fetch.
    public var recordNames: [String] { records.map(\.recordName) }

    /// Writes the request body as CloudKit Web Services reads it.
    public func encode(to encoder: any Encoder) throws {
        try WireCoding.encode(self, to: encoder)
    }

    /// Reads a request body.
    public init(from decoder: any Decoder) throws {
        self = try WireCoding.decode(Self.self, from: decoder)
    }

    func wireJSON(at path: [any CodingKey]) throws -> WireJSON {
        var object: [String: WireJSON] = [
            "records": .array(
                records.map { record in
                    var entry: [String: WireJSON] = ["recordName": .string(record.recordName)]
                    entry.set("desiredKeys", record.desiredKeys.map { .array($0.map(WireJSON.string)) })
                    return .object(entry)
                })
        ]
        object.set("zoneID", zoneID.map { WireField.zoneID($0) })
        object.set("desiredKeys", desiredKeys.map { .array($0.map(WireJSON.string)) })
        object.set("numbersAsStrings", numbersAsStrings.map(WireJSON.bool))
        return .object(object)
    }

    init(wire reader: WireReader) throws {
        records = try reader.member("records").mapElements { entry in
            LookupRecord(
                recordName: try entry.member("recordName").string(),
                desiredKeys: try entry.optionalMember("desiredKeys")?.mapElements { try $0.string() })
        }
        zoneID = try reader.optionalMember("zoneID").map { try WireField.zoneID(from: $0) }
        desiredKeys = try reader.optionalMember("desiredKeys")?.mapElements { try $0.string() }
        numbersAsStrings = try reader.optionalMember("numbersAsStrings")?.bool()
    }
}
