import Foundation

/// When the engine writes an index checkpoint, and what the last one covers.
///
/// A checkpoint (``IndexCheckpoint``) is written:
/// - when the store closes, if the journal changed since the last one, or if a look-up found the
///   one it opened from damaged;
/// - after a compaction, which makes the last one stale (the journal has a new salt);
/// - after a commit that leaves the journal ``interval`` bytes past the last one (64 MB), so that a
///   process that never closes its store (killed, or crashed) replays at most that much.
///
/// None is written for a journal under ``threshold`` bytes: opening reads so small a journal
/// whole about as fast as a checkpoint. Writing one is an optimisation: when it fails (a full
/// disk), the store carries on, and opening reads the journal whole.
struct CheckpointSchedule {
    /// 1 MB: a journal that opening reads whole in a few milliseconds.
    static let defaultThreshold = 1 << 20
    /// 64 MB: a replay of about 50 ms.
    static let defaultInterval = 64 << 20

    /// The journal's size under which no checkpoint is written.
    var threshold = defaultThreshold
    /// The journal's growth since the last checkpoint after which a commit writes one.
    var interval = defaultInterval
    /// The salt of the journal that the last checkpoint (written or opened) covers.
    var salt: UInt64 = 0
    /// The end of the journal that the last checkpoint covers, or that the last attempt would have.
    var end = 0
    /// Whether the last attempt wrote a checkpoint; when not, closing tries again.
    var isWritten = true
    /// Why the last attempt failed, for tests.
    var failure: (any Error)?
}

/// How opening built the index: what ``RecordStore/checkpointReport`` reports.
struct Opening: Hashable {
    /// Whether the index came from a checkpoint.
    var usedCheckpoint: Bool
    /// Why a checkpoint that is there was not used: damaged, or stale.
    var checkpointProblem: String?
    /// The bytes of the journal's frames read and applied: after the checkpoint's end, or all.
    var replayedBytes: Int

    init(checkpoint: Result<IndexCheckpoint, IndexCheckpoint.Unusable>?, replayedBytes: Int) {
        switch checkpoint {
        case .success: usedCheckpoint = true
        case .failure(let problem):
            usedCheckpoint = false
            checkpointProblem = problem.description
        case nil: usedCheckpoint = false
        }
        self.replayedBytes = replayedBytes
    }
}

extension StoreEngine {
    /// The checkpoint in `directory` when it is whole and covers a part of `journal`, which then
    /// reads only the frames after it; `nil` when there is none.
    static func openCheckpoint(
        in directory: any StoreDirectory, for journal: Journal
    ) -> Result<IndexCheckpoint, IndexCheckpoint.Unusable>? {
        let found: IndexCheckpoint?
        do {
            found = try IndexCheckpoint.read(in: directory)
        } catch let unusable as IndexCheckpoint.Unusable {
            return .failure(unusable)
        } catch {
            return .failure(IndexCheckpoint.Unusable(description: "it cannot be read: \(error)"))
        }
        guard let found else { return nil }
        guard found.salt == journal.salt else {
            return .failure(IndexCheckpoint.Unusable(description: "it is of an older journal, rewritten since"))
        }
        let last = found.lastFrame
        // The frame's header, not its payload: a frame written over it since has another
        // checksum there, and reading the payload (a commit's, up to megabytes) would cost
        // opening as much as the rest. Damage to the payload is found where a record is read,
        // as for every other frame the checkpoint covers.
        let frame = try? journal.frame(at: last.start, checkingPayload: false)
        guard let frame, frame.payloadCount == last.payloadCount, frame.checksum == last.checksum,
            last.end == found.coveredEnd
        else {
            return .failure(
                IndexCheckpoint.Unusable(description: "the journal does not hold the last frame it covers"))
        }
        guard journal.skipFrames(to: found.coveredEnd, lastFrameStart: last.start) else {
            return .failure(IndexCheckpoint.Unusable(description: "the journal ends before the end it covers"))
        }
        return .success(found)
    }

    /// Writes a checkpoint of the index as it is now, atomically and durably.
    func writeCheckpoint() throws {
        // A checkpoint covers durable frames alone: after a crash, the journal holds them.
        try journal.flushAll()
        guard let checkpoint = try IndexCheckpoint.make(of: index, salt: journal.salt, lastFrame: try lastFrame())
        else {
            throw IndexCheckpoint.Unusable(description: "a record's key is too long for a checkpoint")
        }
        try checkpoint.write(in: directory)
    }

    /// The journal's last frame, which a checkpoint written now covers.
    func lastFrame() throws -> IndexCheckpoint.JournalFrame {
        let start = journal.lastFrameStart
        guard let frame = try journal.frame(at: start), start + Frame.headerSize + frame.payloadCount == journal.end
        else {
            throw RecordStoreError.corruptJournal(
                path: path + "/" + Journal.fileName, offset: start, reason: "the last frame does not read back")
        }
        return IndexCheckpoint.JournalFrame(start: start, payloadCount: frame.payloadCount, checksum: frame.checksum)
    }

    /// Writes a checkpoint, noting the attempt whatever its outcome: a failed one waits for the
    /// next occasion rather than being repeated at every commit.
    private func attemptCheckpoint() {
        do {
            try writeCheckpoint()
            checkpoints.isWritten = true
            checkpoints.failure = nil
        } catch {
            checkpoints.isWritten = false
            checkpoints.failure = error
        }
        checkpoints.salt = journal.salt
        checkpoints.end = journal.end
    }

    /// After a commit: a checkpoint once the journal has grown by the interval since the last.
    func checkpointIfDue() {
        guard journal.end >= checkpoints.threshold, journal.end - checkpoints.end >= checkpoints.interval else {
            return
        }
        attemptCheckpoint()
    }

    /// After a compaction, which makes the last checkpoint stale: a new one, or none for a small
    /// journal (the stale one is removed; opening would not use it anyway).
    func checkpointAfterCompaction() {
        if journal.end >= checkpoints.threshold {
            attemptCheckpoint()
        } else {
            try? directory.removeFile(named: IndexCheckpoint.fileName)
            checkpoints.salt = journal.salt
            checkpoints.end = journal.end
        }
    }

    /// Before closing: a checkpoint of what changed since the last one, or in place of one found
    /// damaged after opening.
    func checkpointOnClose() {
        let damaged = index.checkpoint?.damage != nil
        let changed =
            checkpoints.salt != journal.salt || checkpoints.end != journal.end || !checkpoints.isWritten || damaged
        guard changed, journal.end >= checkpoints.threshold else { return }
        attemptCheckpoint()
    }
}
