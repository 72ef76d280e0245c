import Foundation

/// A value that a model builds piece by piece through `nestedContainer(keyedBy:forKey:)`,
/// `nestedUnkeyedContainer(forKey:)` or `superEncoder(forKey:)` on a record.
///
/// Such a value has no single Swift value behind it, and the model may go on writing into it until
/// its `encode(to:)` returns. So the pieces are kept here, and when the record is finished the
/// tree, which is itself `Encodable`, is stored like any other value: natively when it is a single
/// value or a list of them, as JSON otherwise. Each piece keeps its own type until then, so a
/// `Date` in a nested container becomes a date as it would anywhere else.
final class TreeValue: Encodable {
    private enum Content {
        case nothing
        case null
        case single(any Encodable)
        case object
        case array
    }

    private var content = Content.nothing
    private var members: [String: TreeValue] = [:]
    private var elements: [TreeValue] = []

    func encode(to encoder: any Encoder) throws {
        switch content {
        case .nothing, .object:
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for (key, member) in members {
                try container.encode(member, forKey: AnyCodingKey(stringValue: key))
            }
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .single(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array:
            var container = encoder.unkeyedContainer()
            for element in elements {
                try container.encode(element)
            }
        }
    }

    // MARK: Building

    func set(_ value: any Encodable) { content = .single(value) }
    func setNull() { content = .null }

    func member(_ key: some CodingKey) -> TreeValue {
        content = .object
        let member = TreeValue()
        members[key.stringValue] = member
        return member
    }

    func appendElement() -> TreeValue {
        content = .array
        let element = TreeValue()
        elements.append(element)
        return element
    }

    var elementCount: Int { elements.count }

    func keyedContainer<Key: CodingKey>(at node: CodingPathNode, userInfo: [CodingUserInfoKey: Any])
        -> KeyedEncodingContainer<Key>
    {
        content = .object
        return KeyedEncodingContainer(TreeKeyedContainer(value: self, node: node, userInfo: userInfo))
    }

    func unkeyedContainer(at node: CodingPathNode, userInfo: [CodingUserInfoKey: Any])
        -> any UnkeyedEncodingContainer
    {
        content = .array
        return TreeUnkeyedContainer(value: self, node: node, userInfo: userInfo)
    }
}

/// The encoder that `superEncoder(forKey:)` returns: it builds one ``TreeValue``.
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

    func encodeNil() throws { value.setNull() }
    func encode<T: Encodable>(_ value: T) throws { self.value.set(value) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func encode(_ value: Int128) throws { self.value.set(value) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func encode(_ value: UInt128) throws { self.value.set(value) }
}

private struct TreeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let value: TreeValue
    let node: CodingPathNode
    let userInfo: [CodingUserInfoKey: Any]

    var codingPath: [any CodingKey] { node.path }

    mutating func encodeNil(forKey key: Key) throws { value.member(key).setNull() }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { self.value.member(key).set(value) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128, forKey key: Key) throws { self.value.member(key).set(value) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128, forKey key: Key) throws { self.value.member(key).set(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        value.member(key).keyedContainer(at: node.appending(key), userInfo: userInfo)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        value.member(key).unkeyedContainer(at: node.appending(key), userInfo: userInfo)
    }

    mutating func superEncoder() -> any Encoder {
        let key = AnyCodingKey(stringValue: "super")
        return TreeEncoder(value: value.member(key), node: node.appending(key), userInfo: userInfo)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        TreeEncoder(value: value.member(key), node: node.appending(key), userInfo: userInfo)
    }
}

private struct TreeUnkeyedContainer: UnkeyedEncodingContainer {
    let value: TreeValue
    let node: CodingPathNode
    let userInfo: [CodingUserInfoKey: Any]

    var codingPath: [any CodingKey] { node.path }
    var count: Int { value.elementCount }

    mutating func encodeNil() throws { value.appendElement().setNull() }
    mutating func encode<T: Encodable>(_ value: T) throws { self.value.appendElement().set(value) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128) throws { self.value.appendElement().set(value) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128) throws { self.value.appendElement().set(value) }

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
