/// The fields that a model builds through nested containers of the record —
/// `nestedContainer(keyedBy:forKey:)`, `nestedUnkeyedContainer(forKey:)`,
/// `superEncoder(forKey:)` — each a ``TreeValue`` stored once the model has finished writing it.
///
/// Rules, as Foundation's JSON encoder has them:
/// - One entry per key name, in the order the model first asked for it.
/// - A second nested container of one kind for one key writes into the first one's value; any
///   other nested container starts a value that replaces the key's (see
///   ``TreeValue/reused(as:forKey:at:)``).
/// - A value written under a key after its nested containers replaces them: the engine calls
///   ``drop(named:)``.
struct NestedFieldValues {
    private(set) var entries: [(key: any CodingKey, value: TreeValue)] = []

    var isEmpty: Bool { entries.isEmpty }

    /// The value that a nested container of `kind` for `key` writes into; `kind` is `nil` for
    /// `superEncoder(forKey:)`. `keyHasValue` tells whether the record already holds a value under
    /// the key, which makes the container a misuse, thrown when the record is finished; `isKept`
    /// is false for a value that is built but never stored.
    mutating func value(
        _ kind: TreeValue.ContainerKind?, forKey key: some CodingKey, keyHasValue: Bool, isKept: Bool
    ) -> TreeValue {
        let name = key.stringValue
        if let index = entries.firstIndex(where: { $0.key.stringValue == name }) {
            if let kind, let reused = entries[index].value.reused(as: kind, forKey: key, at: .root) {
                return reused
            }
            entries.remove(at: index)
        }
        let value = TreeValue()
        if let kind, keyHasValue {
            value.noteValueAlreadyWritten(kind, forKey: key, at: .root)
        }
        if isKept { entries.append((key, value)) }
        return value
    }

    /// Drops the value that nested containers were building for the key named `name`.
    mutating func drop(named name: String) {
        entries.removeAll { $0.key.stringValue == name }
    }

    /// The values built, in order; none are left.
    mutating func takeAll() -> [(key: any CodingKey, value: TreeValue)] {
        defer { entries = [] }
        return entries
    }
}
