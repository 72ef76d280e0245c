import Foundation

// The coders' errors with a context that says more than the coder knew: a path or a message that
// names what the store calls the value.

extension DecodingError {
    /// The same error — its kind, and its type or key — with the context that `change` makes of
    /// its own.
    func withContext(_ change: (Context) -> Context) -> DecodingError {
        switch self {
        case .typeMismatch(let type, let context): .typeMismatch(type, change(context))
        case .valueNotFound(let type, let context): .valueNotFound(type, change(context))
        case .keyNotFound(let key, let context): .keyNotFound(key, change(context))
        case .dataCorrupted(let context): .dataCorrupted(change(context))
        @unknown default: self
        }
    }
}

extension EncodingError {
    /// The same error, and its value, with the context that `change` makes of its own.
    func withContext(_ change: (Context) -> Context) -> EncodingError {
        switch self {
        case .invalidValue(let value, let context): .invalidValue(value, change(context))
        @unknown default: self
        }
    }
}
