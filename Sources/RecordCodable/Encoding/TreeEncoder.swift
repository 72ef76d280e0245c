import Foundation

/// The encoder that `superEncoder(forKey:)` returns: it builds one ``TreeValue``, through
/// itself as a single value container or through the containers below.
struct TreeEncoder: Encoder, SingleValueEncodingContainer {
    let value: TreeValue
    let node: CodingPathNode
    let userInfo: [CodingUserInfoKey: Any]

    var codingPath: [any CodingKey] { node.path }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        value.keyedContainer(at: node, userInfo: userInfo)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        value.unkeyedContainer(at: node, userInfo: userInfo)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws { value.set(nil, at: node) }
    func encode<T: Encodable>(_ value: T) throws { try self.value.write(value, at: node, userInfo: userInfo) }

    // The plain values, which a value encoded into the tree ends in.
    func encode(_ value: Bool) throws { self.value.set(value, at: node) }
    func encode(_ value: String) throws { self.value.set(value, at: node) }
    func encode(_ value: Double) throws { self.value.set(value, at: node) }
    func encode(_ value: Float) throws { self.value.set(value, at: node) }
    func encode(_ value: Int) throws { self.value.set(value, at: node) }
    func encode(_ value: Int8) throws { self.value.set(value, at: node) }
    func encode(_ value: Int16) throws { self.value.set(value, at: node) }
    func encode(_ value: Int32) throws { self.value.set(value, at: node) }
    func encode(_ value: Int64) throws { self.value.set(value, at: node) }
    func encode(_ value: UInt) throws { self.value.set(value, at: node) }
    func encode(_ value: UInt8) throws { self.value.set(value, at: node) }
    func encode(_ value: UInt16) throws { self.value.set(value, at: node) }
    func encode(_ value: UInt32) throws { self.value.set(value, at: node) }
    func encode(_ value: UInt64) throws { self.value.set(value, at: node) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func encode(_ value: Int128) throws { self.value.set(value, at: node) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func encode(_ value: UInt128) throws { self.value.set(value, at: node) }
}

/// A keyed container of a ``TreeValue``: each key's value becomes a member.
struct TreeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let value: TreeValue
    let node: CodingPathNode
    let userInfo: [CodingUserInfoKey: Any]

    var codingPath: [any CodingKey] { node.path }

    mutating func encodeNil(forKey key: Key) throws { value.member(key, .null) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try self.value.member(key, writing: value, at: node, userInfo: userInfo)
    }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128, forKey key: Key) throws { self.value.member(key, .single(value)) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128, forKey key: Key) throws { self.value.member(key, .single(value)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        value.nestedMember(.keyed, forKey: key, at: node).keyedContainer(at: node.appending(key), userInfo: userInfo)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        value.nestedMember(.unkeyed, forKey: key, at: node).unkeyedContainer(
            at: node.appending(key), userInfo: userInfo)
    }

    mutating func superEncoder() -> any Encoder {
        let key = AnyCodingKey(stringValue: "super")
        return TreeEncoder(value: value.member(key), node: node.appending(key), userInfo: userInfo)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        TreeEncoder(value: value.member(key), node: node.appending(key), userInfo: userInfo)
    }
}

/// An unkeyed container of a ``TreeValue``: each value becomes an element.
struct TreeUnkeyedContainer: UnkeyedEncodingContainer {
    let value: TreeValue
    let node: CodingPathNode
    let userInfo: [CodingUserInfoKey: Any]

    var codingPath: [any CodingKey] { node.path }
    var count: Int { value.elementCount }

    mutating func encodeNil() throws { value.appendElement(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try self.value.appendElement(writing: value, at: node, userInfo: userInfo)
    }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128) throws { self.value.appendElement(.single(value)) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128) throws { self.value.appendElement(.single(value)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let elementNode = node.appending(index: count)
        return value.appendElement().keyedContainer(at: elementNode, userInfo: userInfo)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let elementNode = node.appending(index: count)
        return value.appendElement().unkeyedContainer(at: elementNode, userInfo: userInfo)
    }

    mutating func superEncoder() -> any Encoder {
        let elementNode = node.appending(index: count)
        return TreeEncoder(value: value.appendElement(), node: elementNode, userInfo: userInfo)
    }
}
