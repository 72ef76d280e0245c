import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A file of the store: read and written at offsets, made durable on request.
///
/// The journal reads and writes only through this, so the same engine keeps a store on disk
/// (``DiskFile``) or in memory (``MemoryFile``), and a test can make a write fail half-way
/// (``StoreFaults``) to see that the store survives it.
protocol StoreFile: AnyObject {
    /// Where the file is, for messages; the journal changes it when it renames the file.
    var path: String { get set }

    /// The file's length in bytes.
    func size() throws -> Int

    /// Fills `buffer` with the bytes at `offset`; fails when the file ends before it is full.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws

    /// Writes `bytes` at `offset`, growing the file as needed.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws

    /// Returns once everything written is on stable storage.
    func synchronize() throws

    /// Cuts the file to `size` bytes.
    func truncate(to size: Int) throws

    /// Lets go of the file. Nothing may be asked of it afterwards.
    func close()
}

extension StoreFile {
    /// The `count` bytes at `offset`.
    func read(count: Int, at offset: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        try bytes.withUnsafeMutableBytes { try read(into: $0, at: offset) }
        return bytes
    }

    func write(_ bytes: [UInt8], at offset: Int) throws {
        try bytes.withUnsafeBytes { try write($0, at: offset) }
    }
}

/// The directory that holds a store's files: the journal, the copy that compaction writes, and
/// the lock that keeps a second process out.
protocol StoreDirectory: AnyObject {
    /// Where the store is, for messages.
    var path: String { get }

    /// Opens an existing file for reading and writing, or returns `nil` when there is none.
    func openFile(named name: String) throws -> (any StoreFile)?

    /// Creates a file, empty, replacing any file of that name.
    func createFile(named name: String) throws -> any StoreFile

    /// Renames `source` to `destination`, replacing it at once: whoever opens `destination`
    /// finds either the old file or the whole new one.
    func rename(_ source: String, to destination: String) throws

    /// Makes the directory's entries durable: a file created or renamed is found after a crash.
    func synchronize() throws

    /// Removes a file if it exists.
    func removeFile(named name: String) throws

    /// Takes the store for this process, or fails with ``RecordStoreError/locked(path:)``.
    /// The ownership ends with ``unlock()`` or with the process.
    func lock() throws

    /// Gives the store up, for another process to open.
    func unlock()
}

/// Failures to inject into a store's writes, for tests: a full disk, a crash between two parts
/// of a write.
///
/// The store's ``RecordStore/Options`` carry one; only tests set it.
package final class StoreFaults: @unchecked Sendable {
    private let lock = NSLock()
    /// Only touched with `lock` held.
    private var failure: (code: Int32, afterBytes: Int)?
    private var chunk: Int?
    private var pause: UInt32 = 0
    private var failingCalls: [Call: (code: Int32, times: Int)] = [:]

    package init() {}

    /// A file call other than a write that can be made to fail.
    enum Call: Hashable {
        /// ``StoreFile/synchronize()``: `fdatasync` or `F_FULLFSYNC`, which can fail with `EIO`.
        case flush
        /// ``StoreFile/truncate(to:)``.
        case truncate
    }

    /// Makes the next `times` calls of `call` fail with `code`, such as `EIO`, having done
    /// nothing.
    func fail(_ call: Call, times: Int, with code: Int32) {
        lock.locked { failingCalls[call] = (code, times) }
    }

    /// The error code a call of `call` fails with now, if it fails.
    func failure(of call: Call) -> Int32? {
        lock.locked {
            guard let current = failingCalls[call], current.times > 0 else { return nil }
            failingCalls[call] = (current.code, current.times - 1)
            return current.code
        }
    }

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
        if let code = faults.failure(of: .flush) {
            throw RecordStoreError.fileSystem(operation: "flush", path: path, code: code)
        }
        try file.synchronize()
    }
    func truncate(to size: Int) throws {
        if let code = faults.failure(of: .truncate) {
            throw RecordStoreError.fileSystem(operation: "truncate", path: path, code: code)
        }
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
