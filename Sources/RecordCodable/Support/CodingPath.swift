/// A coding path kept as a chain of parent links, so that descending into a field or an element
/// costs no array copy. The `[CodingKey]` form is built only when an error or a caller asks for it.
enum CodingPathNode {
    case root
    indirect case key(any CodingKey, parent: CodingPathNode)
    indirect case index(Int, parent: CodingPathNode)

    /// The node for a key below this one.
    func appending(_ key: some CodingKey) -> CodingPathNode {
        .key(key, parent: self)
    }

    /// The node for the element at `index` of a list below this one.
    func appending(index: Int) -> CodingPathNode {
        .index(index, parent: self)
    }

    /// The path from the root, first key first.
    var path: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = self
        while true {
            switch node {
            case .root:
                return keys.reversed()
            case .key(let key, let parent):
                keys.append(key)
                node = parent
            case .index(let index, let parent):
                keys.append(AnyCodingKey(index: index))
                node = parent
            }
        }
    }
}

/// The path of one value: the node of its container and its own key or index, kept apart so that
/// naming a field or an element allocates nothing. The full node is built only when an error, a
/// nested value or `codingPath` needs it.
struct CodingPath {
    enum Last {
        case none
        case key(any CodingKey)
        /// A key by its name alone: cheaper to carry than the key itself.
        case name(String)
        case index(Int)
    }

    let parent: CodingPathNode
    let last: Last

    static var root: CodingPath { CodingPath(parent: .root, last: .none) }

    init(parent: CodingPathNode, last: Last) {
        self.parent = parent
        self.last = last
    }

    /// The path that ends at `node`.
    init(_ node: CodingPathNode) {
        self.init(parent: node, last: .none)
    }

    /// The path of a record's field.
    static func field(_ key: some CodingKey) -> CodingPath {
        CodingPath(parent: .root, last: .key(key))
    }

    /// The path of a record's field, for a key named `name`.
    static func field(named name: String) -> CodingPath {
        CodingPath(parent: .root, last: .name(name))
    }

    var node: CodingPathNode {
        switch last {
        case .none: parent
        case .key(let key): parent.appending(key)
        case .name(let name): parent.appending(AnyCodingKey(stringValue: name))
        case .index(let index): parent.appending(index: index)
        }
    }

    var keys: [any CodingKey] { node.path }
}
