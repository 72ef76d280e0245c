/// The path of a value being encoded or decoded, whose node is built once, when an element or an
/// error first needs it.
struct ValuePath {
    let path: CodingPath
    private var builtNode: CodingPathNode?

    init(_ path: consuming CodingPath) {
        self.path = path
    }

    /// The path's node, built on first use and kept.
    mutating func node() -> CodingPathNode {
        if let builtNode { return builtNode }
        let node = path.node
        builtNode = node
        return node
    }
}
