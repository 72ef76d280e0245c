import Foundation

/// Group commit: the commits of several threads made durable by one flush.
///
/// A commit writes its frame and updates the index with the store's lock held
/// (``StoreEngine/commitDeferringFlush(_:)``), then waits for the frame to be durable with the
/// lock released (``StoreEngine/finishCommit(_:)``), so that other threads write their frames
/// meanwhile, and the next flush serves them all (``GroupFlush``). A commit returns only once its
/// frame is durable: what returned survives a crash, as before.
///
/// The index holds a commit from its write on, so a commit made meanwhile builds on it, and a
/// read made meanwhile sees it: a commit not yet durable, which a crash would lose along with
/// every later one, since the journal keeps them in order. When a flush fails, every commit not
/// yet durable fails: the first call to take the lock after it undoes their changes to the
/// index, newest first, and cuts their frames off the journal.
extension StoreEngine {
    /// What one commit changed in the index: each record's and each token's value before it.
    /// A record's place was looked up before the commit: putting it back needs no look-up.
    struct Undo {
        var ticket: Int
        var records: [(place: StoreIndex.Place, slot: StoreIndex.Slot?)] = []
        var tokens: [(zone: String, entry: IndexCheckpoint.Token?)] = []
    }

    /// Keeps what a commit just written changed, forgetting the commits now known durable.
    func noteUnflushed(_ undo: Undo) {
        let durable = journal.flusher.durableState.ticket
        unflushed.removeAll { $0.ticket <= durable }
        unflushed.append(undo)
    }

    /// Returns once the commit of `ticket` is durable; when its flush fails, undoes it (and every
    /// commit after it) and throws the flush's error.
    ///
    /// Called with the store's lock held or not: with it, the commits of other threads cannot
    /// join this flush, but ones written before can.
    func finishCommit(_ ticket: Int) throws {
        try journal.flusher.waitUntilDurable(ticket)
    }

    /// After a flush failed: undoes what the commits not durable changed in the index, newest
    /// first, and cuts their frames off the journal. Nothing when no flush failed.
    func recoverFromFailedFlush() {
        guard journal.flusher.hasFailed else { return }
        let durable = journal.flusher.durableState.ticket
        for undo in unflushed.reversed() where undo.ticket > durable {
            revert(undo)
        }
        unflushed.removeAll()
        journal.cutOffUnflushed()
    }
}
