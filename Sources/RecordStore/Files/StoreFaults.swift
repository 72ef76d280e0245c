import Foundation

/// Failures to inject into a store's writes, for tests: a full disk, a crash between two parts
/// of a write, a write that writes nothing. It also notes the directories the store makes
/// durable, for tests to check.
///
/// The store's ``RecordStore/Options`` carry one; only tests set it.
package final class StoreFaults: @unchecked Sendable {
    private let lock = NSLock()
    /// Only touched with `lock` held.
    private var failure: (code: Int32, afterBytes: Int)?
    private var chunk: Int?
    private var pause: UInt32 = 0
    private var failingCalls: [Call: (code: Int32, times: Int)] = [:]
    private var emptyWrites = 0
    private var calls: [Call: Int] = [:]
    private var synchronized: [String] = []

    package init() {}

    /// A file call other than a write that can be made to fail.
    enum Call: Hashable {
        /// ``StoreFile/synchronize()``: `fdatasync` or `F_FULLFSYNC`, which can fail with `EIO`.
        case flush
        /// ``StoreFile/truncate(to:)``.
        case truncate
        /// ``StoreDirectory/createFile(named:)``: what compaction does first, and a full disk
        /// can refuse.
        case create
    }

    /// Makes the next `times` calls of `call` fail with `code`, such as `EIO`, having done
    /// nothing.
    func fail(_ call: Call, times: Int, with code: Int32) {
        lock.locked { failingCalls[call] = (code, times) }
    }

    /// The error code a call of `call` fails with now, if it fails.
    func failure(of call: Call) -> Int32? {
        lock.locked {
            calls[call, default: 0] += 1
            guard let current = failingCalls[call], current.times > 0 else { return nil }
            failingCalls[call] = (current.code, current.times - 1)
            return current.code
        }
    }

    /// How many calls of `call` were made, failed or not.
    func count(of call: Call) -> Int {
        lock.locked { calls[call, default: 0] }
    }

    /// Throws the error of `operation` on `path` when a call of `call` fails now.
    func check(_ call: Call, operation: String, path: String) throws {
        if let code = failure(of: call) {
            throw RecordStoreError.fileSystem(operation: operation, path: path, code: code)
        }
    }

    /// Makes the next `times` system writes of a file on disk write nothing and report no
    /// error, as `pwrite` may when it returns 0.
    func writeNothing(times: Int) {
        lock.locked { emptyWrites = times }
    }

    /// Whether the system write being made now writes nothing.
    func writesNothing() -> Bool {
        lock.locked {
            guard emptyWrites > 0 else { return false }
            emptyWrites -= 1
            return true
        }
    }

    /// Notes that the directory at `path` was made durable.
    func noteSynchronized(directoryAt path: String) {
        lock.locked { synchronized.append(path) }
    }

    /// The directories made durable on disk, in order: for tests that check which.
    var synchronizedDirectories: [String] { lock.locked { synchronized } }

    /// Makes every write fail with `code` (such as `ENOSPC`) once `afterBytes` more bytes are
    /// written; `nil` lets writes succeed again.
    func failWrites(with code: Int32?, afterBytes: Int = 0) {
        lock.locked { failure = code.map { ($0, afterBytes) } }
    }

    /// Splits every write into parts of `bytes`, written one after another with a pause of
    /// `microseconds` between them — a slow disk — so that a process killed in a write is
    /// likely to leave a part of a frame behind.
    package func splitWrites(into bytes: Int?, pausing microseconds: UInt32 = 0) {
        lock.locked {
            chunk = bytes.map { max(1, $0) }
            pause = microseconds
        }
    }

    var pauseBetweenParts: UInt32 { lock.locked { pause } }

    /// How many bytes of a write of `count` bytes go through now, and the error that stops
    /// the rest, if any.
    func admit(_ count: Int) -> (allowed: Int, error: Int32?) {
        lock.locked {
            guard let current = failure else { return (count, nil) }
            let allowed = min(count, current.afterBytes)
            failure = (current.code, current.afterBytes - allowed)
            return (allowed, allowed < count ? current.code : nil)
        }
    }

    var chunkSize: Int? { lock.locked { chunk } }
}

extension StoreFaults {
    /// `file`, with its writes going through `faults` when there are any.
    static func wrap(_ file: any StoreFile, in faults: StoreFaults?) -> any StoreFile {
        guard let faults else { return file }
        return FaultInjectingFile(file: file, faults: faults)
    }
}

/// A file whose writes, flushes and truncations fail, or whose writes go in parts, as its
/// ``StoreFaults`` say.
private final class FaultInjectingFile: StoreFile {
    let file: any StoreFile
    let faults: StoreFaults

    init(file: any StoreFile, faults: StoreFaults) {
        self.file = file
        self.faults = faults
    }

    var path: String {
        get { file.path }
        set { file.path = newValue }
    }

    func size() throws -> Int { try file.size() }
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws {
        try file.read(into: buffer, at: offset)
    }
    func synchronize() throws {
        try faults.check(.flush, operation: "flush", path: path)
        try file.synchronize()
    }
    func truncate(to size: Int) throws {
        try faults.check(.truncate, operation: "truncate", path: path)
        try file.truncate(to: size)
    }
    func close() { file.close() }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
        let admitted = faults.admit(bytes.count)
        let part = faults.chunkSize ?? max(admitted.allowed, 1)
        var written = 0
        let pause = faults.pauseBetweenParts
        while written < admitted.allowed {
            if written > 0, pause > 0 { usleep(pause) }
            let end = min(written + part, admitted.allowed)
            try file.write(UnsafeRawBufferPointer(rebasing: bytes[written..<end]), at: offset + written)
            written = end
        }
        if let code = admitted.error {
            throw RecordStoreError.fileSystem(operation: "write", path: path, code: code)
        }
    }
}
