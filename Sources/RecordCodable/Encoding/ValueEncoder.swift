import Foundation

/// Encodes one value — a field, or one element of a list field — and finds out from the value's
/// own `encode(to:)` which form it has: its ``ValueForm``.
///
/// - A single value (a raw-value enum, a wrapper, a `UUID`) becomes a native field.
/// - An unkeyed container of single values of one kind becomes a ``RecordValue/list(_:)``.
/// - A keyed container, or anything else with no native form, is stored by another route: a
///   linked model as a reference, an asset value as a file, anything else as JSON.
///
/// A value of that last kind runs its `encode(to:)` twice: here, where its writes are ignored
/// from the moment it shows it has no native form (the ``ValueFormFinder`` is then settled), and
/// again on the route that stores it — the JSON encoder, the linked model's name, the asset's
/// file. An error the value throws here after that moment is dropped: the second run, which
/// stores the value, reports it with the same path.
///
/// The encoder is its own single-value container; its unkeyed container writes straight into it.
/// An engine reuses one encoder from value to value (see ``start(at:isElement:)``).
final class ValueEncoder: Encoder, SingleValueEncodingContainer {
    /// The engine of the record. `nil` only while the engine is kept between records with this
    /// encoder as its spare (see ``SpareEngines``): a strong reference back would keep the engine
    /// from ever being the only reference to itself. Changed only by the engine, between values.
    @exclusivity(unchecked) private(set) var engine: RecordEncodingEngine?

    // The encoder's state, which only its own methods and containers change (and `engine`, which
    // only the engine changes). One value uses the encoder at a time on one thread, and no access
    // to the state lasts across a call into a value's code (a nested value's form is found first
    // and stored after), so accesses never overlap: the run-time exclusivity checks, which would
    // cost as much as a field's own work, are turned off.
    @exclusivity(unchecked) private var location = ValuePath(.root)
    @exclusivity(unchecked) private var form = ValueFormFinder(isElement: false)

    init(engine: RecordEncodingEngine) {
        self.engine = engine
    }

    /// Lets go of the engine, or takes it again: see `engine`.
    func attach(to engine: RecordEncodingEngine?) {
        self.engine = engine
    }

    /// Makes the encoder ready for the value at `path`. Encoders are reused from value to value,
    /// so that a record with many fields does not allocate one per field.
    func start(at path: consuming CodingPath, isElement: Bool) {
        location = ValuePath(path)
        form.restart(isElement: isElement)
    }

    /// The value's path.
    var path: CodingPath { location.path }

    /// The node of the value's path, built once, when an element or an error first needs it.
    var node: CodingPathNode { location.node() }

    /// Whether the value is an element of a list.
    var isElement: Bool { form.isElement }

    /// Whether the value has shown that it has no native form: its writes are ignored from then on.
    var isSettled: Bool { form.isSettled }

    /// What the value showed itself to be. The list, if any, moves out: call this once, when the
    /// value is done.
    func finish() -> ValueForm {
        form.finish()
    }

    /// Notes that the value has no native form.
    func giveUp() {
        form.giveUp()
    }

    /// Adds an element to the list (see ``ValueFormFinder/append(_:)``).
    func append(_ element: EncodedValue) {
        form.append(element)
    }

    /// How many elements the list holds so far.
    var elementCount: Int { form.elementCount }

    // MARK: Encoder

    var codingPath: [any CodingKey] { node.path }

    var userInfo: [CodingUserInfoKey: Any] { engine?.userInfo ?? [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        form.beginKeyed()
        return KeyedEncodingContainer(IgnoredKeyedContainer(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        form.beginList()
        return ListContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        self
    }

    // MARK: SingleValueEncodingContainer

    private func set(_ value: EncodedValue) {
        form.setSingle(value)
    }

    func encodeNil() throws { form.setNull() }

    func encode(_ value: String) throws { set(EncodedValue(.string(value), size: value.utf8.count)) }
    func encode(_ value: Bool) throws { set(EncodedValue(.int64(value ? 1 : 0), size: 8)) }
    func encode(_ value: Double) throws { set(EncodedValue(.double(value), size: 8)) }
    func encode(_ value: Float) throws { set(EncodedValue(.double(Double(value)), size: 8)) }
    func encode(_ value: Int) throws { try setInteger(value) }
    func encode(_ value: Int8) throws { try setInteger(value) }
    func encode(_ value: Int16) throws { try setInteger(value) }
    func encode(_ value: Int32) throws { try setInteger(value) }
    func encode(_ value: Int64) throws { try setInteger(value) }
    func encode(_ value: UInt) throws { try setInteger(value) }
    func encode(_ value: UInt8) throws { try setInteger(value) }
    func encode(_ value: UInt16) throws { try setInteger(value) }
    func encode(_ value: UInt32) throws { try setInteger(value) }
    func encode(_ value: UInt64) throws { try setInteger(value) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func encode(_ value: Int128) throws { try setInteger(value) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func encode(_ value: UInt128) throws { try setInteger(value) }

    /// Sets an integer, unless the value is settled: an integer written after that is not checked,
    /// as the route that stores the value checks it.
    @inline(__always)
    private func setInteger(_ value: some FixedWidthInteger) throws {
        guard !form.isSettled else { return }
        set(try integer(value, at: path))
    }

    func encode<T: Encodable>(_ value: T) throws {
        // A value written after another has no native form: it is not encoded here.
        guard form.isUnwritten, let engine else { return form.giveUp() }
        // Found before it is stored: finding it runs the value's own code, which may use
        // another value encoder of this engine.
        let found = try isElement ? engine.encodeElement(value, at: path) : engine.encodeField(value, at: path)
        if let found { form.setSingle(found) } else if isElement { form.giveUp() } else { form.setNull() }
    }
}

/// An integer as a field, or an error for an unsigned one over `Int64.max`. The path is worked out
/// only for the error.
@inline(__always)
func integer(_ value: some FixedWidthInteger, at path: @autoclosure () -> CodingPath) throws -> EncodedValue {
    guard let number = Int64(exactly: value) else { throw EncodingError.integerOverflow(value, at: path()) }
    return EncodedValue(.int64(number), size: 8)
}

/// The unkeyed container of a ``ValueEncoder``: each element is encoded alone and appended. Once
/// the value is settled, elements are ignored: they are not even encoded.
private struct ListContainer: UnkeyedEncodingContainer {
    let encoder: ValueEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.elementCount }

    private var elementPath: CodingPath { CodingPath(parent: encoder.node, last: .index(count)) }

    mutating func encodeNil() throws { encoder.giveUp() }

    mutating func encode(_ value: String) throws {
        encoder.append(EncodedValue(.string(value), size: value.utf8.count))
    }
    mutating func encode(_ value: Bool) throws { encoder.append(EncodedValue(.int64(value ? 1 : 0), size: 8)) }
    mutating func encode(_ value: Double) throws { encoder.append(EncodedValue(.double(value), size: 8)) }
    mutating func encode(_ value: Float) throws { encoder.append(EncodedValue(.double(Double(value)), size: 8)) }
    mutating func encode(_ value: Int) throws { try appendInteger(value) }
    mutating func encode(_ value: Int8) throws { try appendInteger(value) }
    mutating func encode(_ value: Int16) throws { try appendInteger(value) }
    mutating func encode(_ value: Int32) throws { try appendInteger(value) }
    mutating func encode(_ value: Int64) throws { try appendInteger(value) }
    mutating func encode(_ value: UInt) throws { try appendInteger(value) }
    mutating func encode(_ value: UInt8) throws { try appendInteger(value) }
    mutating func encode(_ value: UInt16) throws { try appendInteger(value) }
    mutating func encode(_ value: UInt32) throws { try appendInteger(value) }
    mutating func encode(_ value: UInt64) throws { try appendInteger(value) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128) throws { try appendInteger(value) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128) throws { try appendInteger(value) }

    /// Appends an integer element; one out of range is an error at its index, unless the list is
    /// settled, when the route that stores it checks it instead.
    @inline(__always)
    private func appendInteger(_ value: some FixedWidthInteger) throws {
        guard !encoder.isSettled else { return }
        encoder.append(try integer(value, at: elementPath))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        guard !encoder.isSettled else { return }
        // A collection of optionals is JSON by its type, not only when it holds a `nil`: so that
        // its field's type does not change with its content. Optional linked models are the
        // exception: their references are a list. Asked once, at the first element.
        if count == 0, let optional = T.self as? any OptionalValue.Type,
            !(optional.wrappedType is any LinkedRecord.Type)
        {
            return encoder.giveUp()
        }
        guard let engine = encoder.engine, let element = try engine.encodeElement(value, at: elementPath) else {
            return encoder.giveUp()
        }
        encoder.append(element)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        encoder.giveUp()
        return KeyedEncodingContainer(IgnoredKeyedContainer(encoder: encoder))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        encoder.giveUp()
        return self
    }

    mutating func superEncoder() -> any Encoder {
        encoder.giveUp()
        return encoder
    }
}

/// The keyed container of a value that has no native form of its own: its writes are ignored,
/// since the value is stored by a route that encodes it again (see ``ValueEncoder``).
private struct IgnoredKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ValueEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {}

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(IgnoredKeyedContainer<NestedKey>(encoder: encoder))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { encoder }
    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
}
