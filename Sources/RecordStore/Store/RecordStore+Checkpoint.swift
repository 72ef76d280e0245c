import Foundation

extension RecordStore {
    /// How opening built the store's index: from the index checkpoint and the journal's frames
    /// after it, or from every frame of the journal.
    ///
    /// The store keeps its index (where each record's latest version is in the journal, and its
    /// sync status) in a checkpoint file beside the journal, written when the store closes, after
    /// a compaction, and after every 64 MB of commits. Opening reads it and replays only the
    /// frames written after it, so that opening takes about the same time however many records
    /// the store holds. A checkpoint that is damaged (its checksum fails) or stale (the journal
    /// was compacted or cut back since) is never used: the index is rebuilt from the journal, as
    /// if there were none, and ``checkpointProblem`` says why. Opening checks the checkpoint's
    /// header and tables; its rows are checked a block at a time as reads first use them, and a
    /// damaged block found then has the records read from the journal instead, which this
    /// report, made on opening, does not show. See <doc:Durability>.
    ///
    /// ```swift
    /// let store = try RecordStore(directory: url)
    /// if let problem = store.checkpointReport.checkpointProblem { log("Index rebuilt: \(problem)") }
    /// ```
    public struct CheckpointReport: Hashable, Sendable {
        /// Whether the index came from the store's checkpoint.
        public var usedCheckpoint: Bool
        /// Why the store's checkpoint was not used, when it has one: damaged, or stale.
        public var checkpointProblem: String?
        /// The bytes of the journal's frames read and applied on opening: those after the
        /// checkpoint, or all of them.
        public var replayedBytes: Int

        init(_ opening: Opening) {
            usedCheckpoint = opening.usedCheckpoint
            checkpointProblem = opening.checkpointProblem
            replayedBytes = opening.replayedBytes
        }
    }
}
