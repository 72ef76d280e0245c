import Foundation

/// Encodes one value — a field, or one element of a list field — and finds out from the value's
/// own `encode(to:)` which form it has.
///
/// - A single value (a raw-value enum, a wrapper, a `UUID`) becomes a native field.
/// - An unkeyed container of single values of one kind becomes a ``RecordValue/list(_:)``.
/// - Anything else — a keyed container, a `nil` or list element, elements of mixed kinds — has no
///   native form. The encoder then stops the value with ``NoNativeForm``, and the caller stores
///   the value as JSON.
///
/// The encoder is its own single-value container; its unkeyed container writes straight into it.
final class ValueEncoder: Encoder, SingleValueEncodingContainer {
    private enum Content {
        case nothing
        case null
        case single(EncodedValue)
        case list
    }

    let engine: RecordEncodingEngine

    // Used by one value at a time on one thread, with no overlapping accesses: the run-time
    // exclusivity checks are turned off, as in the record's engine.

    @exclusivity(unchecked) private var location = ValuePath(.root)
    /// Whether the value is an element of a list, which must be a single value.
    @exclusivity(unchecked) private(set) var isElement = false

    @exclusivity(unchecked) private var content = Content.nothing
    @exclusivity(unchecked) private var elements: [RecordValue] = []
    @exclusivity(unchecked) private var elementsSize = 0
    /// Set once the value has shown that it has no native form.
    @exclusivity(unchecked) private(set) var hasNoNativeForm = false
    /// Set when the value asked for a keyed container: it is a struct or a class.
    @exclusivity(unchecked) private(set) var isKeyed = false

    init(engine: RecordEncodingEngine) {
        self.engine = engine
    }

    /// Makes the encoder ready for the value at `path`. Encoders are reused from value to value,
    /// so that a record with many fields does not allocate one per field.
    func start(at path: consuming CodingPath, isElement: Bool) {
        location = ValuePath(path)
        self.isElement = isElement
        content = .nothing
        elements = []
        elementsSize = 0
        hasNoNativeForm = false
        isKeyed = false
    }

    /// The value's path.
    var path: CodingPath { location.path }

    /// The node of the value's path, built once, when an element or an error first needs it.
    var node: CodingPathNode { location.node() }

    var isList: Bool {
        if case .list = content { return true }
        return false
    }

    /// What the value encoded: `nil` for a `nil` value; a value that encoded nothing is an empty
    /// JSON object, as Foundation's JSON encoder writes it.
    ///
    /// The result is moved out, not copied, so the encoder holds no part of it afterwards: call
    /// this once, when the value is done.
    func takeResult() -> EncodedValue? {
        var taken = Content.nothing
        swap(&taken, &content)
        switch consume taken {
        case .nothing:
            return EncodedValue(.bytes(Data("{}".utf8)), size: 2)
        case .null:
            return nil
        case .single(let value):
            return value
        case .list:
            var list: [RecordValue] = []
            swap(&list, &elements)
            return EncodedValue(.list(list), size: elementsSize)
        }
    }

    /// Notes that the value has no native form and returns the signal to stop it.
    func noNativeForm() -> NoNativeForm {
        hasNoNativeForm = true
        return NoNativeForm()
    }

    // MARK: Encoder

    var codingPath: [any CodingKey] { node.path }

    var userInfo: [CodingUserInfoKey: Any] { engine.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        hasNoNativeForm = true
        if case .nothing = content { isKeyed = true }
        return KeyedEncodingContainer(NoNativeFormKeyedContainer(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        switch content {
        case .nothing, .list:
            content = .list
        case .null, .single:
            hasNoNativeForm = true
        }
        if isElement { hasNoNativeForm = true }
        return ListContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        self
    }

    // MARK: SingleValueEncodingContainer

    private func set(_ value: EncodedValue) throws {
        guard case .nothing = content else { throw noNativeForm() }
        content = .single(value)
    }

    func encodeNil() throws {
        guard case .nothing = content, !isElement else { throw noNativeForm() }
        content = .null
    }

    func encode(_ value: String) throws { try set(EncodedValue(.string(value), size: value.utf8.count)) }
    func encode(_ value: Bool) throws { try set(EncodedValue(.int64(value ? 1 : 0), size: 8)) }
    func encode(_ value: Double) throws { try set(EncodedValue(.double(value), size: 8)) }
    func encode(_ value: Float) throws { try set(EncodedValue(.double(Double(value)), size: 8)) }
    func encode(_ value: Int) throws { try set(integer(value, at: path)) }
    func encode(_ value: Int8) throws { try set(integer(value, at: path)) }
    func encode(_ value: Int16) throws { try set(integer(value, at: path)) }
    func encode(_ value: Int32) throws { try set(integer(value, at: path)) }
    func encode(_ value: Int64) throws { try set(integer(value, at: path)) }
    func encode(_ value: UInt) throws { try set(integer(value, at: path)) }
    func encode(_ value: UInt8) throws { try set(integer(value, at: path)) }
    func encode(_ value: UInt16) throws { try set(integer(value, at: path)) }
    func encode(_ value: UInt32) throws { try set(integer(value, at: path)) }
    func encode(_ value: UInt64) throws { try set(integer(value, at: path)) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func encode(_ value: Int128) throws { try set(integer(value, at: path)) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func encode(_ value: UInt128) throws { try set(integer(value, at: path)) }

    func encode<T: Encodable>(_ value: T) throws {
        guard case .nothing = content else { throw noNativeForm() }
        if isElement {
            content = .single(try engine.encodeElement(value, at: path))
        } else if let field = try engine.encodeField(value, at: path) {
            content = .single(field)
        } else {
            content = .null
        }
    }

    // MARK: The list

    /// Adds an element to the list; an element of another kind than the first has no native form.
    func append(_ element: EncodedValue) throws {
        if let first = elements.first, !first.isSameKind(as: element.value) {
            throw noNativeForm()
        }
        elements.append(element.value)
        elementsSize &+= element.size
    }

    var elementCount: Int { elements.count }
}

/// An integer as a field, or an error for an unsigned one over `Int64.max`. The path is worked out
/// only for the error.
@inline(__always)
func integer(_ value: some FixedWidthInteger, at path: @autoclosure () -> CodingPath) throws -> EncodedValue {
    guard let number = Int64(exactly: value) else { throw EncodingError.integerOverflow(value, at: path()) }
    return EncodedValue(.int64(number), size: 8)
}

extension RecordValue {
    /// Whether both values are the same case, whatever their payloads.
    func isSameKind(as other: RecordValue) -> Bool {
        switch (self, other) {
        case (.string, .string), (.int64, .int64), (.double, .double), (.bytes, .bytes), (.date, .date),
            (.asset, .asset), (.reference, .reference), (.location, .location), (.list, .list):
            true
        default:
            false
        }
    }
}

/// The unkeyed container of a ``ValueEncoder``: each element is encoded alone and appended.
private struct ListContainer: UnkeyedEncodingContainer {
    let encoder: ValueEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.elementCount }

    private var elementPath: CodingPath { CodingPath(parent: encoder.node, last: .index(count)) }

    mutating func encodeNil() throws { throw encoder.noNativeForm() }

    mutating func encode(_ value: String) throws {
        try encoder.append(EncodedValue(.string(value), size: value.utf8.count))
    }
    mutating func encode(_ value: Bool) throws { try encoder.append(EncodedValue(.int64(value ? 1 : 0), size: 8)) }
    mutating func encode(_ value: Double) throws { try encoder.append(EncodedValue(.double(value), size: 8)) }
    mutating func encode(_ value: Float) throws { try encoder.append(EncodedValue(.double(Double(value)), size: 8)) }
    mutating func encode(_ value: Int) throws { try encoder.append(integer(value, at: elementPath)) }
    mutating func encode(_ value: Int8) throws { try encoder.append(integer(value, at: elementPath)) }
    mutating func encode(_ value: Int16) throws { try encoder.append(integer(value, at: elementPath)) }
    mutating func encode(_ value: Int32) throws { try encoder.append(integer(value, at: elementPath)) }
    mutating func encode(_ value: Int64) throws { try encoder.append(integer(value, at: elementPath)) }
    mutating func encode(_ value: UInt) throws { try encoder.append(integer(value, at: elementPath)) }
    mutating func encode(_ value: UInt8) throws { try encoder.append(integer(value, at: elementPath)) }
    mutating func encode(_ value: UInt16) throws { try encoder.append(integer(value, at: elementPath)) }
    mutating func encode(_ value: UInt32) throws { try encoder.append(integer(value, at: elementPath)) }
    mutating func encode(_ value: UInt64) throws { try encoder.append(integer(value, at: elementPath)) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128) throws { try encoder.append(integer(value, at: elementPath)) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128) throws { try encoder.append(integer(value, at: elementPath)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        // A collection of optionals is JSON by its type, not only when it holds a `nil`: so that
        // its field's type does not change with its content. Optional linked models are the
        // exception: their references are a list. Asked once, at the first element.
        if count == 0, let optional = T.self as? any OptionalValue.Type,
            !(optional.wrappedType is any LinkedRecord.Type)
        {
            throw encoder.noNativeForm()
        }
        try encoder.append(encoder.engine.encodeElement(value, at: elementPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        encoder.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        _ = encoder.noNativeForm()
        return self
    }

    mutating func superEncoder() -> any Encoder {
        _ = encoder.noNativeForm()
        return encoder
    }
}

/// The keyed container of a value that turned out to have no native form: every write stops the
/// value, so that it can be stored as JSON instead.
private struct NoNativeFormKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ValueEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil(forKey key: Key) throws { throw encoder.noNativeForm() }
    mutating func encode(_ value: Bool, forKey key: Key) throws { throw encoder.noNativeForm() }
    mutating func encode(_ value: String, forKey key: Key) throws { throw encoder.noNativeForm() }
    mutating func encode(_ value: Double, forKey key: Key) throws { throw encoder.noNativeForm() }
    mutating func encode(_ value: Float, forKey key: Key) throws { throw encoder.noNativeForm() }
    mutating func encode(_ value: Int, forKey key: Key) throws { throw encoder.noNativeForm() }
    mutating func encode(_ value: Int8, forKey key: Key) throws { throw encoder.noNativeForm() }
    mutating func encode(_ value: Int16, forKey key: Key) throws { throw encoder.noNativeForm() }
    mutating func encode(_ value: Int32, forKey key: Key) throws { throw encoder.noNativeForm() }
    mutating func encode(_ value: Int64, forKey key: Key) throws { throw encoder.noNativeForm() }
    mutating func encode(_ value: UInt, forKey key: Key) throws { throw encoder.noNativeForm() }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { throw encoder.noNativeForm() }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { throw encoder.noNativeForm() }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { throw encoder.noNativeForm() }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { throw encoder.noNativeForm() }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128, forKey key: Key) throws { throw encoder.noNativeForm() }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128, forKey key: Key) throws { throw encoder.noNativeForm() }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw encoder.noNativeForm() }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        encoder.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { encoder }
    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
}
