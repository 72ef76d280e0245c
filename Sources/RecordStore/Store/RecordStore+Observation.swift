import Foundation
import RecordCodable

extension RecordStore {
    /// Each commit that changes a record of `type`'s record type, in `zone` or in every zone, from
    /// now on: the keys it changed.
    ///
    /// A change arrives once its commit is durable, in the order of the commits, each commit once
    /// however many records it wrote — including the commits of sync (``applyFetched(_:zone:syncToken:)``,
    /// ``apply(_:for:)``). Delivery never waits for the reader: changes wait in the stream's
    /// buffer until read. The stream ends when the store closes; cancelling the task that reads it
    /// removes its observer.
    ///
    /// ```swift
    /// for await change in store.changes(of: Note.self) {
    ///     for key in change.keys { refreshRow(named: key.recordName) }
    /// }
    /// ```
    ///
    /// To get fresh models rather than keys, use ``observe(_:)``.
    public func changes<Model>(of type: Model.Type, inZone zone: String? = nil) -> AsyncStream<StoreChange> {
        let recordType = RecordEncoder.recordType(of: type)
        return observers.stream { key in key.recordType == recordType && (zone == nil || key.zone == zone) }
    }

    /// Each commit that changes the record of `key`, from now on: see ``changes(of:inZone:)``.
    public func changes(to key: RecordKey) -> AsyncStream<StoreChange> {
        observers.stream { $0 == key }
    }

    /// The models `query` picks now, then again after each commit that changes a record of its
    /// type: what a screen that lists them shows.
    ///
    /// ```swift
    /// .task {
    ///     do {
    ///         for try await tasks in store.observe(Query<Task>().sorted(by: .due)) { self.tasks = tasks }
    ///     } catch { self.error = error }
    /// }
    /// ```
    ///
    /// The first element is read at once; each one after is read once a commit that may change the
    /// results is durable, and reflects that commit, never an earlier state. Commits that land
    /// while the previous results are being read are folded into the next element, which reflects
    /// them all: an element is never the same commit's twice, but a reader that falls behind sees
    /// the latest results, not each step between — to see every commit, read
    /// ``changes(of:inZone:)``. Results are read and decoded on a task of their own, so the writer
    /// never waits for them. The stream ends when the store closes, and throws when a read fails;
    /// cancelling the task that reads it ends its reading task and removes its observer. Its
    /// reading task holds on to the store until then.
    public func observe<Model: QueryableModel & Sendable>(_ query: Query<Model>) -> AsyncThrowingStream<
        [Model], any Error
    > {
        let recordType = RecordEncoder.recordType(of: Model.self)
        let zone = query.zone
        return observing(
            watching: { $0.recordType == recordType && (zone == nil || $0.zone == zone) },
            read: { store in
                let read = try store.fetchAsOfCommit(query)
                return (read.models, read.commit)
            })
    }

    /// The model of `type` whose identifier is `identifier` now, or `nil`, then again after each
    /// commit that changes its record: see ``observe(_:)``.
    public func observe<Model: Decodable & Sendable>(
        _ type: Model.Type, identifier: some CustomStringConvertible, inZone zone: String? = nil
    ) -> AsyncThrowingStream<Model?, any Error> {
        let key = Self.key(of: type, identifier: identifier, inZone: zone)
        return observing(
            watching: { $0 == key },
            read: { store in
                var commit = 0
                let model = try store.models(type) { batch in
                    commit = store.observers.commits
                    return try batch.record(for: key).map { [($0, key.zone)] } ?? []
                }.first
                return (model, commit)
            })
    }

    /// A stream of what `read` reads now and after each commit that changes a record `watches`
    /// picks, skipping the commits a read already reflected.
    private func observing<Value: Sendable>(
        watching watches: @escaping @Sendable (RecordKey) -> Bool,
        read: @escaping @Sendable (RecordStore) throws -> (value: Value, commit: Int)
    ) -> AsyncThrowingStream<Value, any Error> {
        AsyncThrowingStream { continuation in
            // Watching starts before the first read, so that no commit falls between the two.
            let changes = observers.stream(watching: watches)
            let task = Task { [self] in
                do {
                    var (value, seen) = try read(self)
                    continuation.yield(value)
                    for await change in changes where change.commit > seen {
                        (value, seen) = try read(self)
                        continuation.yield(value)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The keys a commit of `changes` writes to the journal: its records' new entries, and the
    /// removals of records the store has. Read before the commit, with the lock held.
    static func keysWritten(by changes: StoreEngine.Commit, in engine: StoreEngine) throws -> [RecordKey] {
        try changes.records.compactMap { try $0.entry != nil || engine.index[$0.key] != nil ? $0.key : nil }
    }

}
