import Foundation

/// One entry of a page of records in a response: the record, the server's reason for not
/// returning it, or a record that came but could not be read.
public enum RecordResult: Hashable, Sendable {
    /// The record as the server has it, with its new change tag and timestamps.
    case success(Record)
    /// Why the operation on this record failed.
    case failure(RecordServerError)
    /// A record the server returned that this package cannot read, such as one with a field of a
    /// type newer than the package. The other records of the page are read all the same.
    case unreadable(UnreadableRecord)

    /// The record, or `nil` for a failure or an unreadable record.
    public var record: Record? {
        if case .success(let record) = self { return record }
        return nil
    }

    /// The server's error, or `nil` for a record.
    public var error: RecordServerError? {
        if case .failure(let error) = self { return error }
        return nil
    }

    /// The record that could not be read, or `nil`.
    public var unreadable: UnreadableRecord? {
        if case .unreadable(let unreadable) = self { return unreadable }
        return nil
    }

    /// The name of the record the entry is about, when it says.
    public var recordName: String? {
        switch self {
        case .success(let record): record.recordName
        case .failure(let error): error.recordName
        case .unreadable(let unreadable): unreadable.recordName
        }
    }

    /// Returns the record, or throws the server's error (``RecordServerError``) or the reason the
    /// record could not be read (``UnreadableRecord``).
    public func get() throws -> Record {
        switch self {
        case .success(let record): return record
        case .failure(let error): throw error
        case .unreadable(let unreadable): throw unreadable
        }
    }

    /// The JSON of the entry; an unreadable record is written back as it came.
    func wireJSON(at path: [any CodingKey]) throws -> WireJSON {
        switch self {
        case .success(let record): try record.wireJSON(at: path)
        case .failure(let error): try error.wireJSON(at: path)
        case .unreadable(let unreadable): unreadable.json
        }
    }

    /// An entry of a page; one with a `serverErrorCode` is a failure. An entry that cannot be read
    /// is unreadable, not an error: one record does not lose the page.
    init(wire reader: WireReader) {
        do {
            if try reader.contains("serverErrorCode") {
                self = .failure(try RecordServerError(wire: reader))
            } else {
                self = .success(try WireRecord.record(from: reader))
            }
        } catch let error as DecodingError {
            self = .unreadable(UnreadableRecord(reader: reader, error: error))
        } catch {
            // Reading throws only decoding errors; any other is kept as the reason all the same.
            self = .unreadable(
                UnreadableRecord(reader: reader, error: reader.corrupted("The record could not be read: \(error)")))
        }
    }

    /// The `records` of a response, each read alone. A response without `records` is an empty
    /// page.
    static func page(from reader: WireReader) throws -> [RecordResult] {
        try reader.optionalMember("records")?.mapElements(RecordResult.init(wire:)) ?? []
    }

    /// The JSON of a page's `records`.
    static func pageJSON(_ results: [RecordResult], at path: [any CodingKey]) throws -> WireJSON {
        .array(
            try results.enumerated().map { index, result in
                try result.wireJSON(at: path + [AnyCodingKey(stringValue: "records"), AnyCodingKey(index: index)])
            })
    }
}

/// A record in a response that the package cannot read, with the reason.
///
/// A page of records is read record by record: a record with a field type newer than the
/// package, or a malformed value, becomes one of these, and the rest of the page reads as usual.
/// It keeps the record's JSON as it came, so that writing the page again writes it unchanged.
///
/// ```swift
/// let page = try JSONDecoder().decode(RecordsQueryResponse.self, from: body)
/// for entry in page.records {
///     if let unreadable = entry.unreadable {
///         log("Skipped \(unreadable.recordName ?? "a record"): \(unreadable.error)")
///     }
/// }
/// ```
public struct UnreadableRecord: Error, Hashable, Sendable, CustomStringConvertible {
    /// The record's name, when the entry has one.
    public var recordName: String?

    /// Why the record could not be read, with the coding path of the value at fault.
    public var error: DecodingError

    /// The entry's JSON, as it came.
    let json: WireJSON

    init(reader: WireReader, error: DecodingError) {
        recordName = try? reader.optionalMember("recordName")?.string()
        self.error = error
        json = reader.json
    }

    /// The record's name and the reason it could not be read.
    public var description: String {
        let subject = recordName.map { "Record '\($0)'" } ?? "A record"
        return "\(subject) could not be read: \(Self.describe(error))"
    }

    private static func describe(_ error: DecodingError) -> String {
        let context: DecodingError.Context? =
            switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
                .dataCorrupted(let context):
                context
            @unknown default: nil
            }
        guard let context else { return "\(error)" }
        let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
    }

    /// Whether two entries hold the same JSON: the same JSON fails to read in the same way.
    public static func == (first: UnreadableRecord, second: UnreadableRecord) -> Bool {
        first.json == second.json
    }

    /// Hashes the entry's JSON.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(json)
    }
}

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
