import Foundation
import Testing

@testable import RecordCodable

/// Encodes `value`, decodes the record back, and returns both, so that a test can check the
/// record's shape and the round trip in one go.
@discardableResult
func roundTrip<T: Codable & Equatable>(
    _ value: T,
    encoder: RecordEncoder = RecordEncoder(),
    decoder: RecordDecoder = RecordDecoder(),
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> Record {
    let record = try encoder.encode(value)
    let decoded = try decoder.decode(T.self, from: record)
    #expect(decoded == value, sourceLocation: sourceLocation)
    return record
}

/// A coding path as text: keys by their string values, joined by dots ("children.Index 0.name").
func pathText(_ path: [any CodingKey]) -> String {
    path.map(\.stringValue).joined(separator: ".")
}

extension DecodingError {
    /// The error's kind, as a word to compare in tests.
    var kind: String {
        switch self {
        case .typeMismatch: "typeMismatch"
        case .valueNotFound: "valueNotFound"
        case .keyNotFound: "keyNotFound"
        case .dataCorrupted: "dataCorrupted"
        @unknown default: "unknown"
        }
    }

    var context: Context? {
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            context
        @unknown default:
            nil
        }
    }

    /// The full path of the failure: for a missing key, the container's path and the key.
    var fullPath: String {
        if case .keyNotFound(let key, let context) = self { return pathText(context.codingPath + [key]) }
        return context.map { pathText($0.codingPath) } ?? ""
    }
}

extension EncodingError {
    var context: Context? {
        if case .invalidValue(_, let context) = self { return context }
        return nil
    }

    /// The value that could not be encoded.
    var value: Any? {
        if case .invalidValue(let value, _) = self { return value }
        return nil
    }

    var path: String { context.map { pathText($0.codingPath) } ?? "" }
}

/// Expects `body` to throw a `DecodingError` of `kind` at `path`, and returns it.
@discardableResult
func expectDecodingError(
    _ kind: String, at path: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) -> DecodingError? {
    let error = #expect(throws: DecodingError.self, sourceLocation: sourceLocation) { try body() }
    if let error {
        #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
        #expect(error.fullPath == path, "\(error)", sourceLocation: sourceLocation)
    }
    return error
}

/// Expects `body` to throw an `EncodingError` at `path`, and returns it.
@discardableResult
func expectEncodingError(
    at path: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) -> EncodingError? {
    let error = #expect(throws: EncodingError.self, sourceLocation: sourceLocation) { try body() }
    if let error {
        #expect(error.path == path, "\(error)", sourceLocation: sourceLocation)
    }
    return error
}

/// A model with one property, to test how a single type is stored.
struct Box<Value: Codable & Equatable>: Codable, Equatable {
    var id = "box"
    var value: Value
}

/// A model with one optional property.
struct OptionalBox<Value: Codable & Equatable>: Codable, Equatable {
    var id = "box"
    var value: Value?
}

/// A record holding `value` under the field "value", as a `Box` is stored.
func boxRecord(_ value: RecordValue?) -> Record {
    var record = Record(recordType: "Box", recordName: "box")
    record["value"] = value
    return record
}

/// Runs `body` with a path of its own in the temporary directory, for a test's asset files, and
/// removes whatever the test put there — a folder and its files, or a single file — when `body`
/// returns or throws. Nothing is created at the path beforehand.
func withTemporaryDirectory<Result>(_ body: (URL) throws -> Result) rethrows -> Result {
    let directory = newTemporaryPath()
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}

/// `withTemporaryDirectory(_:)` for a test whose body awaits.
func withTemporaryDirectoryAsync<Result>(_ body: (URL) async throws -> Result) async rethrows -> Result {
    let directory = newTemporaryPath()
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

private func newTemporaryPath() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("RecordCodableTests-\(UUID().uuidString)")
}

/// Runs `body` on a new thread with a stack of `stackSize` bytes — 512 KB, a secondary thread's
/// default on Apple platforms — and returns what it returns or throws what it throws. Input that
/// recursed without bound would overflow that stack and crash the test run.
func onSmallStack<Result: Sendable>(
    stackSize: Int = 512 * 1024, _ body: @escaping @Sendable () throws -> Result
) throws -> Result {
    let outcome = ThreadOutcome<Result>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        outcome.result = Swift.Result { try body() }
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
    guard let result = outcome.result else { throw CancellationError() }
    return try result.get()
}

/// What a thread's body returned or threw. Written by the thread before it signals, read after
/// the wait: never at once.
private final class ThreadOutcome<Value>: @unchecked Sendable {
    var result: Result<Value, any Error>?
}

/// A decoder that reads records of any type (`checksRecordType` off), for tests of what a record
/// holds rather than of its type.
let anyTypeDecoder: RecordDecoder = {
    var decoder = RecordDecoder()
    decoder.checksRecordType = false
    return decoder
}()
