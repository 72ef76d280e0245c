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
public struct RecordsModifyRequest: Hashable, Sendable, Codable {
    /// The operations, applied in order.
    public var operations: [RecordOperation]

    /// The zone of the records, or `nil` for the default zone.
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
    ///   - zoneID: The zone of the records, or `nil` for the default zone.
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

    /// Creates a request that saves models.
    ///
    /// Each model is encoded with `encoder`. A model whose record carries a change tag from the
    /// server (see ``RecordMetadata``) is saved with an ``RecordOperation/OperationType/update``,
    /// which the server refuses if the record has changed since; any other is saved with a
    /// ``RecordOperation/OperationType/create``. Pass `operationType` to choose one for all.
    ///
    /// - Parameters:
    ///   - models: The models to save.
    ///   - encoder: The encoder that turns each model into a record.
    ///   - operationType: The operation for every model, or `nil` to choose per model.
    ///   - zoneID: The zone of the records, or `nil` for the default zone.
    ///   - atomic: Whether the whole request fails when one operation fails.
    /// - Throws: Any error that `encoder` throws for a model.
    public init<Model: Encodable>(
        saving models: some Sequence<Model>,
        encoder: RecordEncoder = RecordEncoder(),
        operationType: RecordOperation.OperationType? = nil,
        zoneID: RecordZoneID? = nil,
        atomic: Bool? = nil
    ) throws {
        let operations = try models.map { model in
            let record = try encoder.encode(model)
            return RecordOperation(operationType ?? .saving(record), record: record)
        }
        self.init(operations: operations, zoneID: zoneID, atomic: atomic)
    }

    /// Creates a request that saves records, such as those of a graph from
    /// ``RecordEncoder/encodeGraph(_:)``.
    ///
    /// Each record is saved as ``RecordOperation/init(saving:)`` does: with an `update` when it
    /// carries a change tag from the server, a `create` otherwise, unless `operationType` is given.
    ///
    /// - Parameters:
    ///   - records: The records to save.
    ///   - operationType: The operation for every record, or `nil` to choose per record.
    ///   - zoneID: The zone of the records, or `nil` for the default zone.
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
    public func encode(to encoder: any Encoder) throws {
        var object: [String: WireJSON] = [:]
        object["operations"] = .array(
            try operations.enumerated().map { index, operation in
                .object(
                    try operation.wireObject(
                        at: encoder.codingPath + [AnyCodingKey(stringValue: "operations"), AnyCodingKey(index: index)]))
            })
        object.set("zoneID", zoneID.map { WireField.zoneID($0) })
        object.set("atomic", atomic.map(WireJSON.bool))
        object.set("desiredKeys", desiredKeys.map { .array($0.map(WireJSON.string)) })
        var container = encoder.singleValueContainer()
        try container.encode(object)
    }

    /// Reads a request body.
    public init(from decoder: any Decoder) throws {
        let reader = try WireReader(decoding: decoder)
        operations = try reader.member("operations").elements().map(RecordOperation.init(wire:))
        zoneID = try reader.optionalMember("zoneID").map { try WireField.zoneID(from: $0) }
        atomic = try reader.optionalMember("atomic")?.bool()
        desiredKeys = try reader.optionalMember("desiredKeys")?.elements().map { try $0.string() }
    }
}

/// One operation of a ``RecordsModifyRequest``: what to do with one record.
public struct RecordOperation: Hashable, Sendable, Codable {
    /// What an operation does with its record.
    public enum OperationType: String, Hashable, Sendable, Codable, CaseIterable {
        /// Creates the record; fails if a record of that name exists.
        case create
        /// Updates the fields the record carries; fails if the record's change tag is not the
        /// server's.
        case update
        /// Updates the fields the record carries, whatever the server's change tag.
        case forceUpdate
        /// Replaces the whole record: fields it does not carry are cleared. Fails if the change
        /// tag is not the server's.
        case replace
        /// Replaces the whole record, whatever the server's change tag.
        case forceReplace
        /// Deletes the record; fails if its change tag is not the server's.
        case delete
        /// Deletes the record, whatever the server's change tag.
        case forceDelete

        /// `update` for a record with a change tag, which the server has seen; `create` otherwise.
        static func saving(_ record: Record) -> OperationType {
            record.metadata?.changeTag == nil ? .create : .update
        }

        var isDelete: Bool { self == .delete || self == .forceDelete }
    }

    /// What the operation does.
    public var operationType: OperationType

    /// The record to create, update, replace or delete.
    ///
    /// A delete sends only the record's name, and for ``OperationType/delete`` its change tag.
    public var record: Record

    /// The fields the response includes for this record, or `nil` for all of them.
    public var desiredKeys: [String]?

    /// Creates an operation.
    ///
    /// - Parameters:
    ///   - operationType: What the operation does.
    ///   - record: The record to create, update, replace or delete.
    ///   - desiredKeys: The fields the response includes for this record.
    public init(_ operationType: OperationType, record: Record, desiredKeys: [String]? = nil) {
        self.operationType = operationType
        self.record = record
        self.desiredKeys = desiredKeys
    }

    /// An operation that saves `record`: an update when it carries a change tag from the server, a
    /// create otherwise.
    public init(saving record: Record) {
        self.init(.saving(record), record: record)
    }

    /// Writes the operation dictionary as CloudKit Web Services reads it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wireObject(at: encoder.codingPath))
    }

    /// Reads an operation dictionary.
    public init(from decoder: any Decoder) throws {
        try self.init(wire: WireReader(decoding: decoder))
    }

    func wireObject(at path: [any CodingKey]) throws -> [String: WireJSON] {
        let recordObject: [String: WireJSON]
        if operationType.isDelete {
            // A delete names the record, with the change tag the server checks for `delete`.
            var named: [String: WireJSON] = ["recordName": .string(record.recordName)]
            if operationType == .delete {
                named.set("recordChangeTag", record.metadata?.changeTag.map(WireJSON.string))
            }
            recordObject = named
        } else {
            recordObject = try WireRecord.object(for: record, at: path + [AnyCodingKey(stringValue: "record")])
        }
        var object: [String: WireJSON] = [
            "operationType": .string(operationType.rawValue),
            "record": .object(recordObject),
        ]
        object.set("desiredKeys", desiredKeys.map { .array($0.map(WireJSON.string)) })
        return object
    }

    init(wire reader: WireReader) throws {
        let typeReader = try reader.member("operationType")
        let name = try typeReader.string()
        guard let operationType = OperationType(rawValue: name) else {
            throw typeReader.corrupted("Unknown operation type '\(name)'.")
        }
        self.operationType = operationType
        record = try WireRecord.record(from: reader.member("record"))
        desiredKeys = try reader.optionalMember("desiredKeys")?.elements().map { try $0.string() }
    }
}

/// The body of the server's answer to a `records/modify` request: one result per operation, in
/// the order of the operations.
public struct RecordsModifyResponse: Hashable, Sendable, Codable {
    /// The result of each operation: the record as the server saved it, or why it failed.
    public var records: [RecordResult]

    /// Creates a response.
    public init(records: [RecordResult]) {
        self.records = records
    }

    /// Writes the response body as CloudKit Web Services sends it.
    public func encode(to encoder: any Encoder) throws {
        try RecordResult.encode(records, continuationMarker: nil, to: encoder)
    }

    /// Reads a response body.
    public init(from decoder: any Decoder) throws {
        records = try RecordResult.decodeRecords(from: WireReader(decoding: decoder))
    }
}

/// The body of the server's answer to a `records/lookup` request: one result per record asked
/// for, in the order asked.
public struct RecordsLookupResponse: Hashable, Sendable, Codable {
    /// The result for each record: the record, or why it could not be fetched.
    public var records: [RecordResult]

    /// Creates a response.
    public init(records: [RecordResult]) {
        self.records = records
    }

    /// Writes the response body as CloudKit Web Services sends it.
    public func encode(to encoder: any Encoder) throws {
        try RecordResult.encode(records, continuationMarker: nil, to: encoder)
    }

    /// Reads a response body.
    public init(from decoder: any Decoder) throws {
        records = try RecordResult.decodeRecords(from: WireReader(decoding: decoder))
    }
}

/// The body of the server's answer to a `records/query` request: a page of matching records.
public struct RecordsQueryResponse: Hashable, Sendable, Codable {
    /// The records of this page.
    public var records: [RecordResult]

    /// The marker to send with the same query for the next page, or `nil` on the last page.
    public var continuationMarker: String?

    /// Creates a response.
    public init(records: [RecordResult], continuationMarker: String? = nil) {
        self.records = records
        self.continuationMarker = continuationMarker
    }

    /// Writes the response body as CloudKit Web Services sends it.
    public func encode(to encoder: any Encoder) throws {
        try RecordResult.encode(records, continuationMarker: continuationMarker, to: encoder)
    }

    /// Reads a response body.
    public init(from decoder: any Decoder) throws {
        let reader = try WireReader(decoding: decoder)
        records = try RecordResult.decodeRecords(from: reader)
        continuationMarker = try reader.optionalMember("continuationMarker")?.string()
    }
}

/// One entry of a response: a record, or the server's reason for not returning it.
public enum RecordResult: Hashable, Sendable {
    /// The record as the server has it, with its new change tag and timestamps.
    case success(Record)
    /// Why the operation on this record failed.
    case failure(RecordServerError)

    /// The record, or `nil` for a failure.
    public var record: Record? {
        if case .success(let record) = self { return record }
        return nil
    }

    /// The error, or `nil` for a success.
    public var error: RecordServerError? {
        if case .failure(let error) = self { return error }
        return nil
    }

    /// Returns the record, or throws the server's error.
    public func get() throws(RecordServerError) -> Record {
        switch self {
        case .success(let record): record
        case .failure(let error): throw error
        }
    }

    static func encode(_ results: [RecordResult], continuationMarker: String?, to encoder: any Encoder) throws {
        var object: [String: WireJSON] = [:]
        object["records"] = .array(
            try results.enumerated().map { index, result in
                switch result {
                case .success(let record):
                    let path = encoder.codingPath + [AnyCodingKey(stringValue: "records"), AnyCodingKey(index: index)]
                    return .object(try WireRecord.object(for: record, at: path))
                case .failure(let error):
                    return .object(error.wireObject)
                }
            })
        object.set("continuationMarker", continuationMarker.map(WireJSON.string))
        var container = encoder.singleValueContainer()
        try container.encode(object)
    }

    /// The `records` of a response; an entry with a `serverErrorCode` is a failure.
    static func decodeRecords(from reader: WireReader) throws -> [RecordResult] {
        try reader.member("records").elements().map { entry in
            if try entry.object()["serverErrorCode"] != nil {
                return .failure(try RecordServerError(wire: entry))
            }
            return .success(try WireRecord.record(from: entry))
        }
    }
}

/// The server's reason for failing an operation on one record.
public struct RecordServerError: Error, Hashable, Sendable {
    /// The server's code for the kind of failure, such as `CONFLICT` or `NOT_FOUND`.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code as the server writes it.
        public var rawValue: String
        /// Creates a code; the server may send codes this package has no constant for.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code as the server writes it.
        public var description: String { rawValue }

        /// No permission to access the endpoint, record, zone or database.
        public static let accessDenied = Code(rawValue: "ACCESS_DENIED")
        /// An atomic batch failed because another of its operations failed.
        public static let atomicError = Code(rawValue: "ATOMIC_ERROR")
        /// Authentication was rejected.
        public static let authenticationFailed = Code(rawValue: "AUTHENTICATION_FAILED")
        /// The request needs authentication and had none.
        public static let authenticationRequired = Code(rawValue: "AUTHENTICATION_REQUIRED")
        /// The request was not valid.
        public static let badRequest = Code(rawValue: "BAD_REQUEST")
        /// The record's change tag is not the server's: fetch the record and try again.
        public static let conflict = Code(rawValue: "CONFLICT")
        /// A record of that name exists already.
        public static let exists = Code(rawValue: "EXISTS")
        /// The server failed.
        public static let internalError = Code(rawValue: "INTERNAL_ERROR")
        /// The record was not found.
        public static let notFound = Code(rawValue: "NOT_FOUND")
        /// The app's or the user's quota is used up.
        public static let quotaExceeded = Code(rawValue: "QUOTA_EXCEEDED")
        /// The request was throttled: try again after ``RecordServerError/retryAfter``.
        public static let throttled = Code(rawValue: "THROTTLED")
        /// The server failed for now: try again.
        public static let tryAgainLater = Code(rawValue: "TRY_AGAIN_LATER")
        /// The operation would break a validating reference.
        public static let validatingReferenceError = Code(rawValue: "VALIDATING_REFERENCE_ERROR")
        /// The zone was not found.
        public static let zoneNotFound = Code(rawValue: "ZONE_NOT_FOUND")
    }

    /// The name of the record the error is about.
    public var recordName: String?
    /// The server's explanation, for people.
    public var reason: String?
    /// The kind of failure.
    public var serverErrorCode: Code
    /// The seconds to wait before retrying, when the server says.
    public var retryAfter: Double?
    /// The server's identifier of the error, to quote to Apple.
    public var uuid: String?
    /// Where to send the request instead, when the server says.
    public var redirectURL: String?

    /// Creates an error.
    public init(
        recordName: String? = nil,
        reason: String? = nil,
        serverErrorCode: Code,
        retryAfter: Double? = nil,
        uuid: String? = nil,
        redirectURL: String? = nil
    ) {
        self.recordName = recordName
        self.reason = reason
        self.serverErrorCode = serverErrorCode
        self.retryAfter = retryAfter
        self.uuid = uuid
        self.redirectURL = redirectURL
    }

    var wireObject: [String: WireJSON] {
        var object: [String: WireJSON] = ["serverErrorCode": .string(serverErrorCode.rawValue)]
        object.set("recordName", recordName.map(WireJSON.string))
        object.set("reason", reason.map(WireJSON.string))
        object.set("retryAfter", retryAfter.map { $0.isFinite ? .double($0) : .null })
        object.set("uuid", uuid.map(WireJSON.string))
        object.set("redirectURL", redirectURL.map(WireJSON.string))
        return object
    }

    init(wire reader: WireReader) throws {
        serverErrorCode = Code(rawValue: try reader.member("serverErrorCode").string())
        recordName = try reader.optionalMember("recordName")?.string()
        reason = try reader.optionalMember("reason")?.string()
        retryAfter = try reader.optionalMember("retryAfter")?.double()
        uuid = try reader.optionalMember("uuid")?.string()
        redirectURL = try reader.optionalMember("redirectURL")?.string()
    }
}

extension RecordServerError: LocalizedError, CustomStringConvertible {
    /// The record, the code and the server's reason.
    public var description: String {
        let subject = recordName.map { "Record '\($0)'" } ?? "The record"
        return "\(subject) failed with \(serverErrorCode.rawValue)" + (reason.map { ": \($0)" } ?? ".")
    }

    /// The record, the code and the server's reason.
    public var errorDescription: String? { description }
}

extension RecordServerError: Codable {
    /// Writes the error dictionary as CloudKit Web Services sends it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wireObject)
    }

    /// Reads an error dictionary.
    public init(from decoder: any Decoder) throws {
        try self.init(wire: WireReader(decoding: decoder))
    }
}

extension WireReader {
    /// A reader of the JSON object that `decoder` holds, at the decoder's coding path.
    init(decoding decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let object = try WireJSON.$documentDepth.withValue(decoder.codingPath.count) {
            try container.decode([String: WireJSON].self)
        }
        self.init(.object(object), path: decoder.codingPath)
    }
}
