import Foundation

/// One entry of a page of records in a response: the record, the server's reason for not
/// returning it, or a record that came but could not be read.
public enum RecordResult: Hashable, Sendable {
    // The two cases other than a record are stored indirectly: inline, an error (152 bytes) or an
    // unreadable record (200) would make every entry of a page that size, where a record is 72.

    /// The record as the server has it, with its new change tag and timestamps.
    case success(Record)
    /// Why the operation on this record failed.
    indirect case failure(RecordServerError)
    /// A record the server returned that this package cannot read, such as one with a field of a
    /// type newer than the package. The other records of the page are read all the same.
    indirect case unreadable(UnreadableRecord)

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
        try results.wireJSON(member: "records", at: path) { try $0.wireJSON(at: $1) }
    }
}
