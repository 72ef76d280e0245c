/// How deep a ``TreeValue`` is, and the limit to that depth.
///
/// Rules:
/// - A record's field is 1 deep; each nested container adds one.
/// - A value nests at most ``maximumDepth`` containers: half of what Foundation's JSON encoder
///   writes, so that the record is finished within the stack of a secondary thread (512 KB on
///   Apple platforms). Deeper nesting is a misuse, found as it is built, before the values nest
///   deeper than the stack that walks them can go.
/// - A container asked for past the limit writes into a *sink*: one value that stands for
///   everything written deeper, which is never stored. Its `sinkNode` is the path where the
///   nesting went too deep, which all of its containers have, so that writing deeper still builds
///   no longer paths and no more values.
struct TreeNesting {
    /// The most containers a value nests.
    static let maximumDepth = 256

    /// The message of the misuse of nesting too deep.
    static let tooDeepDescription =
        "Too many nested arrays or dictionaries: a value nests at most \(maximumDepth) containers deep."

    /// How many containers deep the value is.
    let depth: Int

    /// Set for a sink: the path where the nesting went too deep.
    private(set) var sinkNode: CodingPathNode?

    init(depth: Int) {
        self.depth = depth
    }

    /// The nesting of a sink for a container asked for at `node`, when a value this deep may not
    /// hold one; `nil` when it may.
    func tooDeep(at node: CodingPathNode) -> TreeNesting? {
        guard depth > Self.maximumDepth else { return nil }
        var sink = TreeNesting(depth: depth)
        sink.sinkNode = node
        return sink
    }
}
