import Foundation
import RecordCodable

/// A durable local store of records and the models they encode, that knows what it owes the
/// server.
///
/// A store keeps records by zone, record type and record name (``RecordKey``) in a directory.
/// Models go in and out through the package's coders, GarageStorage-style, and records as
/// `Record`s; every call is synchronous, throws, and is durable when it returns:
///
/// ```swift
/// let store = try RecordStore(directory: appSupport.appendingPathComponent("Notes"))
/// try store.park(note)                                     // a model, and the models it links to
/// let again = try store.retrieve(Note.self, identifier: note.id)
/// let all = try store.retrieveAll(Note.self)
/// try store.delete(note)
/// ```
///
/// Several changes commit together, all or nothing, through ``write(_:)``:
///
/// ```swift
/// try store.write { batch in
///     try batch.park(folder)
///     try batch.park(note)
///     try batch.delete(Note.self, identifier: "old")
/// }
/// ```
///
/// Each record carries a ``SyncStatus``: the store builds the `records/modify` requests for what
/// is pending (``modifyRequests(maximumOperations:)``), applies their responses
/// (``apply(_:for:)``) and records fetched from the server (``applyFetched(_:zone:syncToken:)``).
/// See <doc:TheSyncCycle>. ``keyValues(namespace:syncs:)`` gives a typed key-value view.
///
/// ## Concurrency
///
/// A store is `Sendable`: share one instance between threads and tasks. Calls are serialized by
/// one lock — a write waits for the write before it, and for its own `fsync` — and reads wait
/// only for the look-up in the index and one read of the file; the JSON of the records they
/// return is decoded outside the lock. Calls block the calling thread (they do file I/O), so from
/// the main actor, move long batches to a background task.
///
/// ``retrieve(_:identifier:inZone:)`` and ``retrieveAll(_:inZone:)`` read a model's record and the
/// records it links to under one hold of the lock, so a model is read as of one commit. Separate
/// calls are not: to read several models as of one commit, read them inside ``write(_:)``, whose
/// batch holds the lock throughout.
///
/// ## Durability
///
/// One process owns a store at a time: a second opener gets ``RecordStoreError/locked(path:)``.
/// A write is on stable storage when it returns (`fdatasync`, `F_FULLFSYNC` on Apple); a crash
/// or power loss keeps every write that returned and none of the one in progress. See
/// <doc:Durability>.
public final class RecordStore: @unchecked Sendable {
    /// CloudKit's default zone, where records go unless they name another.
    public static let defaultZone = RecordKey.defaultZone

    /// How a store is opened.
    public struct Options: Sendable {
        /// Encrypts everything the store writes; `nil` keeps it in the clear. A store must be
        /// opened with the cipher it was created with.
        public var cipher: (any RecordStoreCipher)?

        /// Whether opening skips damaged frames in the middle of the journal instead of failing
        /// with ``RecordStoreError/corruptJournal(path:offset:reason:)``.
        ///
        /// The records of a skipped frame keep their earlier versions, or are absent; the
        /// store then rewrites its journal without the damage. ``RecordStore/openReport`` says
        /// what was skipped. A damaged end of the journal — a commit a crash interrupted — is
        /// always cut off, with or without this.
        public var recoversDamagedFrames = false

        /// Encodes parked models.
        ///
        /// A model needs an identifier to be parked, whatever this encoder does with models
        /// without one: the store finds a model by its identifier, and a new name at each park
        /// would store a copy each time that nothing could find again.
        public var encoder = RecordEncoder() {
            didSet {
                modelEncoder = encoder
                modelEncoder.namesUnidentifiedModels = false
            }
        }

        /// ``encoder``, leaving a model without an identifier unnamed, for the store to refuse.
        private(set) var modelEncoder = Self.defaultModelEncoder

        private static let defaultModelEncoder = {
            var encoder = RecordEncoder()
            encoder.namesUnidentifiedModels = false
            return encoder
        }()

        /// Decodes retrieved models.
        public var decoder = RecordDecoder()

        /// The journal's size, in bytes, under which it is never compacted: below it, dead
        /// entries cost less than rewriting them. 4 MB by default.
        public var compactionThreshold = 4 << 20

        /// Failures to inject into writes, for tests.
        package var faults: StoreFaults?

        /// The journal's size under which the store writes no index checkpoint, for tests.
        package var checkpointThreshold = CheckpointSchedule.defaultThreshold

        /// The journal's growth after which a commit writes an index checkpoint, for tests.
        package var checkpointInterval = CheckpointSchedule.defaultInterval

        /// The default options: no cipher, the default coders.
        public init() {}
    }

    /// What opening the store found beyond the records.
    public struct OpenReport: Hashable, Sendable {
        /// The bytes cut off the end of the journal: a commit that a crash interrupted, which
        /// had not returned. Empty after a clean shutdown.
        public var discardedTail: Range<Int>?
        /// Damaged frames skipped with ``Options/recoversDamagedFrames``.
        public var skippedFrames: [Range<Int>]
    }

    /// The options the store was opened with.
    public let options: Options

    /// Where the store is: its directory, or `nil` in memory.
    public let directory: URL?

    /// What opening the store found: a commit cut short, damaged frames skipped.
    public let openReport: OpenReport

    /// How opening built the store's index: from its checkpoint, or from the whole journal.
    public let checkpointReport: CheckpointReport

    private let lock = NSRecursiveLock()
    /// The engine; `nil` once closed. Only touched with `lock` held.
    private var engine: StoreEngine?
    private let storeDirectory: any StoreDirectory
    /// Whether a write's closure is running, on the thread that holds `lock`.
    private var isWriting = false
    /// Whether ``close()`` was called from inside a write's closure: the store closes once the
    /// write is over, so that the write never reaches a closed file.
    private var closesAfterWrite = false
    /// The secondary indexes that queries build and commits keep up to date; touched only with
    /// `lock` held.
    let indexes = SecondaryIndexes()
    /// The streams of changes that observers read.
    let observers = ChangeObservers()

    /// Opens the store in `directory`, creating the directory and the store if needed.
    ///
    /// - Throws: ``RecordStoreError/locked(path:)`` when another process has it open;
    ///   ``RecordStoreError/cipherRequired(path:)``, ``RecordStoreError/wrongCipher(path:)`` or
    ///   ``RecordStoreError/notEncrypted(path:)`` when `options.cipher` is not the store's;
    ///   ``RecordStoreError/corruptJournal(path:offset:reason:)`` when committed data is damaged.
    public convenience init(directory: URL, options: Options = Options()) throws {
        let storeDirectory = try DiskDirectory(url: directory, faults: options.faults)
        try self.init(storeDirectory: storeDirectory, url: directory, options: options)
    }

    /// A store that lives in memory and is gone when released: for tests and previews. It
    /// behaves as a store on disk does, cipher included.
    public static func inMemory(options: Options = Options()) throws -> RecordStore {
        try RecordStore(storeDirectory: MemoryDirectory(faults: options.faults), url: nil, options: options)
    }

    /// Opens the store whose files `storeDirectory` holds.
    init(storeDirectory: any StoreDirectory, url: URL?, options: Options) throws {
        self.options = options
        self.directory = url
        self.storeDirectory = storeDirectory
        try storeDirectory.lock()
        do {
            let engine = try StoreEngine(
                directory: storeDirectory, cipher: options.cipher, recover: options.recoversDamagedFrames,
                compactionThreshold: options.compactionThreshold,
                checkpoints: CheckpointSchedule(
                    threshold: options.checkpointThreshold, interval: options.checkpointInterval))
            self.engine = engine
            openReport = OpenReport(
                discardedTail: engine.openReport.cutTail, skippedFrames: engine.openReport.skipped)
            checkpointReport = CheckpointReport(engine.opening)
        } catch {
            storeDirectory.unlock()
            throw error
        }
    }

    deinit {
        observers.finishAll()
        engine?.close()
        storeDirectory.unlock()
    }

    /// Closes the store: another process may open it now. Every call afterwards throws
    /// ``RecordStoreError/closed(path:)``. Releasing the store closes it too.
    ///
    /// Called from inside a ``write(_:)`` closure, it closes the store once that write is over
    /// (committed, or not when the closure throws).
    public func close() {
        lock.locked {
            if isWriting {
                closesAfterWrite = true
                return
            }
            engine?.close()
            engine = nil
            storeDirectory.unlock()
            observers.finishAll()
        }
    }

    // MARK: Access to the engine

    /// Runs `body` with the engine, the lock held. A flush that failed since the last call is
    /// dealt with first (see `StoreEngine+GroupCommit`), unless a write's closure is running.
    func withEngine<Result>(_ body: (StoreEngine) throws -> Result) throws -> Result {
        try lock.locked {
            guard let engine else { throw RecordStoreError.closed(path: storeDirectory.path) }
            if !isWriting { engine.recoverFromFailedFlush() }
            return try body(engine)
        }
    }

    /// Runs `body` with a batch that only reads, the lock held.
    func reading<Result>(_ body: (Batch) throws -> Result) throws -> Result {
        try withEngine { try body(Batch(engine: $0, options: options)) }
    }

    /// Runs `body` with a batch, the lock held, and commits what it staged as one frame. The
    /// frame is written with the lock held, and its flush awaited without it, so that the
    /// commits of other threads share the flush (see ``GroupFlush``).
    func withBatch<Result>(_ body: (inout Batch) throws -> Result) throws -> Result {
        var written: (engine: StoreEngine, ticket: Int)?
        let (result, keys) = try withEngine { engine in
            try stageBatch(on: engine, body) { changes in
                written = try engine.commitDeferringFlush(changes).map { (engine, $0) }
            }
        }
        if let (engine, ticket) = written {
            do {
                try engine.finishCommit(ticket)
            } catch {
                // Unless the store was closed meanwhile: closing recovered, with the file open.
                lock.locked { if self.engine === engine { engine.recoverFromFailedFlush() } }
                throw error
            }
        }
        // Durable now. Commits that shared a flush are published in the order their writers
        // get here, each with a number of its own.
        lock.locked { observers.publish(keys) }
        return result
    }

    /// Runs `body` with a batch on `engine`, and commits what it staged as one frame, durably.
    /// The caller holds the lock, and may do more under it after the commit.
    func commitBatch<Result>(on engine: StoreEngine, _ body: (inout Batch) throws -> Result) throws -> Result {
        let (result, written) = try stageBatch(on: engine, body) { try engine.commit($0) }
        observers.publish(written)
        return result
    }

    /// Runs `body` with a batch on `engine`, and hands what it staged to `commit`.
    /// Returns what `body` returned and the keys the commit wrote, for the observers.
    private func stageBatch<Result>(
        on engine: StoreEngine, _ body: (inout Batch) throws -> Result, commit: (StoreEngine.Commit) throws -> Void
    ) throws -> (Result, [RecordKey]) {
        guard !isWriting else { throw RecordStoreError.nestedWrite }
        isWriting = true
        defer {
            isWriting = false
            if closesAfterWrite { close() }
        }
        var batch = Batch(engine: engine, options: options)
        let result = try body(&batch)
        let written = try Self.keysWritten(by: batch.changes, in: engine)
        try commit(batch.changes)
        // The engine's index shows the commit from here on, durable or not yet: the secondary
        // indexes must re-read its records at their next use (a failed flush undoes the commit,
        // and a re-read then finds it gone). Observers hear of it only once it is durable.
        indexes.noteChanged(written)
        return (result, written)
    }

    /// Makes several changes at once: they are committed together when `body` returns, in one
    /// durable write, or not at all when it throws.
    ///
    /// ```swift
    /// try store.write { batch in
    ///     for note in imported { try batch.park(note) }
    ///     try batch.deleteAll(Draft.self)
    /// }
    /// ```
    ///
    /// Inside `body`, make changes through the batch: a read through the batch sees them, a
    /// read through the store does not yet. Calling `write` again inside `body` throws
    /// ``RecordStoreError/nestedWrite``.
    ///
    /// - Returns: What `body` returns.
    @discardableResult
    public func write<Result>(_ body: (inout Batch) throws -> Result) throws -> Result {
        try withBatch(body)
    }

    /// Rewrites the journal with only the records' latest versions.
    ///
    /// The store compacts on its own after a commit that leaves most of the journal dead; call
    /// this to reclaim the space at once, after deleting many records, or to try again after
    /// ``compactionFailure`` says a compaction failed.
    ///
    /// - Throws: ``RecordStoreError/fileSystem(operation:path:code:)`` when the copy cannot be
    ///   written, such as `ENOSPC` on a full disk. The journal stays as it was, and the store
    ///   usable.
    public func compact() throws {
        try withEngine { try $0.compact() }
    }

    /// Why the store could not compact its journal the last time it tried, or `nil` when it
    /// could, or has not tried since it was opened (or is closed).
    ///
    /// A commit that leaves most of the journal dead compacts it before returning. When that
    /// compaction fails — the disk has no room for the copy — the commit still succeeds: it is
    /// durable before the compaction starts. The failure is kept here instead, the journal
    /// goes on growing, and the store tries again once the journal has grown by a quarter
    /// since, rather than after every commit. A compaction that succeeds, on its own or through
    /// ``compact()``, clears it.
    ///
    /// ```swift
    /// try store.save(record)
    /// if let failure = store.compactionFailure {
    ///     log("The store cannot reclaim space: \(failure)")
    /// }
    /// ```
    public var compactionFailure: (any Error)? {
        lock.locked { engine?.compactionFailure }
    }

    /// The bytes the journal's frames take. The file is somewhat larger: it grows ahead of its
    /// frames, so that a commit does not have to change its size.
    public var journalSize: Int {
        get throws { try withEngine(\.journalSize) }
    }

    // MARK: Reading records

    /// The record of `key`, or `nil` when there is none (or it is deleted locally).
    public func record(for key: RecordKey) throws -> Record? {
        try withEngine { try $0.visibleRecord(for: key) }?.decoded(as: key)
    }

    /// The record of `key` with its sync state, deleted records included.
    public func storedRecord(for key: RecordKey) throws -> StoredRecord? {
        try withEngine { try $0.entry(for: key) }?.stored()
    }

    /// The CloudKit Web Services JSON of the record of `key`, as the store keeps it: the
    /// cheapest read, for a record that goes on to a server as it is. An asset's local file is
    /// not part of it. The JSON is not decoded, so damage in it that its frame's checksum did not
    /// catch goes unnoticed here; ``record(for:)`` reports it.
    public func recordJSON(for key: RecordKey) throws -> Data? {
        try withEngine { try $0.visibleRecord(for: key) }?.json
    }

    /// The records of `recordType`, in `zone` or in every zone, sorted by key.
    public func records(ofType recordType: String, inZone zone: String? = nil) throws -> [Record] {
        try entries { key, slot in
            key.recordType == recordType && (zone == nil || key.zone == zone) && slot.state.isVisible
        }.map { try $0.local.decoded(as: $0.key) }
    }

    /// The records whose sync status is `status`, sorted by key: GarageStorage's "retrieve by
    /// sync status".
    ///
    /// ```swift
    /// for waiting in try store.records(in: .pending) { print(waiting.key) }
    /// ```
    public func records(in status: SyncStatus) throws -> [StoredRecord] {
        try entries { _, slot in slot.status == status }.map { try $0.stored() }
    }

    /// The keys of every record, deleted ones included, sorted.
    public func keys() throws -> [RecordKey] {
        try withEngine { try $0.index.records(where: { _, _ in true }).map(\.key) }.sorted()
    }

    /// How many records the store holds, deleted ones included.
    public var count: Int {
        get throws { try withEngine(\.index.count) }
    }

    /// The entries of the records that `include` picks, sorted by key.
    func entries(where include: (RecordKey, StoreIndex.Slot) -> Bool) throws -> [RecordEntry] {
        try withEngine { engine in
            try engine.index.records(where: include).sorted { $0.key < $1.key }.map {
                try engine.entry(at: $0.slot.location, status: $0.slot.status)
            }
        }
    }

    // MARK: Writing records

    /// Saves a record, in `zone` or else in its metadata's zone or the default zone: it is
    /// ``SyncStatus/pending`` until sent.
    ///
    /// The record is the whole local version: a field it lacks is cleared on the server when it
    /// is sent. To save a model, ``park(_:inZone:)`` it instead, which keeps the fields the model
    /// does not know.
    ///
    /// - Throws: ``RecordStoreError/unnamedRecord(recordType:)`` for a record without a name;
    ///   `EncodingError` for a value CloudKit's JSON cannot carry (a NaN double).
    public func save(_ record: Record, inZone zone: String? = nil) throws {
        try withBatch { try $0.save(record, inZone: zone) }
    }

    /// Saves records in one commit.
    public func save(contentsOf records: some Sequence<Record>, inZone zone: String? = nil) throws {
        try withBatch { try $0.save(contentsOf: records, inZone: zone) }
    }

    /// Deletes the record of `key`: removed at once if the server never had it, else kept as
    /// ``SyncStatus/deletedLocally`` until the delete is sent.
    ///
    /// A record in ``SyncStatus/conflict`` whose server version is known is deleted with that
    /// version's change tag, which resolves the conflict (or removed, when the server deleted it
    /// too); before the server's version is known, it stays in conflict, hidden.
    public func deleteRecord(for key: RecordKey) throws {
        try withBatch { try $0.deleteRecord(for: key) }
    }
}

extension RecordStore {
    /// Saves records given as their CloudKit JSON, taken as they are: the benchmark's way to
    /// give RecordStore and SQLite the same bytes, and time the storage alone.
    ///
    /// Not API: the JSON is not checked, and a record whose JSON does not read fails when read.
    @_spi(Benchmarks)
    public func save(encodedRecords: [(key: RecordKey, json: Data)]) throws {
        try withBatch { batch in
            for (key, json) in encodedRecords {
                try batch.save(EncodedRecord(json: json, facts: LocalFacts()), for: key, localOnly: false)
            }
        }
    }
}
