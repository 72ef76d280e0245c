/// The first misuse of a ``TreeValue``'s containers, kept to be thrown when the record is
/// finished.
///
/// What Foundation's JSON encoder stops the program for — a second single value, a container of
/// one kind where a value or a container of another kind already is, nesting too deep — is kept
/// here instead, as an `EncodingError` at the path where it happened, so that the model gets an
/// error and no write is lost silently.
///
/// Rule: only the first misuse is kept; later ones, which often follow from it, are not.
struct FirstMisuse {
    private(set) var error: EncodingError?

    /// Keeps a misuse of `value` at `node`, unless one was kept before.
    mutating func note(_ value: Any, at node: CodingPathNode, _ description: String) {
        if error == nil { error = .invalid(value, at: node.path, description) }
    }
}
