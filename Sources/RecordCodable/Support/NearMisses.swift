/// Names that look like a name that was not found: to suggest the one meant, as in "no field
/// 'title', but the record has 'titel'".
enum NearMisses {
    /// The names among `candidates` that differ from `name` only in letter case, or by at most
    /// one edit (two for names longer than five characters): a letter added, removed, changed, or
    /// two neighbours swapped. Sorted, so that a message names them in a fixed order.
    static func of(_ name: String, among candidates: some Sequence<String>) -> [String] {
        let target = Array(name.lowercased().utf8)
        let allowed = target.count > 5 ? 2 : 1
        return candidates.filter { candidate in
            candidate != name && distance(target, Array(candidate.lowercased().utf8), atMost: allowed) <= allowed
        }
        .sorted()
    }

    /// The optimal string alignment distance between two byte strings, or `limit + 1` as soon as
    /// it is sure to exceed `limit`.
    static func distance(_ first: [UInt8], _ second: [UInt8], atMost limit: Int) -> Int {
        guard abs(first.count - second.count) <= limit else { return limit + 1 }
        guard !first.isEmpty, !second.isEmpty else { return max(first.count, second.count) }
        // Three rows of the table: the one before the previous, the previous, the current.
        var beforePrevious = [Int](repeating: 0, count: second.count + 1)
        var previous = Array(0...second.count)
        var current = [Int](repeating: 0, count: second.count + 1)
        for row in 1...first.count {
            current[0] = row
            var smallest = row
            for column in 1...second.count {
                let cost = first[row - 1] == second[column - 1] ? 0 : 1
                var best = min(previous[column] + 1, current[column - 1] + 1, previous[column - 1] + cost)
                if row > 1, column > 1, first[row - 1] == second[column - 2], first[row - 2] == second[column - 1] {
                    best = min(best, beforePrevious[column - 2] + 1)
                }
                current[column] = best
                smallest = min(smallest, best)
            }
            if smallest > limit { return limit + 1 }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[second.count]
    }
}
