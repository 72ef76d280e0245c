import Foundation

/// The body of a CloudKit Web Services `records/query` request: find records by their fields.
///
/// Encode it with `JSONEncoder` and `POST` it to
/// `https://api.apple-cloudkit.com/database/1/<container>/<environment>/<database>/records/query`:
///
/// ```swift
/// let request = RecordsQueryRequest(
///     query: RecordQuery(
///         recordType: "Artist",
///         filterBy: [.init(fieldName: "lastName", comparator: .equals, fieldValue: .string("Chen"))]),
///     resultsLimit: 50)
/// let body = try JSONEncoder().encode(request)
/// ```
///
/// The server answers with a ``RecordsQueryResponse``. A response with a
/// ``RecordsQueryResponse/continuationMarker`` has more records: ask for them with
/// ``nextPage(after:)`` until it returns `nil`.
public struct RecordsQueryRequest: Hashable, Sendable, Codable, WireCodable {
    /// What to look for.
    public var query: RecordQuery

    /// The zone to search, or `nil` for the default zone.
    public var zoneID: RecordZoneID?

    /// The most records the response may hold, or `nil` for the server's maximum.
    public var resultsLimit: Int?

    /// The fields each record of the response includes, or `nil` for all of them.
    public var desiredKeys: [String]?

    /// Whether to search every zone of the database; the server ignores it when ``zoneID`` is
    /// given.
    public var zoneWide: Bool?

    /// Whether the server sends the records' numbers as JSON strings, so that a reader that
    /// takes JSON numbers as doubles keeps every digit; this package reads them the same either
    /// way.
    public var numbersAsStrings: Bool?

    /// Where the previous page of the same query ended, or `nil` for the first page.
    public var continuationMarker: String?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - query: What to look for.
    ///   - zoneID: The zone to search, or `nil` for the default zone.
    ///   - resultsLimit: The most records the response may hold.
    ///   - desiredKeys: The fields each record of the response includes, or `nil` for all.
    ///   - zoneWide: Whether to search every zone of the database.
    ///   - numbersAsStrings: Whether the server writes numbers as strings.
    ///   - continuationMarker: Where the previous page ended, or `nil` for the first page.
    public init(
        query: RecordQuery,
        zoneID: RecordZoneID? = nil,
        resultsLimit: Int? = nil,
        desiredKeys: [String]? = nil,
        zoneWide: Bool? = nil,
        numbersAsStrings: Bool? = nil,
        continuationMarker: String? = nil
    ) {
        self.query = query
        self.zoneID = zoneID
        self.resultsLimit = resultsLimit
        self.desiredKeys = desiredKeys
        self.zoneWide = zoneWide
        self.numbersAsStrings = numbersAsStrings
        self.continuationMarker = continuationMarker
    }

    /// The request for the page after `response`, or `nil` when `response` was the last page —
    /// or brings back this request's own marker, which would ask for the same page again, for
    /// ever.
    ///
    /// It is this request with the response's ``RecordsQueryResponse/continuationMarker``:
    ///
    /// ```swift
    /// var request: RecordsQueryRequest? = RecordsQueryRequest(query: query)
    /// while let next = request {
    ///     let page = try await send(next)             // a RecordsQueryResponse
    ///     records += page.records.compactMap(\.record)
    ///     request = next.nextPage(after: page)
    /// }
    /// ```
    ///
    /// - Parameter response: The server's answer to this request.
    public func nextPage(after response: RecordsQueryResponse) -> RecordsQueryRequest? {
        guard let marker = response.continuationMarker, marker != continuationMarker else { return nil }
        var next = self
        next.continuationMarker = marker
        return next
    }

    /// Writes the request body as CloudKit Web Services reads it.
    ///
    /// - Throws: `EncodingError.invalidValue` for a value that CloudKit's JSON cannot carry, such
    ///   as a filter's distance that is NaN or infinite.
    public func encode(to encoder: any Encoder) throws {
        try WireCoding.encode(self, to: encoder)
    }

    /// Reads a request body.
    public init(from decoder: any Decoder) throws {
        self = try WireCoding.decode(Self.self, from: decoder)
    }

    func wireJSON(at path: [any CodingKey]) throws -> WireJSON {
        var object: [String: WireJSON] = [
            "query": try query.wireJSON(at: path + [AnyCodingKey(stringValue: "query")])
        ]
        object.set("zoneID", zoneID.map { WireField.zoneID($0) })
        object.set("resultsLimit", resultsLimit.map { .int64(Int64($0)) })
        object.set("desiredKeys", desiredKeys.map { .array($0.map(WireJSON.string)) })
        object.set("zoneWide", zoneWide.map(WireJSON.bool))
        object.set("numbersAsStrings", numbersAsStrings.map(WireJSON.bool))
        object.set("continuationMarker", continuationMarker.map(WireJSON.string))
        return .object(object)
    }

    init(wire reader: WireReader) throws {
        query = try RecordQuery(wire: reader.member("query"))
        zoneID = try reader.optionalMember("zoneID").map { try WireField.zoneID(from: $0) }
        resultsLimit = try reader.optionalMember("resultsLimit").map(WireCount.count(from:))
        desiredKeys = try reader.optionalMember("desiredKeys")?.mapElements { try $0.string() }
        zoneWide = try reader.optionalMember("zoneWide")?.bool()
        numbersAsStrings = try reader.optionalMember("numbersAsStrings")?.bool()
        continuationMarker = try reader.optionalMember("continuationMarker")?.string()
    }
}
