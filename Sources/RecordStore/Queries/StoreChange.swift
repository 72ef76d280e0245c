import Foundation

/// One commit's changes to the records an observer watches: what
/// ``RecordStore/changes(of:inZone:)`` and ``RecordStore/changes(to:)`` deliver.
///
/// A commit is one change, however many records it wrote: a ``RecordStore/write(_:)`` batch, a
/// `parkAll`, a page of fetched records applied by sync. A change comes once its commit is
/// durable, in the order of the commits, each once.
public struct StoreChange: Hashable, Sendable {
    /// The commit's number among the commits since the store was opened, from 1: each change an
    /// observer receives has a larger one than the last.
    public let commit: Int
    /// The keys of the records the commit saved, deleted or removed among those watched, sorted.
    /// A record whose sync state alone changed (sent, synced, in conflict) is among them.
    public let keys: [RecordKey]
    /// When the commit became durable: for the benchmark's delay from commit to delivery.
    @_spi(Benchmarks) public let durableAt: ContinuousClock.Instant
}
