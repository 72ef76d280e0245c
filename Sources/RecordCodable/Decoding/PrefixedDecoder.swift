/// The JSON decoder's own decoder and containers, seen from the record.
///
/// When a model reads a JSON-stored field through `nestedContainer(keyedBy:forKey:)`,
/// `nestedUnkeyedContainer(forKey:)` or `superDecoder(forKey:)`, it gets the JSON decoder's
/// containers wrapped in these, so that coding paths — its own and those of any error — start at
/// the record's field rather than at the root of the JSON.
struct PrefixedDecoder: Decoder {
    let base: any Decoder
    let prefix: [any CodingKey]

    var codingPath: [any CodingKey] { prefix + base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let container = try prefixingErrors(prefix, at: base.codingPath) { try base.container(keyedBy: type) }
        return KeyedDecodingContainer(PrefixedKeyedContainer(base: container, prefix: prefix))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try prefixingErrors(prefix, at: base.codingPath) { try base.unkeyedContainer() }
        return PrefixedUnkeyedContainer(base: container, prefix: prefix)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        let container = try prefixingErrors(prefix, at: base.codingPath) { try base.singleValueContainer() }
        return PrefixedSingleValueContainer(base: container, prefix: prefix)
    }
}

/// Runs `body`, putting `prefix` before the coding path of any `DecodingError` it throws.
///
/// Foundation's JSON decoder reports JSON that it cannot read — a number too large for its type, a
/// string with a broken escape — with an error type of its own, which it turns into
/// `DecodingError.dataCorrupted` only on the way out of `decode(_:from:)`. These containers are
/// used after that call has returned, so that error is turned into one here, at `path`: the value
/// being read.
private func prefixingErrors<T>(
    _ prefix: [any CodingKey], at path: @autoclosure () -> [any CodingKey], _ body: () throws -> T
) throws -> T {
    do {
        return try body()
    } catch let error as DecodingError {
        throw error.prefixingPath(with: prefix)
    } catch  where NestedJSON.isReadError(error) {
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: prefix + path(), debugDescription: "The given data was not valid JSON.",
                underlyingError: error))
    }
}

private struct PrefixedKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let base: KeyedDecodingContainer<Key>
    let prefix: [any CodingKey]

    var codingPath: [any CodingKey] { prefix + base.codingPath }
    var allKeys: [Key] { base.allKeys }

    func contains(_ key: Key) -> Bool { base.contains(key) }

    /// Runs `body`, which reads the value for `key`, with the record's path on its errors.
    private func forward<T>(_ key: some CodingKey, _ body: () throws -> T) throws -> T {
        try prefixingErrors(prefix, at: base.codingPath + [key], body)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try forward(key) { try base.decodeNil(forKey: key) } }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try forward(key) { try base.decode(type, forKey: key) }
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try forward(key) { try base.decode(type, forKey: key) }
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try forward(key) { try base.decode(type, forKey: key) }
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try forward(key) { try base.decode(type, forKey: key) }
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try forward(key) { try base.decode(type, forKey: key) }
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try forward(key) { try base.decode(type, forKey: key) }
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try forward(key) { try base.decode(type, forKey: key) }
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try forward(key) { try base.decode(type, forKey: key) }
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try forward(key) { try base.decode(type, forKey: key) }
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try forward(key) { try base.decode(type, forKey: key) }
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try forward(key) { try base.decode(type, forKey: key) }
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try forward(key) { try base.decode(type, forKey: key) }
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try forward(key) { try base.decode(type, forKey: key) }
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try forward(key) { try base.decode(type, forKey: key) }
    }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 {
        try forward(key) { try base.decode(type, forKey: key) }
    }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 {
        try forward(key) { try base.decode(type, forKey: key) }
    }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try forward(key) { try base.decode(type, forKey: key) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let container = try forward(key) { try base.nestedContainer(keyedBy: type, forKey: key) }
        return KeyedDecodingContainer(PrefixedKeyedContainer<NestedKey>(base: container, prefix: prefix))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        PrefixedUnkeyedContainer(
            base: try forward(key) { try base.nestedUnkeyedContainer(forKey: key) }, prefix: prefix)
    }

    func superDecoder() throws -> any Decoder {
        PrefixedDecoder(
            base: try forward(AnyCodingKey(stringValue: "super")) { try base.superDecoder() }, prefix: prefix)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        PrefixedDecoder(base: try forward(key) { try base.superDecoder(forKey: key) }, prefix: prefix)
    }
}

private struct PrefixedUnkeyedContainer: UnkeyedDecodingContainer {
    var base: any UnkeyedDecodingContainer
    let prefix: [any CodingKey]

    var codingPath: [any CodingKey] { prefix + base.codingPath }
    var count: Int? { base.count }
    var isAtEnd: Bool { base.isAtEnd }
    var currentIndex: Int { base.currentIndex }

    /// Runs `body`, which reads the current element, with the record's path on its errors. The
    /// element's path is built only for an error, once `body` is done with the container.
    private mutating func forward<T>(_ body: (inout any UnkeyedDecodingContainer) throws -> T) throws -> T {
        let index = base.currentIndex
        let result = Result { try body(&base) }
        return try prefixingErrors(prefix, at: base.codingPath + [AnyCodingKey(index: index)]) { try result.get() }
    }

    mutating func decodeNil() throws -> Bool { try forward { try $0.decodeNil() } }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try forward { try $0.decode(type) } }
    mutating func decode(_ type: String.Type) throws -> String { try forward { try $0.decode(type) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try forward { try $0.decode(type) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try forward { try $0.decode(type) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try forward { try $0.decode(type) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try forward { try $0.decode(type) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try forward { try $0.decode(type) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try forward { try $0.decode(type) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try forward { try $0.decode(type) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try forward { try $0.decode(type) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try forward { try $0.decode(type) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try forward { try $0.decode(type) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try forward { try $0.decode(type) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try forward { try $0.decode(type) } }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try forward { try $0.decode(type) } }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try forward { try $0.decode(type) } }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try forward { try $0.decode(type) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let container = try forward { try $0.nestedContainer(keyedBy: type) }
        return KeyedDecodingContainer(PrefixedKeyedContainer<NestedKey>(base: container, prefix: prefix))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try forward { try $0.nestedUnkeyedContainer() }
        return PrefixedUnkeyedContainer(base: container, prefix: prefix)
    }

    mutating func superDecoder() throws -> any Decoder {
        PrefixedDecoder(base: try forward { try $0.superDecoder() }, prefix: prefix)
    }
}

private struct PrefixedSingleValueContainer: SingleValueDecodingContainer {
    let base: any SingleValueDecodingContainer
    let prefix: [any CodingKey]

    var codingPath: [any CodingKey] { prefix + base.codingPath }

    /// Runs `body`, which reads the value, with the record's path on its errors.
    private func forward<T>(_ body: () throws -> T) throws -> T {
        try prefixingErrors(prefix, at: base.codingPath, body)
    }

    func decodeNil() -> Bool { base.decodeNil() }
    func decode(_ type: Bool.Type) throws -> Bool { try forward { try base.decode(type) } }
    func decode(_ type: String.Type) throws -> String { try forward { try base.decode(type) } }
    func decode(_ type: Double.Type) throws -> Double { try forward { try base.decode(type) } }
    func decode(_ type: Float.Type) throws -> Float { try forward { try base.decode(type) } }
    func decode(_ type: Int.Type) throws -> Int { try forward { try base.decode(type) } }
    func decode(_ type: Int8.Type) throws -> Int8 { try forward { try base.decode(type) } }
    func decode(_ type: Int16.Type) throws -> Int16 { try forward { try base.decode(type) } }
    func decode(_ type: Int32.Type) throws -> Int32 { try forward { try base.decode(type) } }
    func decode(_ type: Int64.Type) throws -> Int64 { try forward { try base.decode(type) } }
    func decode(_ type: UInt.Type) throws -> UInt { try forward { try base.decode(type) } }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try forward { try base.decode(type) } }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try forward { try base.decode(type) } }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try forward { try base.decode(type) } }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try forward { try base.decode(type) } }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type) throws -> Int128 { try forward { try base.decode(type) } }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type) throws -> UInt128 { try forward { try base.decode(type) } }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try forward { try base.decode(type) } }
}
