import Foundation

/// A value that a model builds piece by piece through `nestedContainer(keyedBy:forKey:)`,
/// `nestedUnkeyedContainer(forKey:)` or `superEncoder(forKey:)` on a record.
///
/// Such a value has no single Swift value behind it, and the model may go on writing into it until
/// its `encode(to:)` returns. So the pieces are kept here, and when the record is finished the
/// tree, which is itself `Encodable`, is stored like any other value: natively when it is a single
/// value or a list of them, as JSON otherwise.
///
/// A value written into the tree is encoded into it as it is written, as Foundation's JSON encoder
/// does: its errors reach the model at the write, where it can catch them, and a class instance is
/// kept as it was then. Some values are kept whole until the record is finished instead, so that
/// they are stored as they would be anywhere else: a value whose type has a fixed mapping, such as
/// a `Date`; a linked model, a ``Link`` wrapper or an asset value, stored apart from the record;
/// an ``Encrypted`` value, whose field is encrypted; and a collection, whose elements decide
/// together whether it is a list or JSON.
///
/// The containers behave as Foundation's JSON encoder's do: asking twice for a nested container of
/// one kind under one key hands back the same container, so both writes are kept; a value written
/// under a key replaces what was there. What that encoder stops the program for — a second single
/// value, or a container of one kind where a value or a container of another kind already is — is
/// kept as a misuse here, and the record then throws it as an `EncodingError` at its path (see
/// ``firstMisuse``), rather than losing either write.
final class TreeValue: Encodable {
    fileprivate enum Content {
        case nothing
        case null
        case single(any Encodable)
        case object
        case array
    }

    /// The two kinds of container a value can become.
    enum ContainerKind {
        case keyed
        case unkeyed

        var description: String {
            switch self {
            case .keyed: "a keyed container"
            case .unkeyed: "an unkeyed container"
            }
        }
    }

    /// How many containers deep the value is, counting from the record's field, which is 1.
    private let depth: Int
    private var content = Content.nothing
    /// Whether the value was written whole under a key or as an element, rather than built through
    /// a super encoder, which Foundation's JSON encoder stores only when it is released.
    private var isWrittenWhole = false
    private var members: [String: TreeValue] = [:]
    private var elements: [TreeValue] = []
    /// The first misuse of this value's containers, if any.
    private var misuse: EncodingError?

    /// The most containers a value nests: half of what Foundation's JSON encoder writes, so that
    /// the record is finished within the stack of a secondary thread (512 KB on Apple platforms).
    /// Deeper nesting is a misuse, found as it is built, before the values nest deeper than the
    /// stack that walks them can go.
    static let maximumDepth = 256

    /// Set for a value that stands for everything a model writes deeper than the deepest a value
    /// nests, which is never stored: the path where the nesting went too deep, which all of its
    /// containers have. So writing deeper still builds no longer paths and no more values.
    private var sinkNode: CodingPathNode?

    /// A value `depth` containers deep; a record's field is 1.
    init(depth: Int = 1) {
        self.depth = depth
    }

    private convenience init(sinkAt node: CodingPathNode, depth: Int) {
        self.init(depth: depth)
        sinkNode = node
    }

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

    /// The container this value already is, if it is one.
    private var containerKind: ContainerKind? {
        switch content {
        case .object: .keyed
        case .array: .unkeyed
        case .nothing, .null, .single: nil
        }
    }

    /// What this value holds, as an error message names it.
    private var contentDescription: String {
        switch content {
        case .nothing: "nothing"
        case .null: "nil"
        case .single: "a single value"
        case .object: ContainerKind.keyed.description
        case .array: ContainerKind.unkeyed.description
        }
    }

    /// Writes `value` as this value's own single value, below `node`: kept whole when
    /// `isKeptWhole(_:)` says so, else encoded into this value now.
    func write<T: Encodable>(_ value: T, at node: CodingPathNode, userInfo: [CodingUserInfoKey: Any]) throws {
        guard sinkNode == nil else { return }
        guard case .nothing = content, !Self.isKeptWhole(value) else { return set(value, at: node) }
        // Encoded into a value of its own, taken over only once it is written: a value that
        // throws leaves nothing behind.
        let written = TreeValue(depth: depth)
        try value.encode(to: TreeEncoder(value: written, node: node, userInfo: userInfo))
        content = written.content
        members = written.members
        elements = written.elements
        misuse = written.misuse
    }

    /// Whether `value` is kept as it is until the record is finished.
    private static func isKeptWhole<T: Encodable>(_ value: T) -> Bool {
        SpecialType(T.self) != nil || value is any Collection || value is any LinkedRecord
            || value is any LinkWrapper || value is any EncryptedWrapper || value is any RecordAssetValue
    }

    /// Sets the value's single value, or `nil` for `nil`, unless it already holds something: a
    /// second value through one single value container is a misuse.
    func set(_ value: (any Encodable)?, at node: CodingPathNode) {
        if sinkNode != nil { return }
        guard case .nothing = content else {
            let what = value == nil ? "nil" : "a value"
            let carried: Any = if let value { value } else { Optional<Any>.none as Any }
            return noteMisuse(
                carried, at: node,
                "Cannot encode \(what) through a single value container: \(contentDescription) was already "
                    + "encoded at this path.")
        }
        content = value.map(Content.single) ?? .null
    }

    /// A value that holds `content` from the start: a plain value written under a key or as an
    /// element is complete when it is made, so it cannot be misused.
    fileprivate convenience init(_ content: Content, depth: Int) {
        self.init(depth: depth)
        self.content = content
        if case .nothing = content {} else { isWrittenWhole = true }
    }

    /// A new member for `key` that holds `content`, replacing any there was, as writing a value
    /// under a key does.
    @discardableResult
    fileprivate func member(_ key: some CodingKey, _ content: Content = .nothing) -> TreeValue {
        if sinkNode != nil { return self }
        self.content = .object
        let member = TreeValue(content, depth: depth &+ 1)
        members[key.stringValue] = member
        return member
    }

    /// Writes `value` as the member for `key`, below `node`, replacing any there was once it is
    /// written: a value that throws leaves the key as it was, as in Foundation's JSON encoder.
    fileprivate func member<T: Encodable>(
        _ key: some CodingKey, writing value: T, at node: CodingPathNode, userInfo: [CodingUserInfoKey: Any]
    ) throws {
        if sinkNode != nil { return }
        let member = TreeValue(depth: depth &+ 1)
        member.isWrittenWhole = true
        try member.write(value, at: node.appending(key), userInfo: userInfo)
        content = .object
        members[key.stringValue] = member
    }

    /// The member for `key` that a nested container of `kind` writes into: the one there, or a
    /// new one (see ``reused(as:forKey:at:)``).
    func nestedMember(_ kind: ContainerKind, forKey key: some CodingKey, at node: CodingPathNode) -> TreeValue {
        members[key.stringValue]?.reused(as: kind, forKey: key, at: node) ?? member(key)
    }

    /// What a nested container of `kind` under `key`, below `node`, writes into when this value
    /// is the key's: this value when it already is a container of that kind, as Foundation's JSON
    /// encoder hands back the same container; `nil` when a super encoder built this value, or
    /// nothing has, and it is replaced. A container of the other kind, or after a value written
    /// whole, is a misuse, noted here, and its writes go to a value of their own that is never
    /// stored.
    func reused(as kind: ContainerKind, forKey key: some CodingKey, at node: CodingPathNode) -> TreeValue? {
        switch containerKind {
        case kind?:
            return self
        case let existingKind?:
            noteMisuse(
                Optional<Any>.none as Any, at: node.appending(key),
                "Cannot create \(kind.description) for key '\(key.stringValue)': \(existingKind.description) was "
                    + "already created for it.")
        case nil:
            // A value built through a super encoder is replaced; one written whole is not.
            guard isWrittenWhole else { return nil }
            noteValueAlreadyWritten(kind, forKey: key, at: node)
        }
        return TreeValue(depth: depth)
    }

    /// Appends a new element that holds `content`.
    @discardableResult
    fileprivate func appendElement(_ content: Content = .nothing) -> TreeValue {
        if sinkNode != nil { return self }
        self.content = .array
        let element = TreeValue(content, depth: depth &+ 1)
        elements.append(element)
        return element
    }

    /// Writes `value` as a new element, below `node`, appended once it is written: a value that
    /// throws adds no element, as in Foundation's JSON encoder.
    fileprivate func appendElement<T: Encodable>(
        writing value: T, at node: CodingPathNode, userInfo: [CodingUserInfoKey: Any]
    ) throws {
        if sinkNode != nil { return }
        let element = TreeValue(depth: depth &+ 1)
        element.isWrittenWhole = true
        try element.write(value, at: node.appending(index: elements.count), userInfo: userInfo)
        content = .array
        elements.append(element)
    }

    var elementCount: Int { elements.count }

    func keyedContainer<Key: CodingKey>(at node: CodingPathNode, userInfo: [CodingUserInfoKey: Any])
        -> KeyedEncodingContainer<Key>
    {
        let target = becoming(.keyed, at: node)
        return KeyedEncodingContainer(
            TreeKeyedContainer(value: target, node: target.sinkNode ?? node, userInfo: userInfo))
    }

    func unkeyedContainer(at node: CodingPathNode, userInfo: [CodingUserInfoKey: Any])
        -> any UnkeyedEncodingContainer
    {
        let target = becoming(.unkeyed, at: node)
        return TreeUnkeyedContainer(value: target, node: target.sinkNode ?? node, userInfo: userInfo)
    }

    /// This value as a container of `kind`; a value of its own, never stored, when this one already
    /// holds something else, which is a misuse.
    private func becoming(_ kind: ContainerKind, at node: CodingPathNode) -> TreeValue {
        if sinkNode != nil { return self }
        guard depth <= Self.maximumDepth else {
            noteMisuse(
                Optional<Any>.none as Any, at: node,
                "Too many nested arrays or dictionaries: a value nests at most \(Self.maximumDepth) containers "
                    + "deep.")
            return TreeValue(sinkAt: node, depth: depth)
        }
        switch (content, kind) {
        case (.nothing, .keyed), (.object, .keyed):
            content = .object
        case (.nothing, .unkeyed), (.array, .unkeyed):
            content = .array
        default:
            noteMisuse(
                Optional<Any>.none as Any, at: node,
                "Cannot create \(kind.description): \(contentDescription) was already encoded at this path.")
            return TreeValue(depth: depth)
        }
        return self
    }

    // MARK: Misuse

    /// Notes that a nested container of `kind` was asked for under `key`, below `node`, after a
    /// value was written there: Foundation's JSON encoder stops the program for that.
    func noteValueAlreadyWritten(_ kind: ContainerKind, forKey key: some CodingKey, at node: CodingPathNode) {
        noteMisuse(
            Optional<Any>.none as Any, at: node.appending(key),
            "Cannot create \(kind.description) for key '\(key.stringValue)': a value was already encoded for it.")
    }

    private func noteMisuse(_ value: Any, at node: CodingPathNode, _ description: String) {
        if misuse == nil { misuse = .invalid(value, at: node.path, description) }
    }

    /// The first misuse in this value or the values inside it, members in key order: the error
    /// the record throws instead of storing the value.
    var firstMisuse: EncodingError? {
        if let misuse { return misuse }
        for key in members.keys.sorted() {
            if let misuse = members[key]?.firstMisuse { return misuse }
        }
        for element in elements {
            if let misuse = element.firstMisuse { return misuse }
        }
        return nil
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

private struct TreeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
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

private struct TreeUnkeyedContainer: UnkeyedEncodingContainer {
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
