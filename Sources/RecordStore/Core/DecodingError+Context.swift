import Foundation

extension DecodingError {
    /// The same error — its kind, and its type or key — with the context that `change` makes of
    /// its own: a path or message that says more than the decoder knew.
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
