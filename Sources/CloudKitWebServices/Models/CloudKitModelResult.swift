import RecordCodable

/// One model read from a page of records: the model, or why its entry gives none.
///
/// As a page's entries read record by record (`RecordResult`), a record that does not fit the
/// model loses only its own model, not the page's others: it is reported here, never thrown
/// for the whole page.
///
/// ```swift
/// for try await page in database.queryModels(Note.self, RecordsQueryRequest(query: RecordQuery(recordType: "Note"))) {
///     for result in page {
///         switch result {
///         case .success(let note): show(note)
///         case .undecodable(let record, let error): log("\(record.recordName): \(error)")
///         case .unreadable(let unreadable): log(unreadable)
///         case .failure(let error): log(error)
///         }
///     }
/// }
/// ```
public enum CloudKitModelResult<Model> {
    /// The model.
    case success(Model)
    /// A record that was read, but does not decode as the model, and why.
    case undecodable(Record, DecodingError)
    /// A record the server sent that cannot be read as a record at all, such as one with a field
    /// of a type newer than the package.
    case unreadable(UnreadableRecord)
    /// The server's reason for not returning the record.
    case failure(RecordServerError)

    /// The model, or `nil`.
    public var model: Model? {
        if case .success(let model) = self { return model }
        return nil
    }

    /// Returns the model, or throws why there is none: the `DecodingError`, the
    /// `UnreadableRecord` or the `RecordServerError`.
    public func get() throws -> Model {
        switch self {
        case .success(let model): return model
        case .undecodable(_, let error): throw error
        case .unreadable(let unreadable): throw unreadable
        case .failure(let error): throw error
        }
    }

    /// The model of one entry of a page.
    init(_ entry: RecordResult, decoder: RecordDecoder) where Model: Decodable {
        switch entry {
        case .success(let record):
            do {
                self = .success(try decoder.decode(Model.self, from: record))
            } catch let error as DecodingError {
                self = .undecodable(record, error)
            } catch {
                // The decoder throws decoding errors only; any other is kept as the reason.
                self = .undecodable(
                    record,
                    DecodingError.dataCorrupted(
                        .init(codingPath: [], debugDescription: "\(error)", underlyingError: error)))
            }
        case .failure(let error): self = .failure(error)
        case .unreadable(let unreadable): self = .unreadable(unreadable)
        }
    }
}

extension CloudKitModelResult: Sendable where Model: Sendable {}
