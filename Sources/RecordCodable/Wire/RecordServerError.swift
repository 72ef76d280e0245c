import Foundation

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

    func wireJSON(at path: [any CodingKey]) -> WireJSON {
        .object(wireObject)
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

extension RecordServerError: Codable, WireCodable {
    /// Writes the error dictionary as CloudKit Web Services sends it.
    public func encode(to encoder: any Encoder) throws {
        try WireCoding.encode(self, to: encoder)
    }

    /// Reads an error dictionary.
    public init(from decoder: any Decoder) throws {
        self = try WireCoding.decode(Self.self, from: decoder)
    }
}
