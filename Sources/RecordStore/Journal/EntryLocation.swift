import Foundation

/// Where an entry's bytes are in the journal: what the index keeps for each record, so that a
/// read is one read at an offset.
struct EntryLocation: Hashable, Sendable {
    var offset: Int
    var count: UInt32
}
