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
