import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A file kept in memory, for a store that tests and previews throw away: the same journal,
/// frames and compaction as on disk, without the disk.
///
/// It keeps two images, as a disk does for a power cut: what was written, and what was last
/// flushed (``synchronize()``). ``loseUnflushedWrites()`` goes back to the second, so that tests
/// show that every promise of durability rests on a flush.
///
/// Its calls may come from two threads at once, as a disk file's may: a commit's write with the
/// store's lock held, and a flush for waiting commits without it (see ``GroupFlush``).
final class MemoryFile: StoreFile {
    /// Guards both images.
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    /// The bytes as of the last flush: what a power cut leaves.
    private var flushedBytes: [UInt8] = []
    var path: String

    init(path: String) {
        self.path = path
    }

    func size() throws -> Int { lock.locked { bytes.count } }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws {
        lock.lock()
        defer { lock.unlock() }
        guard offset >= 0, offset <= bytes.count, bytes.count - offset >= buffer.count else {
            throw RecordStoreError.corruptJournal(
                path: path, offset: offset, reason: "the file ends before the \(buffer.count) bytes to read")
        }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<offset + buffer.count]))
        }
    }

    func write(_ source: UnsafeRawBufferPointer, at offset: Int) throws {
        lock.lock()
        defer { lock.unlock() }
        guard offset >= 0 else { throw RecordStoreError.fileSystem(operation: "write", path: path, code: EINVAL) }
        if bytes.count < offset + source.count {
            bytes += [UInt8](repeating: 0, count: offset + source.count - bytes.count)
        }
        bytes.withUnsafeMutableBytes { target in
            UnsafeMutableRawBufferPointer(rebasing: target[offset..<offset + source.count]).copyMemory(from: source)
        }
    }

    func synchronize() throws {
        lock.locked { flushedBytes = bytes }
    }

    /// Goes back to the bytes of the last flush, as a power cut does.
    func loseUnflushedWrites() {
        lock.locked { bytes = flushedBytes }
    }

    func truncate(to size: Int) throws {
        lock.lock()
        defer { lock.unlock() }
        if size < bytes.count {
            bytes.removeSubrange(max(size, 0)...)
        } else {
            bytes += [UInt8](repeating: 0, count: size - bytes.count)
        }
    }

    func close() {}
}

/// The files of an in-memory store.
///
/// Like ``MemoryFile``, it keeps its entries as written and as last flushed: a file created,
/// renamed or removed since the last ``synchronize()`` is lost to ``loseUnflushedWrites()``.
final class MemoryDirectory: StoreDirectory {
    private var files: [String: MemoryFile] = [:]
    /// The entries as of the last flush.
    private var flushedFiles: [String: MemoryFile] = [:]
    private let faults: StoreFaults?

    init(faults: StoreFaults?) {
        self.faults = faults
    }

    var path: String { "memory" }

    func openFile(named name: String) throws -> (any StoreFile)? {
        files[name].map { StoreFaults.wrap($0, in: faults) }
    }

    func createFile(named name: String) throws -> any StoreFile {
        try faults?.check(.create, operation: "create", path: path + "/" + name)
        let file = MemoryFile(path: path + "/" + name)
        files[name] = file
        return StoreFaults.wrap(file, in: faults)
    }

    func rename(_ source: String, to destination: String) throws {
        guard let file = files.removeValue(forKey: source) else {
            throw RecordStoreError.fileSystem(operation: "rename", path: source, code: ENOENT)
        }
        file.path = path + "/" + destination
        files[destination] = file
    }

    func synchronize() throws {
        flushedFiles = files
    }

    /// What a power cut leaves: the entries of the last flush, each file as last flushed. A
    /// store open on the directory must be dropped, not used again.
    func loseUnflushedWrites() {
        files = flushedFiles
        for (name, file) in files {
            file.path = path + "/" + name
            file.loseUnflushedWrites()
        }
    }

    func removeFile(named name: String) throws {
        files[name] = nil
    }

    /// Nobody else can reach an in-memory store.
    func lock() throws {}
    func unlock() {}
}
