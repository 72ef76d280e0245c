import Foundation

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

    /// The part of the record that reads: its name, type, system fields and every field that
    /// reads; `nil` when the record's name, system fields or parent do not read.
    ///
    /// One field with a malformed value — bad Base64, a type newer than the package — does not
    /// take the others with it: they are here, assets included, and the error of each field left
    /// out is in ``fieldErrors``.
    ///
    /// Saving it back never writes the fields left out. ``RecordOperation/init(saving:)`` saves it
    /// with an `update`, which leaves every field it does not carry as the server has it, and
    /// ``Record/update(to:)`` from it sends only what the edit changed; an operation that would
    /// clear them, a `replace` or `forceReplace`, is an `EncodingError` when written.
    ///
    /// ```swift
    /// if let unreadable = entry.unreadable, var part = unreadable.readablePart {
    ///     part["isFavorite"] = .int64(1)
    ///     let request = RecordsModifyRequest(savingRecords: [part])    // an update
    /// }
    /// ```
    public let readablePart: Record?

    /// The error of each field of the record that does not read, by field name, with the
    /// field's coding path. Empty when the fault is not in a field.
    public let fieldErrors: [String: DecodingError]

    /// The entry's JSON, as it came.
    let json: WireJSON

    init(reader: WireReader, error: DecodingError) {
        recordName = try? reader.optionalMember("recordName")?.string()
        self.error = error
        json = reader.json
        (readablePart, fieldErrors) = WireRecord.readablePart(from: reader)
    }

    /// The record's name and the reason it could not be read.
    public var description: String {
        let subject = recordName.map { "Record '\($0)'" } ?? "A record"
        return "\(subject) could not be read: \(error.pathAndDescription)"
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
