import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A file on disk, through the POSIX calls whose durability is documented: `pwrite`, then
/// `fdatasync` (Linux) or `fcntl(F_FULLFSYNC)` (Apple, where `fsync` leaves data in the drive's
/// cache).
final class DiskFile: StoreFile {
    /// The open file; -1 once closed, so that a late call fails instead of reaching whatever file
    /// the system gave the number to since.
    private var openDescriptor: Int32
    var path: String
    /// The faults that tests inject into the system calls themselves.
    private let faults: StoreFaults?

    init(descriptor: Int32, path: String, faults: StoreFaults?) {
        self.openDescriptor = descriptor
        self.path = path
        self.faults = faults
    }

    /// The open descriptor; a closed file throws ``RecordStoreError/closed(path:)``.
    private var descriptor: Int32 {
        get throws {
            guard openDescriptor >= 0 else { throw RecordStoreError.closed(path: path) }
            return openDescriptor
        }
    }

    /// The whole file mapped read-only, or `nil` when it is empty or mapping fails: then the
    /// caller reads it instead.
    func mapReadOnly() -> MappedFile? {
        guard let descriptor = try? self.descriptor, let size = try? size(), size > 0 else { return nil }
        let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0)
        guard let address, address != MAP_FAILED else { return nil }
        return MappedFile(bytes: UnsafeRawBufferPointer(start: address, count: size))
    }

    func size() throws -> Int {
        let descriptor = try self.descriptor
        let end = lseek(descriptor, 0, SEEK_END)
        guard end >= 0 else { throw Self.error("seek", path) }
        return Int(end)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws {
        let descriptor = try self.descriptor
        var done = 0
        while done < buffer.count {
            guard let base = buffer.baseAddress else { return }
            let count = pread(descriptor, base + done, buffer.count - done, off_t(offset + done))
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.error("read", path)
            }
            guard count > 0 else {
                throw RecordStoreError.corruptJournal(
                    path: path, offset: offset, reason: "the file ends before the \(buffer.count) bytes to read")
            }
            done += count
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
        let descriptor = try self.descriptor
        var done = 0
        while done < bytes.count {
            guard let base = bytes.baseAddress else { return }
            let count =
                faults?.writesNothing() == true
                ? 0 : pwrite(descriptor, base + done, bytes.count - done, off_t(offset + done))
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.error("write", path)
            }
            // A write that writes nothing and says no more would be made again forever: the device
            // takes no more, and gave no reason.
            guard count > 0 else { throw RecordStoreError.fileSystem(operation: "write", path: path, code: EIO) }
            done += count
        }
    }

    func synchronize() throws {
        let descriptor = try self.descriptor
        #if canImport(Darwin)
            // F_FULLFSYNC asks the drive to write its cache too; a file system without it gets fsync.
            if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
            guard fsync(descriptor) == 0 else { throw Self.error("fsync", path) }
        #else
            // fdatasync writes the data and the file's length, all a read needs; it skips times.
            while fdatasync(descriptor) != 0 {
                guard errno == EINTR else { throw Self.error("fdatasync", path) }
            }
        #endif
    }

    func truncate(to size: Int) throws {
        let descriptor = try self.descriptor
        while ftruncate(descriptor, off_t(size)) != 0 {
            guard errno == EINTR else { throw Self.error("truncate", path) }
        }
    }

    func close() {
        guard openDescriptor >= 0 else { return }
        _ = closeDescriptor(openDescriptor)
        openDescriptor = -1
    }

    /// The error of the POSIX call that just failed.
    static func error(_ operation: String, _ path: String) -> RecordStoreError {
        .fileSystem(operation: operation, path: path, code: errno)
    }
}

/// The directory of a store on disk.
///
/// The store's files are made, opened, renamed and removed through a descriptor of the directory
/// itself (`openat`, `renameat`, `unlinkat`), never by path: so a store whose directory is moved
/// or renamed while it is open keeps working in it, and never touches a directory that takes its
/// old path, or a link made there.
final class DiskDirectory: StoreDirectory {
    let path: String
    private let faults: StoreFaults?
    /// The directory, open for reading, from `init` until the store lets go of it (`unlock()`);
    /// `nil` afterwards, so that a descriptor number the system hands out again is never used.
    private var descriptor: Int32?
    private let identity: DirectoryIdentity
    private var lockDescriptor: Int32?

    /// The directory at `url`, created if missing, with the directories above it that are
    /// missing too.
    init(url: URL, faults: StoreFaults?) throws {
        // The directories to create, the deepest first.
        var missing: [URL] = []
        var level = url.standardizedFileURL
        while level.path != "/", !FileManager.default.fileExists(atPath: level.path) {
            missing.append(level)
            level = level.deletingLastPathComponent()
        }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw RecordStoreError.fileSystem(
                operation: "create directory", path: url.path, code: (error as NSError).posixCode ?? EIO)
        }
        // One name for one directory, whatever links lead to it: the name errors give.
        path = url.standardizedFileURL.resolvingSymlinksInPath().path
        self.faults = faults
        // A new directory is durable once its parent is: else a power loss could take it away,
        // and the store with the commits made in it. Each level created has a new parent entry.
        for created in missing {
            try Self.synchronize(directoryAt: created.deletingLastPathComponent().path, faults: faults)
        }
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw DiskFile.error("open", path) }
        do {
            identity = try DirectoryIdentity(of: descriptor, at: path)
        } catch {
            _ = closeDescriptor(descriptor)
            throw error
        }
        self.descriptor = descriptor
    }

    deinit {
        unlock()
    }

    /// The directory's descriptor, while the store holds it.
    private func openDirectory() throws -> Int32 {
        guard let descriptor else { throw RecordStoreError.closed(path: path) }
        return descriptor
    }

    private func filePath(_ name: String) -> String { path + "/" + name }

    func openFile(named name: String) throws -> (any StoreFile)? {
        let file = openat(try openDirectory(), name, O_RDWR | O_CLOEXEC)
        guard file >= 0 else {
            if errno == ENOENT { return nil }
            throw DiskFile.error("open", filePath(name))
        }
        return StoreFaults.wrap(DiskFile(descriptor: file, path: filePath(name), faults: faults), in: faults)
    }

    func createFile(named name: String) throws -> any StoreFile {
        try faults?.check(.create, operation: "create", path: filePath(name))
        let file = openat(try openDirectory(), name, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw DiskFile.error("create", filePath(name)) }
        return StoreFaults.wrap(DiskFile(descriptor: file, path: filePath(name), faults: faults), in: faults)
    }

    func rename(_ source: String, to destination: String) throws {
        let directory = try openDirectory()
        guard renameat(directory, source, directory, destination) == 0 else {
            throw DiskFile.error("rename", filePath(source))
        }
    }

    func removeFile(named name: String) throws {
        guard unlinkat(try openDirectory(), name, 0) == 0 || errno == ENOENT else {
            throw DiskFile.error("remove", filePath(name))
        }
    }

    func synchronize() throws {
        try Self.synchronize(try openDirectory(), path: path, faults: faults)
    }

    /// Makes the entries of the directory at `path` durable.
    private static func synchronize(directoryAt path: String, faults: StoreFaults?) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw DiskFile.error("open", path) }
        defer { _ = closeDescriptor(descriptor) }
        try synchronize(descriptor, path: path, faults: faults)
    }

    /// Makes the entries of the open directory `descriptor` durable.
    private static func synchronize(_ descriptor: Int32, path: String, faults: StoreFaults?) throws {
        faults?.noteSynchronized(directoryAt: path)
        #if canImport(Darwin)
            // As for files: F_FULLFSYNC writes the drive's cache too, so that a rename is durable.
            if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
        #endif
        guard fsync(descriptor) == 0 else { throw DiskFile.error("fsync", path) }
    }

    func lock() throws {
        // Two locks: one in this process, one for other processes. The lock on the file belongs
        // to the open file description that takes it, not to the process: closing another
        // descriptor of the lock file, here or in a library, leaves it in place (a POSIX record
        // lock, F_SETLK, would vanish then). It is an open file description lock on Linux and a
        // flock elsewhere; the descriptor is closed on exec, so a process started meanwhile
        // holds the lock only until it runs its program. The registry of stores open here is
        // checked before the file is even opened, so that a second opener in this process never
        // touches the file. The registry knows a directory by its device and inode, not by its
        // path: a directory moved or renamed while its store is open, or reached through a link
        // or a mount of its own, is the same one.
        guard lockDescriptor == nil else { return }
        guard Self.openHere.insert(identity) else { throw RecordStoreError.locked(path: path) }
        let lockPath = filePath(Self.lockFileName)
        let file = openat(try openDirectory(), Self.lockFileName, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard file >= 0 else {
            Self.openHere.remove(identity)
            throw DiskFile.error("open", lockPath)
        }
        if let code = Self.lockExclusively(file) {
            _ = closeDescriptor(file)
            Self.openHere.remove(identity)
            if code == EAGAIN || code == EACCES || code == EWOULDBLOCK { throw RecordStoreError.locked(path: path) }
            throw RecordStoreError.fileSystem(operation: "lock", path: lockPath, code: code)
        }
        lockDescriptor = file
    }

    /// Locks the open file `descriptor` for its open file description; the `errno` of the
    /// failure, or `nil` once locked.
    ///
    /// A lock held elsewhere is tried again for a quarter of a second before the store is
    /// reported open elsewhere: a process this one starts holds a copy of every descriptor from
    /// its fork until it runs its program, and with it the lock of a store closed meanwhile. On a
    /// loaded machine that moment lasts; reopening a store just closed met it in the tests.
    private static func lockExclusively(_ descriptor: Int32) -> Int32? {
        var code = tryLockExclusively(descriptor)
        var attempts = 0
        while code == EAGAIN || code == EACCES || code == EWOULDBLOCK, attempts < 50 {
            usleep(5_000)
            attempts += 1
            code = tryLockExclusively(descriptor)
        }
        return code
    }

    /// Locks the open file `descriptor` for its open file description, without waiting; the
    /// `errno` of the failure, or `nil` once locked.
    private static func tryLockExclusively(_ descriptor: Int32) -> Int32? {
        #if os(Linux) || os(Android)
            var region = flock()
            region.l_type = Int16(F_WRLCK)
            region.l_whence = Int16(SEEK_SET)
            // The whole file; l_pid stays 0, as an open file description lock requires.
            while fcntl(descriptor, openFileDescriptionSetLock, &region) != 0 {
                guard errno == EINTR else { return errno }
            }
        #else
            while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                guard errno == EINTR else { return errno }
            }
        #endif
        return nil
    }

    #if os(Linux) || os(Android)
        /// `F_OFD_SETLK`, which the C library declares only for GNU sources, so that Swift does
        /// not see it: its value is fixed by the Linux system call interface (since Linux 3.15).
        private static let openFileDescriptionSetLock: Int32 = 37
    #endif

    /// Lets go of the directory: the lock, then the directory's descriptor. The store uses the
    /// directory no more.
    func unlock() {
        if let lockDescriptor {
            // Closing the descriptor ends the lock, its only one; the process ending ends it too.
            _ = closeDescriptor(lockDescriptor)
            self.lockDescriptor = nil
            Self.openHere.remove(identity)
        }
        if let descriptor {
            _ = closeDescriptor(descriptor)
            self.descriptor = nil
        }
    }

    /// The stores open in this process, by directory.
    private static let openHere = DirectoryRegistry()

    static let lockFileName = "store.lock"
}

/// A directory, by its device and inode: the same whatever its path, while it exists.
private struct DirectoryIdentity: Hashable {
    let device: UInt64
    let inode: UInt64

    /// The identity of the open directory `descriptor`, whose path is `path`.
    init(of descriptor: Int32, at path: String) throws {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw RecordStoreError.fileSystem(operation: "stat", path: path, code: errno)
        }
        device = UInt64(truncatingIfNeeded: status.st_dev)
        inode = UInt64(truncatingIfNeeded: status.st_ino)
    }
}

/// The directories of the stores open in this process, which many threads may change.
private final class DirectoryRegistry: @unchecked Sendable {
    private let lock = NSLock()
    /// Only touched with `lock` held.
    private var directories: Set<DirectoryIdentity> = []

    /// Adds `directory`; `false` when it is an open store's already.
    func insert(_ directory: DirectoryIdentity) -> Bool {
        lock.locked { directories.insert(directory).inserted }
    }

    func remove(_ directory: DirectoryIdentity) {
        _ = lock.locked { directories.remove(directory) }
    }
}

/// `close(2)`, named apart from the methods called `close()`.
private func closeDescriptor(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}

extension NSError {
    /// The POSIX error code under a Cocoa file error, if there is one.
    fileprivate var posixCode: Int32? {
        if domain == NSPOSIXErrorDomain { return Int32(truncatingIfNeeded: code) }
        // On Linux the underlying error is a `POSIXError`, which `as? NSError` does not find.
        return (userInfo[NSUnderlyingErrorKey] as? any Error).flatMap { ($0 as NSError).posixCode }
    }
}
