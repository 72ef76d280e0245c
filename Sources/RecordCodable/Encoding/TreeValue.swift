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
/// kept as it was then. Some values are kept whole until the record is finished instead (see
/// ``KeptWhole``).
///
/// The containers (see ``TreeEncoder``) behave as Foundation's JSON encoder's do: asking twice for
/// a nested container of one kind under one key hands back the same container, so both writes are
/// kept; a value written under a key replaces what was there. What that encoder stops the program
/// for is kept as a misuse instead (see ``FirstMisuse``), and the record throws it (see
/// ``firstMisuse``), rather than losing either write. How deep values may nest is
/// ``TreeNesting``'s to say.
///
/// Rules of the storage, which only this type's methods change:
/// - `content` says what the value is; `members` are set only while it is `object`, `elements`
///   only while it is `array` (checked in debug builds when the value is encoded).
/// - A single value, or `nil`, is set once: a second one is a misuse.
/// - `isWrittenWhole` is set when the value is made, for a value written under a key or as an
///   element, and never changes: such a value is not replaced by a nested container asked for
///   under its key, as one built through a super encoder is.
final class TreeValue: Encodable {
    enum Content {
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

    /// How deep the value is, and whether it stands for values nested too deep.
    private let nesting: TreeNesting
    private var content = Content.nothing
    /// Whether the value was written whole under a key or as an element, rather than built through
    /// a super encoder, which Foundation's JSON encoder stores only when it is released.
    private var isWrittenWhole = false
    private var members: [String: TreeValue] = [:]
    private var elements: [TreeValue] = []
    /// The first misuse of this value's containers.
    private var misuse = FirstMisuse()

    /// A value `depth` containers deep; a record's field is 1.
    init(depth: Int = 1) {
        nesting = TreeNesting(depth: depth)
    }

    private init(nesting: TreeNesting) {
        self.nesting = nesting
    }

    /// The depth of this value's members and elements.
    private var childDepth: Int { nesting.depth &+ 1 }

    /// Whether this value stands for what a model writes deeper than a value may nest: nothing
    /// written into it is kept.
    private var isSink: Bool { nesting.sinkNode != nil }

    func encode(to encoder: any Encoder) throws {
        assert(members.isEmpty || containerKind == .keyed, "a TreeValue holds members only as an object")
        assert(elements.isEmpty || containerKind == .unkeyed, "a TreeValue holds elements only as an array")
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
    /// ``KeptWhole`` says so, else encoded into this value now.
    func write<T: Encodable>(_ value: T, at node: CodingPathNode, userInfo: [CodingUserInfoKey: Any]) throws {
        guard !isSink else { return }
        guard case .nothing = content, !KeptWhole.applies(to: value) else { return set(value, at: node) }
        // Encoded into a value of its own, taken over only once it is written: a value that
        // throws leaves nothing behind.
        let written = TreeValue(depth: nesting.depth)
        try value.encode(to: TreeEncoder(value: written, node: node, userInfo: userInfo))
        content = written.content
        members = written.members
        elements = written.elements
        misuse = written.misuse
    }

    /// Sets the value's single value, or `nil` for `nil`, unless it already holds something: a
    /// second value through one single value container is a misuse.
    func set(_ value: (any Encodable)?, at node: CodingPathNode) {
        if isSink { return }
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
    convenience init(_ content: Content, depth: Int) {
        self.init(depth: depth)
        self.content = content
        if case .nothing = content {} else { isWrittenWhole = true }
    }

    /// A new member for `key` that holds `content`, replacing any there was, as writing a value
    /// under a key does.
    @discardableResult
    func member(_ key: some CodingKey, _ content: Content = .nothing) -> TreeValue {
        if isSink { return self }
        self.content = .object
        let member = TreeValue(content, depth: childDepth)
        members[key.stringValue] = member
        return member
    }

    /// Writes `value` as the member for `key`, below `node`, replacing any there was once it is
    /// written: a value that throws leaves the key as it was, as in Foundation's JSON encoder.
    func member<T: Encodable>(
        _ key: some CodingKey, writing value: T, at node: CodingPathNode, userInfo: [CodingUserInfoKey: Any]
    ) throws {
        if isSink { return }
        let member = TreeValue(depth: childDepth)
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
        return TreeValue(depth: nesting.depth)
    }

    /// Appends a new element that holds `content`.
    @discardableResult
    func appendElement(_ content: Content = .nothing) -> TreeValue {
        if isSink { return self }
        self.content = .array
        let element = TreeValue(content, depth: childDepth)
        elements.append(element)
        return element
    }

    /// Writes `value` as a new element, below `node`, appended once it is written: a value that
    /// throws adds no element, as in Foundation's JSON encoder.
    func appendElement<T: Encodable>(
        writing value: T, at node: CodingPathNode, userInfo: [CodingUserInfoKey: Any]
    ) throws {
        if isSink { return }
        let element = TreeValue(depth: childDepth)
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
            TreeKeyedContainer(value: target, node: target.nesting.sinkNode ?? node, userInfo: userInfo))
    }

    func unkeyedContainer(at node: CodingPathNode, userInfo: [CodingUserInfoKey: Any])
        -> any UnkeyedEncodingContainer
    {
        let target = becoming(.unkeyed, at: node)
        return TreeUnkeyedContainer(value: target, node: target.nesting.sinkNode ?? node, userInfo: userInfo)
    }

    /// This value as a container of `kind`; a value of its own, never stored, when this one already
    /// holds something else, which is a misuse.
    private func becoming(_ kind: ContainerKind, at node: CodingPathNode) -> TreeValue {
        if isSink { return self }
        if let tooDeep = nesting.tooDeep(at: node) {
            noteMisuse(Optional<Any>.none as Any, at: node, TreeNesting.tooDeepDescription)
            return TreeValue(nesting: tooDeep)
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
            return TreeValue(depth: nesting.depth)
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
        misuse.note(value, at: node, description)
    }

    /// The first misuse in this value or the values inside it, members in key order: the error
    /// the record throws instead of storing the value.
    var firstMisuse: EncodingError? {
        if let misuse = misuse.error { return misuse }
        for key in members.keys.sorted() {
            if let misuse = members[key]?.firstMisuse { return misuse }
        }
        for element in elements {
            if let misuse = element.firstMisuse { return misuse }
        }
        return nil
    }
}
