import Dispatch
import Foundation
@_spi(Benchmarks) import RecordStoreKit

// The memory an open store keeps, each store measured in a process of its own: in one process,
// the second store's figures depend on what the allocator kept of the first's, and the first's
// on what building both stores left behind.

/// The process's resident memory in bytes, from /proc/self/status: `RssAnon` (its heap) and
/// `RssFile` (the pages of files it maps, its code and the store's mapped checkpoint among them,
/// which the system shares with its file cache and takes back at will); `nil` where there is no
/// such file.
func residentMemory() -> (anonymous: Int, file: Int)? {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    var found: [String: Int] = [:]
    for line in text.split(separator: "\n") where line.hasPrefix("RssAnon:") || line.hasPrefix("RssFile:") {
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard fields.count > 1, let kilobytes = Int(fields[1]) else { return nil }
        found[String(fields[0])] = kilobytes * 1024
    }
    guard let anonymous = found["RssAnon:"], let file = found["RssFile:"] else { return nil }
    return (anonymous, file)
}

/// What a child process measured: resident memory when it started, once the store was open, and
/// after 1,000 point reads; and how long those reads took, the first the store made.
struct MemoryFigures {
    var start: (anonymous: Int, file: Int)
    var opened: (anonymous: Int, file: Int)
    var read: (anonymous: Int, file: Int)
    var readingNanoseconds: Int

    /// The figures as the child prints them: seven numbers on one line.
    var line: String {
        [start.anonymous, start.file, opened.anonymous, opened.file, read.anonymous, read.file, readingNanoseconds]
            .map(String.init).joined(separator: " ")
    }

    init(start: (Int, Int), opened: (Int, Int), read: (Int, Int), readingNanoseconds: Int) {
        self.start = start
        self.opened = opened
        self.read = read
        self.readingNanoseconds = readingNanoseconds
    }

    init?(line: String) {
        let numbers = line.split(separator: " ").compactMap { Int($0) }
        guard numbers.count == 7 else { return nil }
        self.init(
            start: (numbers[0], numbers[1]), opened: (numbers[2], numbers[3]), read: (numbers[4], numbers[5]),
            readingNanoseconds: numbers[6])
    }
}

/// The argument that makes the benchmark a child measuring one store's memory:
/// `--memory-child store|sqlite PATH COUNT`.
let memoryChildFlag = "--memory-child"

/// When the benchmark runs as a memory child: opens the store at the path its arguments give
/// (a RecordStore's directory, or SQLite's file), reads 1,000 records, prints what it measured,
/// and exits.
func runMemoryChildIfAsked() {
    let arguments = CommandLine.arguments
    guard let flag = arguments.firstIndex(of: memoryChildFlag), arguments.count >= flag + 4,
        let count = Int(arguments[flag + 3]), count > 0
    else { return }
    let (kind, path) = (arguments[flag + 1], arguments[flag + 2])
    let keys = (0..<1_000).map { smallRecord(($0 &* 7919) % count).key }
    do {
        let figures =
            kind == "store"
            ? try measureOpenStore(
                keys: keys, open: { try RecordStore(directory: URL(fileURLWithPath: path)) },
                read: { try $0.recordJSON(for: $1) != nil })
            : try measureOpenStore(
                keys: keys, open: { try SQLiteStore(path: path) },
                read: { try $0.json(zone: $1.zone, type: $1.recordType, name: $1.recordName) != nil })
        print(figures.line)
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("memory child: \(error)\n".utf8))
        exit(1)
    }
}

/// Opens a store with `open` and reads the record of each of `keys` with `read`, taking the
/// process's resident memory before opening, once opened, and after the reads, with the store
/// still open.
func measureOpenStore<Store>(
    keys: [RecordKey], open: () throws -> Store, read: (Store, RecordKey) throws -> Bool
) throws -> MemoryFigures {
    guard let start = residentMemory() else { throw SQLiteStore.Failure(description: "no /proc/self/status") }
    let store = try open()
    let opened = residentMemory()
    let readingStart = DispatchTime.now().uptimeNanoseconds
    var found = 0
    for key in keys where try read(store, key) { found += 1 }
    let reading = Int(DispatchTime.now().uptimeNanoseconds - readingStart)
    let afterReads = residentMemory()
    withExtendedLifetime(store) {}
    guard let opened, let afterReads else { throw SQLiteStore.Failure(description: "nothing measured") }
    guard found == keys.count else {
        throw SQLiteStore.Failure(description: "found \(found) of the \(keys.count) records read")
    }
    return MemoryFigures(start: start, opened: opened, read: afterReads, readingNanoseconds: reading)
}

/// Runs this benchmark again as a child measuring the store of `kind` at `path`, which holds
/// `count` small records.
func measureMemoryInChild(_ kind: String, path: String, count: Int) -> MemoryFigures? {
    let process = Process()
    let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    process.executableURL = URL(fileURLWithPath: executable ?? CommandLine.arguments[0])
    process.arguments = [memoryChildFlag, kind, path, String(count)]
    let output = Pipe()
    process.standardOutput = output
    do {
        try process.run()
    } catch {
        say("  could not run the memory child: \(error)")
        return nil
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    return MemoryFigures(line: text)
}
