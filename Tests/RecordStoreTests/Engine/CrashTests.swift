import Foundation
import RecordCodable
import Testing
import record_store_crash_child

@testable import RecordStoreKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A process writing to a store is killed with SIGKILL at random moments, hundreds of times,
/// and the store is opened after each kill: every commit the process saw return must be there,
/// and the one it was making must be there whole or not at all.
@Suite("Crashes", .serialized)
struct CrashTests {
    /// The child executable, built beside the test bundle.
    static let child: URL? = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<5 {
            let candidate = directory.appendingPathComponent("record-store-crash-child")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }()

    /// Starts the child on `directory`, in `mode`.
    static func start(_ directory: URL, mode: String) throws -> (Process, Pipe) {
        let executable: URL = try #require(child, "the record-store-crash-child executable was not built")
        let process = Process()
        process.executableURL = executable
        process.arguments = [directory.path, mode]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        return (process, output)
    }

    /// Reads the child's output until it says it has opened the store, and returns what it read.
    static func waitUntilReady(_ output: Pipe) -> Data {
        var read = Data()
        while !read.starts(with: Data("ready\n".utf8)) {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { break }
            read += more
        }
        return read
    }

    /// Reads the child's output after `read`, which ends with "ready", until it has acknowledged a
    /// commit, and returns all it read.
    static func waitUntilCommitted(_ output: Pipe, after read: Data) -> Data {
        var read = read
        while !read.dropFirst("ready\n".utf8.count).contains(UInt8(ascii: "\n")) {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { break }
            read += more
        }
        return read
    }

    /// Waits until `file` exists, for as long as `process` runs, and at most a minute.
    static func waitUntilExists(_ file: URL, while process: Process) {
        let deadline = Date(timeIntervalSinceNow: 60)
        while process.isRunning, Date() < deadline, !FileManager.default.fileExists(atPath: file.path) {
            usleep(50)
        }
    }

    /// The commits the child acknowledged: the numbers of the lines it finished printing.
    static func acknowledged(_ output: Pipe, after read: Data) -> [Int] {
        let text = String(decoding: read + output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().compactMap { Int($0) }
    }

    /// Kills the child at random moments, `kills` times over each of `directories` stores, and
    /// checks each store after each kill.
    func crashRepeatedly(mode: String, directories: Int, kills: Int, seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let compacting = mode == "compact"
        // How often a kill cut a frame short, or a compaction: the moments this test is for.
        var killedInFrame = 0
        var killedInCompaction = 0
        var openedFromCheckpoint = 0
        for _ in 0..<directories {
            try withStoreDirectory { directory in
                // The last commit known to be in the store.
                var last = -1
                for kill in 0..<kills {
                    let (process, output) = try Self.start(directory, mode: mode)
                    var read = Self.waitUntilReady(output)
                    let compactingFile = directory.appendingPathComponent(Journal.compactingFileName)
                    let checkpointFile = directory.appendingPathComponent(IndexCheckpoint.fileName)
                    // One kill in four waits for a commit, and, when compacting, another for a
                    // compaction to start, so that the moments this test is for come however fast
                    // or loaded the machine is.
                    let aimed = compacting && kill % 4 == 3
                    if kill % 4 == 1 { read = Self.waitUntilCommitted(output, after: read) }
                    if aimed { Self.waitUntilExists(compactingFile, while: process) }
                    // Checkpointing, the same kill waits for a checkpoint to be there, so that a
                    // reopening finds one however slow the child is (under a sanitizer, none had
                    // been written by the time of any kill in one run).
                    if mode == "checkpoint" && kill % 4 == 3 { Self.waitUntilExists(checkpointFile, while: process) }
                    usleep(UInt32.random(in: 0...(aimed ? 2_000 : 20_000), using: &random))
                    Foundation.kill(process.processIdentifier, SIGKILL)
                    process.waitUntilExit()
                    let acknowledged = Self.acknowledged(output, after: read)
                    last = max(last, acknowledged.last ?? last)

                    if FileManager.default.fileExists(atPath: compactingFile.path) { killedInCompaction += 1 }
                    let store = try RecordStore(directory: directory)
                    let contents = try CrashWorkload.contents(of: store)
                    let withoutNext = CrashWorkload.state(after: last, compacting: compacting)
                    let withNext = CrashWorkload.state(after: last + 1, compacting: compacting)
                    #expect(
                        contents == withoutNext || contents == withNext,
                        "\(mode), seed \(seed), kill \(kill): the store holds neither commit \(last) nor \(last + 1)")
                    if contents == withNext { last += 1 }
                    if store.openReport.discardedTail != nil { killedInFrame += 1 }
                    if store.checkpointReport.usedCheckpoint { openedFromCheckpoint += 1 }
                    store.close()
                }
                #expect(last >= 0, "the child never committed")
            }
        }
        #expect(killedInFrame > 0, "no kill landed inside a frame")
        if compacting { #expect(killedInCompaction > 0, "no kill landed inside a compaction") }
        if mode == "checkpoint" { #expect(openedFromCheckpoint > 0, "no reopening used a checkpoint") }
    }

    @Test("Killed while writing, hundreds of times: no acknowledged commit lost, none half there")
    func killedWhileWriting() throws {
        try crashRepeatedly(mode: "write", directories: 8, kills: 16, seed: 0x5EED)
    }

    @Test("Killed while writing and compacting, hundreds of times: the same")
    func killedWhileCompacting() throws {
        try crashRepeatedly(mode: "compact", directories: 8, kills: 16, seed: 0xC0FFEE)
    }

    @Test("Killed while writing checkpoints every few commits, hundreds of times: the same")
    func killedWhileCheckpointing() throws {
        try crashRepeatedly(mode: "checkpoint", directories: 4, kills: 16, seed: 0xC4EC)
    }

    @Test("Killed while eight threads commit at once, sharing flushes: no acknowledged commit lost, none half there")
    func killedWhileWritingConcurrently() throws {
        var random = SplitMix64(seed: 0x8_7EAD)
        var killedInFrame = 0
        for _ in 0..<4 {
            try withStoreDirectory { directory in
                // Each thread's last commit known to be in the store.
                var last = [Int](repeating: -1, count: ConcurrentCrashWorkload.threads)
                for kill in 0..<12 {
                    let (process, output) = try Self.start(directory, mode: "concurrent")
                    var read = Self.waitUntilReady(output)
                    if kill % 3 == 1 { read = Self.waitUntilCommitted(output, after: read) }
                    usleep(UInt32.random(in: 0...50_000, using: &random))
                    Foundation.kill(process.processIdentifier, SIGKILL)
                    process.waitUntilExit()
                    let text = String(
                        decoding: read + output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    for line in text.split(separator: "\n").dropFirst() {
                        let fields = line.split(separator: " ").compactMap { Int($0) }
                        guard fields.count == 2, fields[0] < last.count else { continue }
                        last[fields[0]] = max(last[fields[0]], fields[1])
                    }
                    let store = try RecordStore(directory: directory)
                    let contents = try ConcurrentCrashWorkload.contents(of: store)
                    for thread in 0..<ConcurrentCrashWorkload.threads {
                        let found = contents[thread] ?? ConcurrentCrashWorkload.ThreadContents()
                        let acknowledged = ConcurrentCrashWorkload.state(after: last[thread])
                        let withNext = ConcurrentCrashWorkload.state(after: last[thread] + 1)
                        #expect(
                            found == acknowledged || found == withNext,
                            "kill \(kill), thread \(thread): acknowledged through \(last[thread]), found \(found.hot ?? -1)"
                        )
                        if found == withNext { last[thread] += 1 }
                    }
                    if store.openReport.discardedTail != nil { killedInFrame += 1 }
                    store.close()
                }
                // Kills come early: a thread may not have had its turn yet, but most have.
                #expect(last.filter { $0 >= 0 }.count >= ConcurrentCrashWorkload.threads / 2, "\(last)")
            }
        }
        #expect(killedInFrame > 0, "no kill landed inside a frame")
    }

    @Test("A store open in another process is refused, until that process dies")
    func ownedByAnotherProcess() throws {
        try withStoreDirectory { directory in
            let (process, output) = try Self.start(directory, mode: "write")
            // The child owns the store once it is ready.
            _ = Self.waitUntilReady(output)
            expectStoreError(.locked(path: directory.path)) { _ = try RecordStore(directory: directory) }
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            _ = try RecordStore(directory: directory)
        }
    }

    @Test("A store whose directory was moved while open keeps its owner: refused at the new path, here and elsewhere")
    func movedWhileOpen() throws {
        try withStoreDirectory { moved in
            let original = moved.deletingLastPathComponent().appendingPathComponent("moving-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: original) }
            let first = try RecordStore(directory: original)
            try first.save(noteRecord("a1"))
            try FileManager.default.moveItem(at: original, to: moved)
            // Refused here: else the second store's frames would overwrite the first's commits.
            expectStoreError(.locked(path: moved.path)) { _ = try RecordStore(directory: moved) }
            try first.save(noteRecord("a2"))
            // The refused opener never touched the lock file, so the first still holds it.
            let (process, output) = try Self.start(moved, mode: "write")
            let childOpened = Self.waitUntilReady(output).starts(with: Data("ready\n".utf8))
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(!childOpened, "another process opened the store that this one owns")
            first.close()
            #expect(try RecordStore(directory: moved).titles() == ["a1": "Title", "a2": "Title"])
        }
    }
}
