import Foundation

/// Decodes one value — a field, or one element of a list field — for a type that decodes itself.
///
/// The decoder is its own single-value container: a raw-value enum, a wrapper or an optional reads
/// the field's value through it. Its unkeyed container reads a list's elements one by one. A keyed
/// container, or an unkeyed one over JSON bytes, means the value was stored as JSON: the decoder
/// hands out the JSON decoder's own container for it, with the field's path before its own, so
/// that the value reads on where it is, whatever it does with the container or its errors. (Most
/// values stored as JSON never get here: a field that holds a JSON object or array is decoded
/// whole before its value runs, by ``RecordDecodingEngine/decodeField(_:from:at:)``.)
///
/// The decoder's state is ``state``, and only ``start(_:at:)`` and ``finish()`` write it. Its
/// rules (checked by `assert` in debug builds):
/// - One value at a time: a decoder is started, used by one value's `init(from:)` on one thread,
///   then finished, and only then started again (the engine keeps a finished one as its spare).
/// - A finished decoder holds no value, so a spare keeps no record data alive.
final class ValueDecoder: Decoder, SingleValueDecodingContainer {
    /// Everything that changes from one value to the next.
    struct State {
        /// The value to decode, or `nil` for a field that is missing.
        var value: RecordValue?
        var location: ValuePath
    }

    let engine: RecordDecodingEngine

    /// The value being decoded. (Written only between values, and read by the one `init(from:)`
    /// running on this decoder's thread, so no two accesses overlap: the run-time exclusivity
    /// checks, which cost as much as starting on a value, are turned off.)
    @exclusivity(unchecked) private var state = State(value: nil, location: ValuePath(.root))

    init(engine: RecordDecodingEngine) {
        self.engine = engine
    }

    /// Makes the decoder ready for `value`. Decoders are reused from value to value, so that a
    /// record with many fields does not allocate one per field.
    func start(_ value: RecordValue?, at path: CodingPath) {
        state = State(value: value, location: ValuePath(path))
    }

    /// Lets go of the value, so that a spare decoder holds no data.
    func finish() {
        state.value = nil
    }

    /// The value to decode, or `nil` for a field that is missing.
    var value: RecordValue? { state.value }

    /// The value's path.
    var path: CodingPath { state.location.path }

    /// The node of the value's path, built once, when an element or an error first needs it.
    var node: CodingPathNode { state.location.node() }

    // MARK: Decoder

    var codingPath: [any CodingKey] { node.path }

    var userInfo: [CodingUserInfoKey: Any] { engine.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let value = try present(
            KnownTypes.dictionary, "Cannot get keyed decoding container -- found null value instead")
        guard case .bytes(let data) = value else {
            throw DecodingError.typeMismatch(KnownTypes.dictionary, found: value, at: path)
        }
        return try engine.jsonDecoder(for: data, at: path).container(keyedBy: type)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch try present(KnownTypes.array, "Cannot get unkeyed decoding container -- found null value instead") {
        case .list(let elements):
            return ListDecodingContainer(decoder: self, elements: elements)
        case .bytes(let data):
            return try engine.jsonDecoder(for: data, at: path).unkeyedContainer()
        case let value:
            throw DecodingError.typeMismatch(KnownTypes.array, found: value, at: path)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        self
    }

    /// The value, or `valueNotFound` in Foundation's words: `description`, or those of a single value.
    private func present(_ type: Any.Type, _ description: String? = nil) throws -> RecordValue {
        guard let value else {
            throw DecodingError.valueNotFound(
                type, at: path, description ?? "Expected \(type) value but found nothing instead.")
        }
        return value
    }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool { value == nil }

    func decode(_ type: String.Type) throws -> String {
        try Unbox.string(present(type), readingBytes: engine.options.readsStringsFromUTF8Bytes, at: path)
    }
    func decode(_ type: Bool.Type) throws -> Bool { try Unbox.bool(present(type), at: path) }
    func decode(_ type: Double.Type) throws -> Double { try Unbox.double(present(type), at: path) }
    func decode(_ type: Float.Type) throws -> Float { try Unbox.float(present(type), at: path) }
    func decode(_ type: Int.Type) throws -> Int { try Unbox.integer(type, from: present(type), at: path) }
    func decode(_ type: Int8.Type) throws -> Int8 { try Unbox.integer(type, from: present(type), at: path) }
    func decode(_ type: Int16.Type) throws -> Int16 { try Unbox.integer(type, from: present(type), at: path) }
    func decode(_ type: Int32.Type) throws -> Int32 { try Unbox.integer(type, from: present(type), at: path) }
    func decode(_ type: Int64.Type) throws -> Int64 { try Unbox.integer(type, from: present(type), at: path) }
    func decode(_ type: UInt.Type) throws -> UInt { try Unbox.integer(type, from: present(type), at: path) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try Unbox.integer(type, from: present(type), at: path) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try Unbox.integer(type, from: present(type), at: path) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try Unbox.integer(type, from: present(type), at: path) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try Unbox.integer(type, from: present(type), at: path) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type) throws -> Int128 { try Unbox.integer(type, from: present(type), at: path) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type) throws -> UInt128 { try Unbox.integer(type, from: present(type), at: path) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // With no value, an optional (or a wrapper of one) still decodes: as nil.
        guard let value else { return try T(from: self) }
        return try engine.decodeField(type, from: value, at: path)
    }
}

/// The unkeyed container of a list field: each element is decoded alone.
private struct ListDecodingContainer: UnkeyedDecodingContainer {
    let decoder: ValueDecoder
    let elements: [RecordValue]
    private(set) var currentIndex = 0

    init(decoder: ValueDecoder, elements: [RecordValue]) {
        self.decoder = decoder
        self.elements = elements
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private var elementPath: CodingPath { CodingPath(parent: decoder.node, last: .index(currentIndex)) }

    /// The next element. The index moves on only once the element has been decoded, so that a
    /// failed decode can be retried as another type, as Foundation's containers allow.
    private func peek(_ type: Any.Type) throws -> RecordValue {
        guard currentIndex < elements.count else {
            throw DecodingError.valueNotFound(type, at: elementPath, "Unkeyed container is at end.")
        }
        return elements[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        _ = try peek(Any.self)
        return false
    }

    /// Reads the current element with `read`, then moves on.
    private mutating func next<T>(_ type: Any.Type, _ read: (RecordValue, CodingPath) throws -> T) throws -> T {
        let value = try read(peek(type), elementPath)
        currentIndex += 1
        return value
    }

    mutating func decode(_ type: String.Type) throws -> String {
        let readsBytes = decoder.engine.options.readsStringsFromUTF8Bytes
        return try next(type) { try Unbox.string($0, readingBytes: readsBytes, at: $1) }
    }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try Unbox.bool($0, at: $1) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try Unbox.double($0, at: $1) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { try Unbox.float($0, at: $1) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try integer(type) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try integer(type) }

    private mutating func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        try next(type) { try Unbox.integer(type, from: $0, at: $1) }
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let engine = decoder.engine
        return try next(type) { try engine.decodeField(type, from: $0, at: $1) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let engine = decoder.engine
        return try next(type) { try Self.elementDecoder(engine, $0, at: $1).container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let engine = decoder.engine
        return try next(KnownTypes.array) { try Self.elementDecoder(engine, $0, at: $1).unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder {
        let engine = decoder.engine
        return try next(Any.self) { Self.elementDecoder(engine, $0, at: $1) }
    }

    /// A decoder of its own for a list element that a model reads through containers.
    private static func elementDecoder(_ engine: RecordDecodingEngine, _ element: RecordValue, at path: CodingPath)
        -> ValueDecoder
    {
        let elementDecoder = ValueDecoder(engine: engine)
        elementDecoder.start(element, at: path)
        return elementDecoder
    }
}
