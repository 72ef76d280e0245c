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

/// A file's bytes mapped read-only into memory, unmapped when released.
final class MappedFile {
    let bytes: UnsafeRawBufferPointer

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}

extension StoreFile {
    /// The whole file mapped read-only into memory, or `nil` when it cannot be: a file in memory,
    /// or one whose calls a test makes fail.
    func mapped() throws -> MappedFile? {
        (self as? DiskFile)?.mapReadOnly()
    }

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
