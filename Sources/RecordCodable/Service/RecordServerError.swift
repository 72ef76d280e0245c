import Foundation

/// The server's reason for failing a request, or one operation of it on a record or a zone.
///
/// CloudKit Web Services sends it as an error dictionary, alone as the body of a failed request
/// or in place of a record (or a zone) in a response:
///
/// ```json
/// {"recordName": "N1", "serverErrorCode": "CONFLICT", "reason": "record changed", "uuid": "…"}
/// ```
///
/// The error tells what to do next: ``isConflict`` (fetch the record again and reapply the edit),
/// ``isRetryable`` and ``retryDelay(attempt:now:)`` (send the same request again, later), and for
/// people, ``recoverySuggestion``:
///
/// ```swift
/// for entry in response.records {
///     guard let error = entry.error else { continue }
///     if error.isConflict {
///         // fetch the server's record, merge, save again
///     } else if let delay = error.retryDelay(attempt: attempt) {
///         try await Task.sleep(for: .seconds(delay))
///     } else {
///         log(error.recoverySuggestion ?? "\(error)")
///     }
/// }
/// ```
public struct RecordServerError: Error, Hashable, Sendable {
    /// The server's code for the kind of failure, such as `CONFLICT` or `NOT_FOUND`.
    ///
    /// The server may send codes that have no constant here: they read all the same, and keep
    /// their text in ``rawValue``. The constants are the codes of Apple's CloudKit Web Services
    /// reference, then those that the server sends although the reference does not list them.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code as the server writes it.
        public var rawValue: String
        /// Creates a code; the server may send codes this package has no constant for.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code as the server writes it.
        public var description: String { rawValue }

        // The codes of Apple's CloudKit Web Services reference ("Error Codes"), with the HTTP
        // status the reference gives each.

        /// No permission to access the endpoint, record, zone or database (HTTP 403).
        public static let accessDenied = Code(rawValue: "ACCESS_DENIED")
        /// An atomic batch failed because another of its operations failed (HTTP 400).
        public static let atomicError = Code(rawValue: "ATOMIC_ERROR")
        /// Authentication was rejected (HTTP 401).
        public static let authenticationFailed = Code(rawValue: "AUTHENTICATION_FAILED")
        /// The request needs authentication and had none (HTTP 421).
        public static let authenticationRequired = Code(rawValue: "AUTHENTICATION_REQUIRED")
        /// The request was not valid (HTTP 400).
        public static let badRequest = Code(rawValue: "BAD_REQUEST")
        /// The record's change tag is not the server's: fetch the record and try again (HTTP 409).
        /// Real traffic says ``serverRecordChanged`` for the same thing.
        public static let conflict = Code(rawValue: "CONFLICT")
        /// What the request creates exists already (HTTP 409).
        public static let exists = Code(rawValue: "EXISTS")
        /// The server failed (HTTP 500).
        public static let internalError = Code(rawValue: "INTERNAL_ERROR")
        /// The record, zone or other resource was not found (HTTP 404).
        public static let notFound = Code(rawValue: "NOT_FOUND")
        /// The app's quota (public database) or the user's iCloud quota (private database) is used
        /// up (HTTP 413).
        public static let quotaExceeded = Code(rawValue: "QUOTA_EXCEEDED")
        /// The request was throttled: try again later, after ``RecordServerError/retryAfter`` when
        /// the server says (HTTP 429).
        public static let throttled = Code(rawValue: "THROTTLED")
        /// The server failed for now: try again (HTTP 503).
        public static let tryAgainLater = Code(rawValue: "TRY_AGAIN_LATER")
        /// The operation would break a validating reference (HTTP 412).
        public static let validatingReferenceError = Code(rawValue: "VALIDATING_REFERENCE_ERROR")
        /// The zone was not found (HTTP 404).
        public static let zoneNotFound = Code(rawValue: "ZONE_NOT_FOUND")

        // Codes the server sends beyond the reference's list: named in CloudKit JS's error
        // constants, or CloudKit's own error codes (`CKError.Code`) in the server's spelling.

        /// The record changed on the server since its change tag was read: the code real
        /// traffic uses for a ``conflict``.
        public static let serverRecordChanged = Code(rawValue: "SERVER_RECORD_CHANGED")
        /// The request's parameters are not valid (CloudKit JS's `INVALID_ARGUMENTS`).
        public static let invalidArguments = Code(rawValue: "INVALID_ARGUMENTS")
        /// The request is too large: too many operations, or too much data (CloudKit's
        /// `limitExceeded`).
        public static let limitExceeded = Code(rawValue: "LIMIT_EXCEEDED")
        /// CloudKit cannot be reached for now (CloudKit JS's `SERVICE_UNAVAILABLE`).
        public static let serviceUnavailable = Code(rawValue: "SERVICE_UNAVAILABLE")
        /// The value of a unique field is taken by another record (CloudKit JS's
        /// `UNIQUE_FIELD_ERROR`).
        public static let uniqueFieldError = Code(rawValue: "UNIQUE_FIELD_ERROR")
        /// The zone is too busy for the operation now (CloudKit's `zoneBusy`).
        public static let zoneBusy = Code(rawValue: "ZONE_BUSY")

        /// The code that an HTTP status stands for, for an error whose body does not say (see
        /// ``RecordServerError/init(httpStatus:headers:body:)``): the code Apple's reference gives
        /// the status — `409` is ``conflict``, though ``exists`` shares it, and `404` is
        /// ``notFound`` — then `502` and `504`, a gateway's, are ``tryAgainLater``, any other
        /// `5xx` ``internalError``, any other `4xx` ``badRequest``, and any other status
        /// `HTTP_<status>`.
        public init(httpStatus: Int) {
            switch httpStatus {
            case 400: self = .badRequest
            case 401: self = .authenticationFailed
            case 403: self = .accessDenied
            case 404: self = .notFound
            case 409: self = .conflict
            case 412: self = .validatingReferenceError
            case 413: self = .quotaExceeded
            case 421: self = .authenticationRequired
            case 429: self = .throttled
            case 500: self = .internalError
            case 502, 503, 504: self = .tryAgainLater
            case 500..<600: self = .internalError
            case 400..<500: self = .badRequest
            default: self.init(rawValue: "HTTP_\(httpStatus)")
            }
        }

        /// Every code with a constant, in the order above.
        static let known: [Code] = [
            .accessDenied, .atomicError, .authenticationFailed, .authenticationRequired, .badRequest, .conflict,
            .exists, .internalError, .notFound, .quotaExceeded, .throttled, .tryAgainLater,
            .validatingReferenceError, .zoneNotFound, .serverRecordChanged, .invalidArguments, .limitExceeded,
            .serviceUnavailable, .uniqueFieldError, .zoneBusy,
        ]
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
    /// The zone the error is about, in the answer to a zones request.
    public var zoneID: RecordZoneID?
    /// The HTTP status of the response that carried the error, when the caller read it, as
    /// ``init(httpStatus:headers:body:)`` keeps it. Not part of the error's JSON: an error read
    /// from JSON alone, such as one record's in a page, has none.
    public var httpStatus: Int?
    /// The HTTP header fields of the response that carried the error, as the caller read them:
    /// ``retryDelay(attempt:now:)`` obeys their `Retry-After`. Not part of the error's JSON.
    public var httpHeaders: [String: String]

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - recordName: The name of the record the error is about.
    ///   - reason: The server's explanation, for people.
    ///   - serverErrorCode: The kind of failure.
    ///   - retryAfter: The seconds to wait before retrying.
    ///   - uuid: The server's identifier of the error.
    ///   - redirectURL: Where to send the request instead.
    ///   - zoneID: The zone the error is about.
    ///   - httpStatus: The HTTP status of the response that carried the error.
    ///   - httpHeaders: The HTTP header fields of that response.
    public init(
        recordName: String? = nil,
        reason: String? = nil,
        serverErrorCode: Code,
        retryAfter: Double? = nil,
        uuid: String? = nil,
        redirectURL: String? = nil,
        zoneID: RecordZoneID? = nil,
        httpStatus: Int? = nil,
        httpHeaders: [String: String] = [:]
    ) {
        self.recordName = recordName
        self.reason = reason
        self.serverErrorCode = serverErrorCode
        self.retryAfter = retryAfter
        self.uuid = uuid
        self.redirectURL = redirectURL
        self.zoneID = zoneID
        self.httpStatus = httpStatus
        self.httpHeaders = httpHeaders
    }

    /// The error of a failed HTTP response, from what the caller read of it: its status, its
    /// header fields and its body.
    ///
    /// A body that is CloudKit's error dictionary gives the error its code, reason and the rest.
    /// Any other body — the plain text a proxy or an overloaded server answers `429` with, an
    /// HTML page, nothing — is no `DecodingError`: the code is the one the status stands for
    /// (see ``Code/init(httpStatus:)``), and the body's text, if any, is the reason. Either way the
    /// error keeps the status and the header fields, so that ``retryDelay(attempt:now:)`` waits
    /// as long as the response's `Retry-After` asks.
    ///
    /// ```swift
    /// let (body, response) = try await session.data(for: request)
    /// if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
    ///     let headers = http.allHeaderFields.reduce(into: [String: String]()) { fields, field in
    ///         fields["\(field.key)"] = "\(field.value)"
    ///     }
    ///     throw RecordServerError(httpStatus: http.statusCode, headers: headers, body: body)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - httpStatus: The response's status code.
    ///   - headers: The response's header fields; their names are matched without regard to case.
    ///   - body: The response's body.
    public init(httpStatus: Int, headers: [String: String] = [:], body: Data) {
        if let error = try? RecordJSONDecoder().decode(RecordServerError.self, from: body) {
            self = error
        } else {
            let text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            self.init(reason: text.isEmpty ? nil : text, serverErrorCode: Code(httpStatus: httpStatus))
        }
        self.httpStatus = httpStatus
        self.httpHeaders = headers
    }

    // MARK: What to do next

    /// Whether the record changed on the server since the change tag the request sent.
    ///
    /// Apple's reference calls this `CONFLICT`; the server answers `SERVER_RECORD_CHANGED` too.
    /// Either way the save did not happen: fetch the record again, apply the change to it, and
    /// save it with its new change tag.
    public var isConflict: Bool {
        serverErrorCode == .conflict || serverErrorCode == .serverRecordChanged
    }

    /// Whether sending the same request again, later, may succeed.
    ///
    /// It is: for a request the server throttled (`THROTTLED`), or could not serve for now
    /// (`TRY_AGAIN_LATER`, `SERVICE_UNAVAILABLE`, `ZONE_BUSY`), and for any error with a
    /// ``retryAfter`` or a `Retry-After` header field. An `INTERNAL_ERROR` is not, as Apple's reference tells it apart from
    /// `TRY_AGAIN_LATER` and CloudKit calls it unrecoverable; nor is a conflict, which needs the
    /// record fetched again first (see ``isConflict``).
    public var isRetryable: Bool {
        retryAfter != nil || headerDelay(now: Date()) != nil || Self.transientCodes.contains(serverErrorCode)
    }

    private static let transientCodes: Set<Code> = [.throttled, .tryAgainLater, .serviceUnavailable, .zoneBusy]

    /// The seconds to wait before sending the request again, or `nil` when retrying will not help
    /// (see ``isRetryable``).
    ///
    /// The delay the server asked for when it gives one: the body's ``retryAfter``, or the
    /// response's `Retry-After` header field (see ``httpHeaders``) — in seconds, or an HTTP date
    /// counted from `now` — the longer of the two when both are there. Otherwise a delay that
    /// doubles with each attempt, from 1 second for the first retry up to 64 seconds, as CloudKit
    /// advises for a busy zone.
    ///
    /// ```swift
    /// var attempt = 0
    /// while let delay = error.retryDelay(attempt: attempt), attempt < 5 {
    ///     try await Task.sleep(for: .seconds(delay))
    ///     attempt += 1
    ///     // send the request again…
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - attempt: How many times the request was retried already: 0 before the first retry.
    ///   - now: The time an HTTP date in `Retry-After` is counted from.
    public func retryDelay(attempt: Int = 0, now: Date = Date()) -> Double? {
        guard isRetryable else { return nil }
        if let asked = requestedDelay(now: now) { return asked }
        let doublings = min(max(attempt, 0), 6)
        return Double(1 << doublings)
    }

    /// The seconds the server itself asked to wait before a retry, or `nil` when it did not say:
    /// the body's ``retryAfter`` or the response's `Retry-After` header field (in seconds, or an
    /// HTTP date counted from `now`), the longer of the two when both are there.
    ///
    /// Unlike ``retryDelay(attempt:now:)``, it never falls back to a backoff of its own, so that a
    /// client with its own backoff (such as `CloudKitRetryPolicy`) can tell the server's delay
    /// from none. A `retryAfter` that is negative or not finite, and a `Retry-After` that is
    /// neither a number of seconds nor a date, say nothing.
    ///
    /// - Parameter now: The time an HTTP date in `Retry-After` is counted from.
    public func requestedDelay(now: Date = Date()) -> Double? {
        let body = retryAfter.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        return [body, headerDelay(now: now)].compactMap { $0 }.max()
    }

    /// The value of the header field `name` in ``httpHeaders``, whatever the case of its name.
    public func httpHeader(_ name: String) -> String? {
        let wanted = name.lowercased()
        return httpHeaders.first { $0.key.lowercased() == wanted }?.value
    }

    /// The seconds from `now` that the `Retry-After` header field asks to wait, or `nil` when
    /// there is none, or it is neither a number of seconds nor an HTTP date. A date already
    /// past asks for no wait.
    func headerDelay(now: Date) -> Double? {
        guard let value = httpHeader("Retry-After")?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
            return nil
        }
        if let seconds = Double(value) { return seconds.isFinite && seconds >= 0 ? seconds : nil }
        return HTTPDate.parse(value).map { max($0.timeIntervalSince(now), 0) }
    }

    // MARK: Wire form

    /// The error's JSON. A ``retryAfter`` that is NaN or infinite, which JSON cannot carry, is an
    /// `EncodingError`, as any such number is.
    func wireJSON(at path: [any CodingKey]) throws -> WireJSON {
        var object: [String: WireJSON] = ["serverErrorCode": .string(serverErrorCode.rawValue)]
        object.set("recordName", recordName.map(WireJSON.string))
        object.set("reason", reason.map(WireJSON.string))
        object.set(
            "retryAfter",
            try retryAfter.map { try WireField.finite($0, at: path + [AnyCodingKey(stringValue: "retryAfter")]) })
        object.set("uuid", uuid.map(WireJSON.string))
        object.set("redirectURL", redirectURL.map(WireJSON.string))
        object.set("zoneID", zoneID.map { WireField.zoneID($0) })
        return .object(object)
    }

    init(wire reader: WireReader) throws {
        httpHeaders = [:]
        serverErrorCode = Code(rawValue: try reader.member("serverErrorCode").string())
        recordName = try reader.optionalMember("recordName")?.string()
        reason = try reader.optionalMember("reason")?.string()
        retryAfter = try reader.optionalMember("retryAfter")?.double()
        uuid = try reader.optionalMember("uuid")?.string()
        redirectURL = try reader.optionalMember("redirectURL")?.string()
        zoneID = try reader.optionalMember("zoneID").map { try WireField.zoneID(from: $0) }
    }
}

extension RecordServerError: LocalizedError, CustomStringConvertible {
    /// The record or zone, the code and the server's reason.
    public var description: String {
        let subject: String
        if let recordName {
            subject = "Record '\(recordName)'"
        } else if let zoneID {
            subject = "Zone '\(zoneID.zoneName)'"
        } else {
            subject = "The record"
        }
        return "\(subject) failed with \(serverErrorCode.rawValue)" + (reason.map { ": \($0)" } ?? ".")
    }

    /// The record or zone, the code and the server's reason.
    public var errorDescription: String? { description }

    /// What to do about the error, for people: one suggestion for each code this package knows,
    /// and a general one for any other.
    public var recoverySuggestion: String? {
        Self.recoverySuggestions[serverErrorCode]
            ?? "Check the server's reason and the request; quote the error's uuid to Apple if it persists."
    }

    private static let recoverySuggestions: [Code: String] = [
        .accessDenied:
            "Check that the user or the server-to-server key may use this database, zone and record type, and the "
            + "security roles of the record type in CloudKit Console.",
        .atomicError:
            "Another operation of the same atomic request failed: fix that one, then send the request again.",
        .authenticationFailed:
            "Check the API token or the server-to-server key ID and signature, and that the signed date is current.",
        .authenticationRequired:
            "Sign the user in (redirect to the URL the server gives) and send the request with the web auth token.",
        .badRequest:
            "The server refused the request's shape: check the reason, the field types and the keys sent.",
        .conflict:
            "The record changed on the server: fetch it again, apply the change to it, and save it with its new "
            + "change tag.",
        .exists:
            "A record or zone of that name exists already: fetch it and update it, or save under another name.",
        .internalError:
            "The server failed on this request: sending it again unchanged is not expected to help. Quote the "
            + "error's uuid to Apple if it persists.",
        .notFound:
            "The record or resource does not exist: it may have been deleted. Check its name and zone.",
        .quotaExceeded:
            "The storage quota is used up: free space in the user's iCloud (private database) or the app's "
            + "(public database).",
        .throttled:
            "Too many requests: wait for retryAfter seconds, or longer after each attempt, then try again.",
        .tryAgainLater:
            "The server cannot serve the request now: try again after a short wait.",
        .validatingReferenceError:
            "The request would break a validating reference: save the record it points to first, or delete the "
            + "records that point to this one.",
        .zoneNotFound:
            "The zone does not exist: create it with a zones/modify request, or check the zone's name and owner.",
        .serverRecordChanged:
            "The record changed on the server: fetch it again, apply the change to it, and save it with its new "
            + "change tag.",
        .invalidArguments:
            "Check the request's parameters against the CloudKit Web Services reference.",
        .limitExceeded:
            "The request is too large: send fewer operations or smaller records per request.",
        .serviceUnavailable:
            "CloudKit cannot be reached for now: wait for retryAfter seconds, or longer after each attempt, then "
            + "try again.",
        .uniqueFieldError:
            "Another record has this value in a unique field: choose another value, or update that record.",
        .zoneBusy:
            "The zone is busy: wait a few seconds, longer after each attempt, then try again.",
    ]
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

/// The dates of HTTP's `Retry-After` header field: the preferred form, `Sun, 06 Nov 1994 08:49:37
/// GMT`, and the two obsolete ones a recipient must still read (RFC 9110, section 5.6.7).
enum HTTPDate {
    /// The date `text` spells, or `nil`.
    static func parse(_ text: String) -> Date? {
        // asctime pads a day below 10 with a space: "Sun Nov  6 08:49:37 1994".
        let words = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        for format in ["EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: words) { return date }
        }
        return nil
    }
}
