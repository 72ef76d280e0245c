import Foundation
import RecordCodable

/// Why a call to CloudKit Web Services failed: the request, the record when there is one, and
/// the server's reason or the connection's.
///
/// Refusals of single records in an answer are no `CloudKitError`: they come back inside the
/// response (`RecordResult/failure(_:)`), as CloudKit sends them. A `CloudKitError` is thrown
/// when there is no answer to return:
///
/// ```swift
/// do {
///     let page = try await database.queryRecords(request)
/// } catch let error as CloudKitError {
///     print(error.operation)                      // "records/query"
///     if let refusal = error.serverError {          // the server's code, reason and uuid
///         print(refusal.serverErrorCode, refusal.reason ?? "")
///     }
/// }
/// ```
public struct CloudKitError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// What went wrong.
    public enum Reason: Sendable {
        /// The server refused the request as a whole, with its code and reason.
        case server(RecordServerError)
        /// The connection failed before an answer came: the server may or may not have applied
        /// the request.
        case noAnswer(any Error)
        /// The server answered with success, but its body is not the answer of this operation.
        case unreadableAnswer(status: Int, any Error)
        /// The request was not sent: it cannot be written or carried as it is (too many
        /// operations for an atomic request, a value CloudKit's JSON cannot carry, an asset file
        /// that cannot be read).
        case invalidRequest(String)
    }

    /// The operation of the request, as its URL ends: `records/modify`, `zones/list`,
    /// `assets/upload`, or `asset upload` for the upload of a file's bytes.
    public var operation: String

    /// The name of the record the failure is about, when there is one: the server's, else the
    /// request's only record.
    public var recordName: String?

    /// What went wrong.
    public var reason: Reason

    /// How many times the request was sent: 1 when it was not retried, 0 when it was not sent.
    public var attempts: Int

    /// For a records-modify request, the results of the operations the server answered for good
    /// before this failure, in the order of the operations: those of the parts of a request split
    /// into several that completed, and those an earlier attempt settled when the failure came
    /// while the records it refused for now were sent again. Those records are saved, deleted or
    /// refused as their results say. Empty otherwise.
    public var completed: [RecordResult]

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - operation: The operation of the request, such as `records/modify`.
    ///   - recordName: The name of the record the failure is about.
    ///   - reason: What went wrong.
    ///   - attempts: How many times the request was sent.
    ///   - completed: The results of the parts of a split request that completed.
    public init(
        operation: String, recordName: String? = nil, reason: Reason, attempts: Int = 1,
        completed: [RecordResult] = []
    ) {
        self.operation = operation
        self.recordName = recordName ?? reason.serverRecordName
        self.reason = reason
        self.attempts = attempts
        self.completed = completed
    }

    /// The server's refusal, when the server refused the request as a whole.
    public var serverError: RecordServerError? {
        if case .server(let error) = reason { return error }
        return nil
    }

    /// The operation, the record and the reason, for people.
    public var description: String {
        let subject = "CloudKit \(operation)" + (recordName.map { " of record '\($0)'" } ?? "")
        let tries = attempts > 1 ? " (after \(attempts) attempts)" : ""
        switch reason {
        case .server(let error):
            let code = error.serverErrorCode.rawValue
            let status = error.httpStatus.map { " (HTTP \($0))" } ?? ""
            return "\(subject) failed with \(code)\(status)\(tries)" + (error.reason.map { ": \($0)" } ?? ".")
        case .noAnswer(let error):
            return "\(subject) got no answer\(tries): \(error.localizedDescription)"
        case .unreadableAnswer(let status, let error):
            return "\(subject) got an answer (HTTP \(status)) that cannot be read: \(error)"
        case .invalidRequest(let why):
            return "\(subject) was not sent: \(why)"
        }
    }

    /// The operation, the record and the reason, for people.
    public var errorDescription: String? { description }
}

extension CloudKitError.Reason {
    /// The record the server's refusal names.
    fileprivate var serverRecordName: String? {
        if case .server(let error) = self { return error.recordName }
        return nil
    }
}
