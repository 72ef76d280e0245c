import Foundation

/// One model read by ``RecordStore/retrieveEach(_:inZone:)``: the model, or the record that does
/// not decode as it.
///
/// As the pages of records in a server's response read record by record (`RecordResult`), a
/// record that does not fit the model loses only its own model, not the others'.
public enum ModelResult<Model> {
    /// The model.
    case success(Model)
    /// A record of the model's type that does not decode as the model, and why.
    case unreadable(UnreadableModel)

    /// The model, or `nil` for a record that does not decode.
    public var model: Model? {
        if case .success(let model) = self { return model }
        return nil
    }

    /// The record that does not decode, or `nil`.
    public var unreadable: UnreadableModel? {
        if case .unreadable(let unreadable) = self { return unreadable }
        return nil
    }

    /// Returns the model, or throws the ``UnreadableModel``.
    public func get() throws -> Model {
        switch self {
        case .success(let model): return model
        case .unreadable(let unreadable): throw unreadable
        }
    }
}

extension ModelResult: Sendable where Model: Sendable {}
