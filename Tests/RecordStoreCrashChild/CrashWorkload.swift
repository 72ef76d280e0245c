import Foundation
import RecordCodable
import RecordStoreKit

/// The writes that the crash tests interrupt: commit after commit of a few records, each commit
/// all-or-nothing, whose expected contents are known for any number of commits.
///
/// Commit `n` saves three records `c<n>-0…2` of a varying size, and overwrites one of four
/// records `hot-<k>`; when compacting, it also deletes the records of commit `n - 5`, so that
/// most of the journal dies quickly and the store compacts it again and again.
public enum CrashWorkload {
    /// The type of the records the workload writes.
    public static let recordType = "Crash"

    /// Writes commit `n`.
    static func commit(_ n: Int, to store: RecordStore, compacting: Bool) throws {
        try store.write { batch in
            for record in saved(by: n) { try batch.save(record) }
            if compacting, n >= 5 {
                for name in created(by: n - 5) {
                    try batch.deleteRecord(for: RecordKey(recordType: recordType, recordName: name))
                }
            }
        }
    }

    /// The records' commit numbers, by record name, once commits 0 through `n` are written.
    public static func state(after n: Int, compacting: Bool) -> [String: Int64] {
        var state: [String: Int64] = [:]
        guard n >= 0 else { return state }
        for commit in 0...n {
            for record in saved(by: commit) { state[record.recordName] = Int64(commit) }
            if compacting, commit >= 5 {
                for name in created(by: commit - 5) { state[name] = nil }
            }
        }
        return state
    }

    /// The store's contents, in the same form.
    public static func contents(of store: RecordStore) throws -> [String: Int64] {
        var contents: [String: Int64] = [:]
        for record in try store.records(ofType: recordType) {
            if case .int64(let commit) = record["commit"] { contents[record.recordName] = commit }
        }
        return contents
    }

    private static func created(by n: Int) -> [String] {
        (0..<3).map { "c\(n)-\($0)" }
    }

    private static func saved(by n: Int) -> [Record] {
        (created(by: n) + ["hot-\(n % 4)"]).map { name in
            Record(
                recordType: recordType, recordName: name,
                fields: [
                    "commit": .int64(Int64(n)),
                    "payload": .string(String(repeating: "x", count: 40 + (n * 37) % 300)),
                ])
        }
    }

    /// The options the child opens its store with: small compaction threshold when compacting,
    /// a checkpoint every few commits when checkpointing, and writes split into small parts, so
    /// that a kill lands inside a frame (or a checkpoint) as often as between two.
    static func options(compacting: Bool, checkpointing: Bool = false) -> RecordStore.Options {
        var options = RecordStore.Options()
        options.compactionThreshold = compacting ? 2048 : 1 << 30
        if checkpointing {
            options.checkpointThreshold = 0
            options.checkpointInterval = 2048
        }
        let faults = StoreFaults()
        faults.splitWrites(into: 61, pausing: 100)
        options.faults = faults
        return options
    }

    /// Opens the store at `directory`, prints "ready", carries on from its last commit, and
    /// prints the number of each commit once it returns, until killed.
    static func run(directory: URL, compacting: Bool, checkpointing: Bool = false) throws {
        let store = try RecordStore(
            directory: directory, options: options(compacting: compacting, checkpointing: checkpointing))
        var next = (try contents(of: store).values.max()).map { Int($0) + 1 } ?? 0
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        while true {
            try commit(next, to: store, compacting: compacting)
            FileHandle.standardOutput.write(Data("\(next)\n".utf8))
            next += 1
        }
    }
}

/// The writes of eight threads at once that the crash tests interrupt: each thread commits, one
/// after another, a record `w<thread>-<n>` and an overwrite of `w<thread>-hot`, both holding `n`,
/// and prints `<thread> <n>` once the commit has returned.
public enum ConcurrentCrashWorkload {
    /// How many threads write.
    public static let threads = 8

    /// What the store holds of each thread: the numbers of its commits found, and the last one
    /// that its hot record holds.
    public struct ThreadContents: Equatable, Sendable {
        /// The numbers of the thread's commits whose own record is there.
        public var commits: Set<Int> = []
        /// The commit that the thread's hot record holds.
        public var hot: Int?

        /// Contents of `commits` and `hot`.
        public init(commits: Set<Int> = [], hot: Int? = nil) {
            self.commits = commits
            self.hot = hot
        }
    }

    /// The store's contents, by thread.
    public static func contents(of store: RecordStore) throws -> [Int: ThreadContents] {
        var contents: [Int: ThreadContents] = [:]
        for record in try store.records(ofType: CrashWorkload.recordType) {
            let parts = record.recordName.dropFirst().split(separator: "-")
            guard parts.count == 2, let thread = Int(parts[0]), case .int64(let commit) = record["commit"] else {
                continue
            }
            if parts[1] == "hot" {
                contents[thread, default: ThreadContents()].hot = Int(commit)
            } else {
                contents[thread, default: ThreadContents()].commits.insert(Int(commit))
            }
        }
        return contents
    }

    /// What a thread's commits 0 through `n` leave.
    public static func state(after n: Int) -> ThreadContents {
        n < 0 ? ThreadContents() : ThreadContents(commits: Set(0...n), hot: n)
    }

    static func commit(_ n: Int, thread: Int, to store: RecordStore) throws {
        let records = ["w\(thread)-\(n)", "w\(thread)-hot"].map { name in
            Record(
                recordType: CrashWorkload.recordType, recordName: name,
                fields: ["commit": .int64(Int64(n)), "payload": .string(String(repeating: "y", count: 40 + n % 200))])
        }
        try store.save(contentsOf: records)
    }

    /// Opens the store at `directory`, prints "ready", and runs the threads, until killed.
    static func run(directory: URL) throws {
        let store = try RecordStore(directory: directory, options: CrashWorkload.options(compacting: false))
        let found = try contents(of: store)
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        for thread in 0..<threads {
            let first = (found[thread]?.hot ?? -1) + 1
            Thread.detachNewThread {
                var next = first
                while true {
                    do {
                        try commit(next, thread: thread, to: store)
                    } catch {
                        FileHandle.standardError.write(Data("\(error)\n".utf8))
                        exit(1)
                    }
                    FileHandle.standardOutput.write(Data("\(thread) \(next)\n".utf8))
                    next += 1
                }
            }
        }
        while true { sleep(60) }
    }
}
