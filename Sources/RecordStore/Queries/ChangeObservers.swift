import Foundation

/// The observers of a store's commits: each a filter of the keys it watches and the stream it
/// feeds.
///
/// The store publishes each commit once it is durable, with its lock held, so that changes reach
/// each observer in the order they became durable (commits that share a flush, in the order their
/// writers return; each observer re-reads what it shows); publishing only appends to each stream's buffer,
/// and never waits for a reader. A stream whose reader goes away (its task cancelled, the stream
/// released) removes its observer. The observers have their own lock, as a stream ends from any
/// thread.
final class ChangeObservers: @unchecked Sendable {
    private struct Observer {
        var watches: @Sendable (RecordKey) -> Bool
        var continuation: AsyncStream<StoreChange>.Continuation
    }

    private let lock = NSLock()
    private var observers: [Int: Observer] = [:]
    private var nextID = 0
    /// Whether the store is closed: a new stream ends at once.
    private var isClosed = false
    /// The commits published since the store opened. Read and written with the store's lock
    /// held, by commits and by reads that need to know which commit they saw.
    private(set) var commits = 0

    /// How many observers are registered: for tests that check cancellation frees them.
    var count: Int { lock.locked { observers.count } }

    /// A stream of the commits that change a record `watches` picks, from now on.
    func stream(watching watches: @escaping @Sendable (RecordKey) -> Bool) -> AsyncStream<StoreChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: StoreChange.self, bufferingPolicy: .unbounded)
        let id: Int? = lock.locked {
            guard !isClosed else { return nil }
            nextID += 1
            observers[nextID] = Observer(watches: watches, continuation: continuation)
            return nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.lock.locked { _ = self.observers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Delivers a durable commit that wrote `keys` to the observers that watch any of them, and
    /// counts it. Called with the store's lock held.
    func publish(_ keys: [RecordKey]) {
        guard !keys.isEmpty else { return }
        commits += 1
        let durableAt = ContinuousClock.now
        let watching = lock.locked { Array(observers.values) }
        guard !watching.isEmpty else { return }
        let sorted = keys.sorted()
        for observer in watching {
            let watched = sorted.filter(observer.watches)
            guard !watched.isEmpty else { continue }
            observer.continuation.yield(StoreChange(commit: commits, keys: watched, durableAt: durableAt))
        }
    }

    /// Ends every stream: the store is closed.
    func finishAll() {
        let ending = lock.locked {
            isClosed = true
            defer { observers = [:] }
            return Array(observers.values)
        }
        // Outside the lock: finishing runs each stream's termination handler, which takes it.
        for observer in ending { observer.continuation.finish() }
    }
}
