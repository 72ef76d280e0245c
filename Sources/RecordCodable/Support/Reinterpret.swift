/// `value` as `T`, which the caller has found to be `Value`'s type.
///
/// With `T` known only at run time, `value as? T` asks the runtime to cast, and to make the
/// metadata of `Optional<T>`, on every call. When the two types are the same, the value's bytes
/// already are a `T`: this copies them as one, which costs nothing. It never returns an optional,
/// for the same reason, and throws if the types differ.
@inline(__always)
func reinterpret<Value, T>(_ value: Value, as type: T.Type) throws -> T {
    guard Value.self == T.self else { throw NotTheSameType() }
    return unsafeBitCast(value, to: T.self)
}

/// Thrown by ``reinterpret(_:as:)`` when its caller was wrong about a type; never expected.
struct NotTheSameType: Error {}
