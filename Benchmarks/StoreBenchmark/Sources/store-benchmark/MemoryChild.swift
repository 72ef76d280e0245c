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
/// after 1,000 point reads.
struct MemoryFigures {
    var start: (anonymous: Int, file: Int)
    var opened: (anonymous: Int, file: Int)
    var read: (anonymous: Int, file: Int)

    /// The figures as the child prints them: six numbers on one line.
    var line: String {
        [start.anonymous, start.file, opened.anonymous, opened.file, read.anonymous, read.file]
            .map(String.init).joined(separator: " ")
    }

    init(start: (Int, Int), opened: (Int, Int), read: (Int, Int)) {
        self.start = start
        self.opened = opened
        self.read = read
    }

    init?(line: String) {
        let numbers = line.split(separator: " ").compactMap { Int($0) }
        guard numbers.count == 6 else { return nil }
        self.init(start: (numbers[0], numbers[1]), opened: (numbers[2], numbers[3]), read: (numbers[4], numbers[5]))
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
    do {
        guard let start = residentMemory() else { throw SQLiteStore.Failure(description: "no /proc/self/status") }
        let keys = (0..<1_000).map { smallRecord(($0 &* 7919) % count).key }
        var checksum = 0
        let opened: (anonymous: Int, file: Int)?
        if kind == "store" {
            let store = try RecordStore(directory: URL(fileURLWithPath: path))
            opened = residentMemory()
            for key in keys { checksum &+= try store.recordJSON(for: key)?.count ?? 0 }
            withExtendedLifetime(store) {}
        } else {
            let sqlite = try SQLiteStore(path: path)
            opened = residentMemory()
            for key in keys {
                checksum &+= try sqlite.json(zone: key.zone, type: key.recordType, name: key.recordName)?.count ?? 0
            }
            withExtendedLifetime(sqlite) {}
        }
        guard let opened, let read = residentMemory(), checksum > 0 else {
            throw SQLiteStore.Failure(description: "nothing measured")
        }
        // Read with the store still open: measured before it is released.
        print(MemoryFigures(start: start, opened: opened, read: read).line)
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("memory child: \(error)\n".utf8))
        exit(1)
    }
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
