import Foundation
import RecordCodable

extension RecordStore {
    /// What ``RecordStore/sync(with:options:)`` does with a record in conflict once both its
    /// versions are known: the one the app saved here, and the server's.
    ///
    /// A conflict is a record the app changed while the server's version changed too (another
    /// device saved or deleted it). By default the sync leaves it in the store with both
    /// versions, in ``SyncStatus/conflict``, and lists it in ``SyncReport/conflictsLeft``:
    /// nothing is lost, and the app resolves it when it likes (see "Resolve conflicts" in
    /// <doc:TheSyncCycle>). A policy resolves it during the sync instead:
    ///
    /// ```swift
    /// let report = try await store.sync(with: database, conflicts: .merge { local, server in
    ///     var merged = server
    ///     merged["title"] = local["title"]   // our title, their other fields
    ///     return merged
    /// })
    /// ```
    ///
    /// A version resolved as "ours" or merged goes back to the server in the same sync, as an
    /// update of the server's version (with its change tag), so the server refuses it again only
    /// if the record changed once more meanwhile.
    public enum ConflictPolicy: Sendable {
        /// Leaves each conflict in the store with both versions: the default.
        case keepBoth
        /// Takes the server's version (see ``RecordStore/acceptServerVersion(for:)``): the
        /// record is synced as the server has it, or removed if the server deleted it.
        case keepServer
        /// Keeps the app's version, sent again as an update of the server's: an edit is saved
        /// over the server's version, or made anew if the server deleted the record; a local
        /// deletion deletes the server's version.
        case keepLocal
        /// Saves what `merge` makes of the two versions, as an update of the server's version;
        /// `nil` deletes the record. `merge` sees two records: when one side deleted the record
        /// and the other edited it, the edit is kept without asking — the server's, taken as
        /// with ``keepServer``, or the app's, made anew on the server — so that nothing is lost.
        ///
        /// The merged record keeps the name and type of the two: a record of another name or
        /// type is an error (``RecordStoreError/mergeChangedRecord(key:recordType:recordName:)``).
        /// An error `merge` throws stops the sync; the record stays in conflict.
        case merge(@Sendable (_ local: Record, _ server: Record) throws -> Record?)
    }
}
