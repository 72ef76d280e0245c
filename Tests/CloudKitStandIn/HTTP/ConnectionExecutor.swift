import Dispatch
import Foundation

/// Runs a handler's task on the thread of the connection that waits for its answer.
///
/// Swift's cooperative pool has a thread per core (two on the CI machine), and a test run keeps
/// them busy with tests that block: a handler's task queued behind them could wait longer than
/// the server's time limit, and its client would meet a `500` it never caused. The connection's
/// thread waits for the answer anyway, so it runs the task's jobs itself: the task prefers this
/// executor (`Task(executorPreference:)`), and every job it enqueues waits here for ``run(until:stopping:)``.
///
/// Once the connection gives up (``abandon()``), the task's remaining jobs run on Dispatch's
/// threads instead, so that a cancelled handler still ends and frees what it holds.
final class ConnectionExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs`, `response` and `abandoned` are read and written with `condition` held.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var response: StandInResponse?
    private var abandoned = false

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        guard !abandoned else {
            condition.unlock()
            runElsewhere(job)
            return
        }
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Hands the handler's answer to the waiting connection.
    func finish(_ answer: StandInResponse) {
        condition.lock()
        response = answer
        condition.signal()
        condition.unlock()
    }

    /// Runs the task's jobs on the calling thread until the handler answers (its answer), the
    /// deadline passes or `stopping` says so (`nil`).
    func run(until deadline: Date, stopping: () -> Bool) -> StandInResponse? {
        condition.lock()
        defer { condition.unlock() }
        while response == nil, !stopping(), Date() < deadline {
            guard !jobs.isEmpty else {
                // Woken by a job or the answer; every 20 ms, to see whether the server stops.
                _ = condition.wait(until: min(deadline, Date(timeIntervalSinceNow: 0.02)))
                continue
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
            condition.lock()
        }
        return response
    }

    /// Stops waiting: the jobs queued, and any the task enqueues later, run on Dispatch's threads.
    func abandon() {
        condition.lock()
        abandoned = true
        let pending = jobs
        jobs = []
        condition.unlock()
        pending.forEach(runElsewhere)
    }

    private func runElsewhere(_ job: UnownedJob) {
        DispatchQueue.global().async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
