/// What the coders ask of an optional type at run time: the type it wraps — to tell an optional
/// linked model from an optional reference, and to name the record of an optional model — and its
/// `nil`. Collections of optionals are stored as JSON whatever they hold.
protocol OptionalValue {
    static var wrappedType: Any.Type { get }
    static var nilValue: Self { get }
    var isNil: Bool { get }
}

extension Optional: OptionalValue {
    static var wrappedType: Any.Type { Wrapped.self }
    static var nilValue: Self { .none }
    var isNil: Bool { self == nil }
}
