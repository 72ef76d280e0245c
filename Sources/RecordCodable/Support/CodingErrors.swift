import Foundation

// Errors are built here, away from the hot path, with Foundation's wording and the full coding
// path of the value that failed.

extension DecodingError {
    @inline(never)
    static func numberDoesNotFit(_ number: some CustomStringConvertible, in type: Any.Type, at path: CodingPath)
        -> DecodingError
    {
        .dataCorrupted(
            Context(codingPath: path.keys, debugDescription: "Number \(number) does not fit in \(type)."))
    }

    @inline(never)
    static func corrupted(_ description: String, at path: CodingPath, underlyingError: (any Error)? = nil)
        -> DecodingError
    {
        .dataCorrupted(Context(codingPath: path.keys, debugDescription: description, underlyingError: underlyingError))
    }

    @inline(never)
    static func valueNotFound(_ type: Any.Type, at path: CodingPath, _ description: String) -> DecodingError {
        .valueNotFound(type, Context(codingPath: path.keys, debugDescription: description))
    }

    /// The coding path of the failure, keys joined by dots, and its message: `title: Expected
    /// to decode String but found a list instead.`, for a description that names both.
    package var pathAndDescription: String {
        let context: Context? =
            switch self {
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
                .dataCorrupted(let context):
                context
            @unknown default: nil
            }
        guard let context else { return "\(self)" }
        let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
    }

    /// The same error with `prefix` put before its coding path: an error from decoding the JSON
    /// of a nested value, whose path starts inside that value, placed at the value's field.
    func prefixingPath(with prefix: [any CodingKey]) -> DecodingError {
        guard !prefix.isEmpty else { return self }
        return withContext { context in
            Context(
                codingPath: prefix + context.codingPath, debugDescription: context.debugDescription,
                underlyingError: context.underlyingError)
        }
    }

    /// The same error — its kind, and its type or key — with the context that `change` makes of
    /// its own: for a module of the package that knows more than the coder did (a path or a
    /// message that names what the store calls the value).
    package func withContext(_ change: (Context) -> Context) -> DecodingError {
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
    @inline(never)
    static func invalid(_ value: Any, at path: CodingPath, _ description: String, underlyingError: (any Error)? = nil)
        -> EncodingError
    {
        invalid(value, at: path.keys, description, underlyingError: underlyingError)
    }

    @inline(never)
    static func invalid(
        _ value: Any, at path: [any CodingKey], _ description: String, underlyingError: (any Error)? = nil
    ) -> EncodingError {
        .invalidValue(
            printable(value), Context(codingPath: path, debugDescription: description, underlyingError: underlyingError)
        )
    }

    /// The value to carry in an error. Foundation traps when it describes a `Date` that is infinite or
    /// NaN, and describing an error describes its value, so such a date travels as its number of
    /// seconds since 1970.
    private static func printable(_ value: Any) -> Any {
        guard let date = value as? Date, !date.timeIntervalSinceReferenceDate.isFinite else { return value }
        return date.timeIntervalSince1970
    }

    /// The same error with `prefix` put before its coding path.
    func prefixingPath(with prefix: [any CodingKey]) -> EncodingError {
        guard !prefix.isEmpty else { return self }
        return withContext { context in
            Context(
                codingPath: prefix + context.codingPath, debugDescription: context.debugDescription,
                underlyingError: context.underlyingError)
        }
    }

    /// The same error, and its value, with the context that `change` makes of its own (see
    /// `DecodingError.withContext(_:)`).
    package func withContext(_ change: (Context) -> Context) -> EncodingError {
        switch self {
        case .invalidValue(let value, let context): .invalidValue(value, change(context))
        @unknown default: self
        }
    }
}
