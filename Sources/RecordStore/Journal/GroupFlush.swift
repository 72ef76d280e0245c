import Foundation

/// Makes the journal's frames durable for several commits at once: group commit.
///
/// A commit writes its frame with the store's lock held, takes a ticket (``noteWritten(end:)``),
/// and then, the lock released, waits for its ticket to be durable (``waitUntilDurable(_:)``).
/// The first waiter to find no flush under way leads: it flushes the file once for every frame
/// written so far, its own and those of the commits that wrote after it while the last flush
/// ran, and wakes them all. So with eight writers, a flush serves up to eight commits, and a
/// lone writer pays one flush a commit, as before.
///
/// A flush that fails fails every commit not yet durable — the file's state after a failed
/// flush is unknown — until the journal has cut them off (``reset()``): none of them returns
/// as if durable.
///
/// Thread-safe: waiters call it without the store's lock; every other call is made with it held.
final class GroupFlush: @unchecked Sendable {
    /// Guards every property below, and wakes the waiters.
    private let condition = NSCondition()
    /// The file that flushes make durable.
    private var file: any StoreFile
    /// The last ticket handed out, and the end of its frame.
    private var written = 0
    private var writtenEnd: Int
    /// The last ticket known durable, and the end of its frame.
    private var durable = 0
    private var durableEnd: Int
    /// Whether a leader is flushing, the condition unlocked.
    private var flushing = false
    /// Why the last flush failed, until ``reset()``.
    private var failure: (any Error)?
    /// The tickets of commits cut off after a failed flush, and that flush's error: never
    /// durable, whatever later flushes make durable. Tickets are never handed out twice.
    private var lost: [(tickets: ClosedRange<Int>, error: any Error)] = []

    /// A file whose bytes up to `end` are durable.
    init(file: any StoreFile, end: Int) {
        self.file = file
        writtenEnd = end
        durableEnd = end
    }

    /// Notes a frame written up to `end`, and returns its ticket.
    func noteWritten(end: Int) -> Int {
        condition.locked {
            written += 1
            writtenEnd = end
            return written
        }
    }

    /// The last ticket handed out that a failed flush did not cut off: what flushing everything
    /// written waits for. When the last ones were cut off, the last durable one before them (a
    /// compaction or a close after a failed commit has nothing of it left to flush, and must not
    /// fail with its error).
    var lastTicket: Int {
        condition.locked {
            // The cut-off ranges are in order, each after the one before: going back through them,
            // a ticket just before one range may be the end of the range before (two failed
            // commits in a row).
            var ticket = written
            for cutOff in lost.reversed() where cutOff.tickets.contains(ticket) {
                ticket = cutOff.tickets.lowerBound - 1
            }
            return ticket
        }
    }

    /// Returns once the frame of `ticket` is durable, flushing the file when no one else does;
    /// throws the flush's error when it failed.
    func waitUntilDurable(_ ticket: Int) throws {
        condition.lock()
        defer { condition.unlock() }
        while true {
            // Cut off is checked first: a reset counts the tickets it cuts off as passed.
            if let cutOff = lost.last(where: { $0.tickets.contains(ticket) }) { throw cutOff.error }
            if durable >= ticket { return }
            if let failure { throw failure }
            if flushing {
                condition.wait()
                continue
            }
            flushing = true
            let target = (ticket: written, end: writtenEnd)
            let file = self.file
            condition.unlock()
            let outcome = Result { try file.synchronize() }
            condition.lock()
            flushing = false
            switch outcome {
            case .success:
                // No flush runs beside this one, and none started before it ended: the target
                // is at or past every earlier one.
                durable = target.ticket
                durableEnd = target.end
            case .failure(let error):
                failure = error
            }
            condition.broadcast()
        }
    }

    /// Why the last flush failed, while the commits after ``durableState`` are to be cut off.
    var failureToRecover: (any Error)? { condition.locked { failure } }

    /// Whether a flush failed, and the commits after ``durableState`` are to be cut off.
    var hasFailed: Bool { failureToRecover != nil }

    /// The last durable ticket, and where its frame ends.
    var durableState: (ticket: Int, end: Int) { condition.locked { (durable, durableEnd) } }

    /// Forgets the commits after the last durable one, once the journal has cut them off: their
    /// tickets fail from now on.
    func reset() {
        condition.locked {
            while flushing { condition.wait() }
            if let failure, written > durable {
                lost.append((durable + 1...written, failure))
            }
            // The tickets after `durable` are lost, not durable: the next is counted from here.
            durable = written
            writtenEnd = durableEnd
            failure = nil
            condition.broadcast()
        }
    }

    /// Waits for a flush under way to end, before the file is cut or closed.
    func waitUntilIdle() {
        condition.locked {
            while flushing { condition.wait() }
        }
    }

    /// Takes `file`, whose bytes up to `end` are durable, as the file to flush: after the journal
    /// is rewritten, or after a flush made outside (everything written is durable then).
    func replace(file: any StoreFile, end: Int) {
        condition.locked {
            while flushing { condition.wait() }
            self.file = file
            durable = written
            writtenEnd = end
            durableEnd = end
            failure = nil
            condition.broadcast()
        }
    }
}
