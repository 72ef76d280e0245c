import Foundation

/// Builds a placeholder value of a type, without data, so that a model's `init(from:)` can go on
/// past a property to the next one.
///
/// The value is the least the type will take: `nil` for every optional, empty collections, `0`,
/// `false` and `"0"` for plain values, the first case of a `CaseIterable` enum, and a fixed value
/// of each type with a fixed mapping. A type that refuses all of them — a raw-value enum that is
/// not `CaseIterable`, a type that checks its data — cannot be probed.
final class PlaceholderDecoder: Decoder, SingleValueDecodingContainer {
    private let depth: Int
    /// The path of the value from the record, which a failure reports.
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    /// A decoder of placeholders for a value at `codingPath` from the record, read as the reader
    /// likes.
    init(depth: Int = 0, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) {
        self.depth = depth
        self.codingPath = codingPath
        self.userInfo = userInfo
    }

    /// A placeholder value of `type`, for the value at `codingPath` from the record.
    ///
    /// - Throws: ``ProbeFailure`` at the path of the value that refuses every placeholder, or that
    ///   holds types more than ``ShapeProbe/maximumDepth`` deep.
    static func placeholder<T: Decodable>(
        of type: T.Type, at codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any], depth: Int = 0
    ) throws -> T {
        guard depth < ShapeProbe.maximumDepth else { throw ProbeFailure(.tooDeep(type), at: codingPath) }
        if let special = SpecialType(type), let value = special.placeholder as? T { return value }
        if let metadata = RecordMetadata() as? T { return metadata }
        do {
            return try T(from: PlaceholderDecoder(depth: depth, codingPath: codingPath, userInfo: userInfo))
        } catch let failure as ProbeFailure {
            throw failure
        } catch {
            // A plain enum refuses "0" as its raw value, but gives its cases when asked.
            if let cases = type as? any CaseIterable.Type, let first = Self.firstCase(of: cases) as? T {
                return first
            }
            throw ProbeFailure(.failed(type, error), at: codingPath)
        }
    }

    private static func firstCase<C: CaseIterable>(of type: C.Type) -> C? {
        type.allCases.first
    }

    /// A placeholder of a type that a container of this decoder reads, under `key` when the
    /// container has keys.
    fileprivate func placeholder<T: Decodable>(of type: T.Type, at key: (any CodingKey)? = nil) throws -> T {
        try Self.placeholder(of: type, at: path(to: key), userInfo: userInfo, depth: depth &+ 1)
    }

    /// A decoder of placeholders for the value under `key` of a container of this decoder.
    fileprivate func nested(at key: some CodingKey) -> PlaceholderDecoder {
        PlaceholderDecoder(depth: depth, codingPath: path(to: key), userInfo: userInfo)
    }

    private func path(to key: (any CodingKey)?) -> [any CodingKey] {
        guard let key else { return codingPath }
        return codingPath + [key]
    }

    // MARK: Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(EmptyKeyedContainer(decoder: self))
    }

    func unkeyedContainer() -> any UnkeyedDecodingContainer {
        EmptyUnkeyedContainer(decoder: self)
    }

    func singleValueContainer() -> any SingleValueDecodingContainer {
        self
    }

    // MARK: SingleValueDecodingContainer

    /// Every optional is `nil`.
    func decodeNil() -> Bool { true }

    func decode(_ type: Bool.Type) -> Bool { false }
    func decode(_ type: String.Type) -> String { "0" }
    func decode(_ type: Double.Type) -> Double { 0 }
    func decode(_ type: Float.Type) -> Float { 0 }
    func decode(_ type: Int.Type) -> Int { 0 }
    func decode(_ type: Int8.Type) -> Int8 { 0 }
    func decode(_ type: Int16.Type) -> Int16 { 0 }
    func decode(_ type: Int32.Type) -> Int32 { 0 }
    func decode(_ type: Int64.Type) -> Int64 { 0 }
    func decode(_ type: UInt.Type) -> UInt { 0 }
    func decode(_ type: UInt8.Type) -> UInt8 { 0 }
    func decode(_ type: UInt16.Type) -> UInt16 { 0 }
    func decode(_ type: UInt32.Type) -> UInt32 { 0 }
    func decode(_ type: UInt64.Type) -> UInt64 { 0 }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type) -> Int128 { 0 }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type) -> UInt128 { 0 }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try placeholder(of: type)
    }
}

extension SpecialType {
    /// A value of the type, for a placeholder.
    var placeholder: Any {
        switch self {
        case .date: Date(timeIntervalSince1970: 0)
        case .data: Data()
        case .url: URL(fileURLWithPath: "/")
        case .uuid: UUID()
        case .decimal: Decimal()
        case .reference: RecordReference(recordName: "placeholder")
        case .asset: RecordAsset()
        case .location: RecordLocation(latitude: 0, longitude: 0)
        case .strings: [String]()
        case .integers: [Int]()
        case .doubles: [Double]()
        case .dates: [Date]()
        }
    }
}

/// A keyed container with no keys: every optional property is `nil`, and every other one a
/// placeholder.
private struct EmptyKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: PlaceholderDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { false }
    func decodeNil(forKey key: Key) -> Bool { true }

    func decode(_ type: Bool.Type, forKey key: Key) -> Bool { decoder.decode(type) }
    func decode(_ type: String.Type, forKey key: Key) -> String { decoder.decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) -> Double { decoder.decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) -> Float { decoder.decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) -> Int { decoder.decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) -> Int8 { decoder.decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) -> Int16 { decoder.decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) -> Int32 { decoder.decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) -> Int64 { decoder.decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) -> UInt { decoder.decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) -> UInt8 { decoder.decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) -> UInt16 { decoder.decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) -> UInt32 { decoder.decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) -> UInt64 { decoder.decode(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.placeholder(of: type, at: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
        -> KeyedDecodingContainer<NestedKey>
    {
        decoder.nested(at: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedDecodingContainer {
        decoder.nested(at: key).unkeyedContainer()
    }

    func superDecoder() -> any Decoder { decoder }
    func superDecoder(forKey key: Key) -> any Decoder { decoder.nested(at: key) }
}

/// An unkeyed container at its end: a collection reads no element. A type that reads a fixed
/// number of elements anyway, such as a range, gets placeholders, each at its own index.
private struct EmptyUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: PlaceholderDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    private(set) var currentIndex = 0

    init(decoder: PlaceholderDecoder) {
        self.decoder = decoder
    }

    mutating func decodeNil() -> Bool {
        currentIndex &+= 1
        return true
    }

    mutating func decode(_ type: Bool.Type) -> Bool { next(decoder.decode(type)) }
    mutating func decode(_ type: String.Type) -> String { next(decoder.decode(type)) }
    mutating func decode(_ type: Double.Type) -> Double { next(decoder.decode(type)) }
    mutating func decode(_ type: Float.Type) -> Float { next(decoder.decode(type)) }
    mutating func decode(_ type: Int.Type) -> Int { next(decoder.decode(type)) }
    mutating func decode(_ type: Int8.Type) -> Int8 { next(decoder.decode(type)) }
    mutating func decode(_ type: Int16.Type) -> Int16 { next(decoder.decode(type)) }
    mutating func decode(_ type: Int32.Type) -> Int32 { next(decoder.decode(type)) }
    mutating func decode(_ type: Int64.Type) -> Int64 { next(decoder.decode(type)) }
    mutating func decode(_ type: UInt.Type) -> UInt { next(decoder.decode(type)) }
    mutating func decode(_ type: UInt8.Type) -> UInt8 { next(decoder.decode(type)) }
    mutating func decode(_ type: UInt16.Type) -> UInt16 { next(decoder.decode(type)) }
    mutating func decode(_ type: UInt32.Type) -> UInt32 { next(decoder.decode(type)) }
    mutating func decode(_ type: UInt64.Type) -> UInt64 { next(decoder.decode(type)) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        next(try decoder.placeholder(of: type, at: elementKey))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) -> KeyedDecodingContainer<
        NestedKey
    > {
        next(decoder.nested(at: elementKey).container(keyedBy: type))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedDecodingContainer {
        next(decoder.nested(at: elementKey).unkeyedContainer())
    }

    mutating func superDecoder() -> any Decoder {
        next(decoder.nested(at: elementKey))
    }

    /// The key of the element at `currentIndex`.
    private var elementKey: AnyCodingKey { AnyCodingKey(index: currentIndex) }

    /// `value`, the element at `currentIndex`, after which the container moves on.
    private mutating func next<Value>(_ value: Value) -> Value {
        currentIndex &+= 1
        return value
    }
}
