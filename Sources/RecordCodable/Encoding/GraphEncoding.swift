/// The records of a graph being encoded, and the linked models still to encode: each once, by
/// record type and name.
final class GraphEncoding {
    struct Key: Hashable {
        var recordType: String
        var recordName: String
    }

    private var seen: Set<Key> = []
    private var queue: [(model: any LinkedRecord, key: Key)] = []
    private var nextIndex = 0
    private var first: Key?

    /// Remembers a linked model to encode, unless a model of its type and name was met before.
    func add(_ model: any LinkedRecord, recordType: String, name: String) {
        let key = Key(recordType: recordType, recordName: name)
        if seen.insert(key).inserted {
            queue.append((model, key))
        }
    }

    /// Marks the graph's first record as encoded, so that links back to it add nothing more.
    func markEncoded(_ record: Record) {
        let key = Key(recordType: record.recordType, recordName: record.recordName)
        first = key
        seen.insert(key)
    }

    /// The next linked model to encode.
    func next() -> (model: any LinkedRecord, name: String)? {
        while nextIndex < queue.count {
            let (model, key) = queue[nextIndex]
            nextIndex += 1
            // The first record may have been met through a link before its own name was known.
            if key != first { return (model, key.recordName) }
        }
        return nil
    }
}
