import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Why a store could not be opened, read or written.
///
/// Each error says what happened and what to do about it; its `description` (and
/// `errorDescription`) is a sentence for a log or a person:
///
/// ```swift
/// do {
///     let store = try RecordStore(directory: url)
/// } catch RecordStoreError.locked(let path) {
///     print("Another process has \(path) open")
/// }
/// ```
///
/// A model or record that cannot be stored fails with the package's own errors instead:
/// `EncodingError` and `DecodingError`, with the coding path of the value at fault.
public enum RecordStoreError: Error, Hashable, Sendable {
    /// Another process — or another open ``RecordStore`` in this one — owns the store. One
    /// owner at a time keeps two writers from interleaving frames in the same journal.
    case locked(path: String)

    /// A file-system call failed: `code` is its `errno`, such as `ENOSPC` for a full disk. A
    /// failed commit leaves nothing behind; the store stays usable.
    case fileSystem(operation: String, path: String, code: Int32)

    /// The directory holds a file named like the journal that is not one.
    case notAStore(path: String)

    /// The journal was written by a newer version of the format.
    case unsupportedFormat(path: String, version: Int)

    /// Committed data cannot be read: opening the store found a damaged frame before the end of
    /// the journal, or a read found an entry it cannot take apart. When opening fails with it,
    /// ``RecordStore/Options/recoversDamagedFrames`` opens the store with what can be read.
    case corruptJournal(path: String, offset: Int, reason: String)

    /// The store is encrypted and was opened without a cipher.
    case cipherRequired(path: String)

    /// The store is not encrypted and was opened with a cipher.
    case notEncrypted(path: String)

    /// The cipher cannot open the store: it is not the one the store was created with.
    case wrongCipher(path: String)

    /// The store's cipher failed to open the entry at `offset`, whose frame's checksum holds:
    /// `reason` is the cipher's own error. It is not damage the store can skip or cut off — a
    /// cipher whose key is not available yet fails so — and opening the store fails with it,
    /// whatever ``RecordStore/Options/recoversDamagedFrames`` says. When the cipher works, the
    /// entry was sealed wrong, or changed since by someone who wrote its checksum again.
    case cipherFailed(path: String, offset: Int, reason: String)

    /// The store was closed.
    case closed(path: String)

    /// A record without a name cannot be stored: its name is its key.
    case unnamedRecord(recordType: String)

    /// One commit would write more than a frame may hold (`limit` bytes): split the batch.
    case commitTooLarge(bytes: Int, limit: Int)

    /// ``RecordStore/write(_:)`` was called from inside the closure of another write, which
    /// would have committed apart from it; make the change through the closure's batch.
    case nestedWrite

    /// The merge closure of a ``RecordStore/ConflictPolicy/merge(_:)`` policy returned a record
    /// of another type or name than the record in conflict, `key`: a merge makes a version of the
    /// same record.
    case mergeChangedRecord(key: RecordKey, recordType: String, recordName: String)
}

extension RecordStoreError: LocalizedError, CustomStringConvertible {
    /// What happened, and what to do about it.
    public var description: String {
        switch self {
        case .locked(let path):
            "The store at \(path) is open in another process, or already open in this one. A store has one "
                + "owner at a time: close the other RecordStore first, or share that one."
        case .fileSystem(let operation, let path, let code):
            "Could not \(operation) \(path): \(String(cString: strerror(code))) (errno \(code))."
                + (code == ENOSPC ? " Free some space and try again; the store is unchanged and still usable." : "")
        case .notAStore(let path):
            "\(path) is not a RecordStore journal."
        case .unsupportedFormat(let path, let version):
            "\(path) is in version \(version) of the journal format, which this version of RecordStore cannot "
                + "read. Open it with a newer version."
        case .corruptJournal(let path, let offset, let reason):
            "The journal \(path) is damaged at offset \(offset): \(reason). When opening the store fails with "
                + "this error, opening it with recoversDamagedFrames keeps every commit that can still be read."
        case .cipherRequired(let path):
            "The store at \(path) is encrypted: open it with the cipher it was created with."
        case .notEncrypted(let path):
            "The store at \(path) is not encrypted, but a cipher was given: open it without one."
        case .wrongCipher(let path):
            "The cipher cannot open the store at \(path): it is not the cipher (or key) the store was created with."
        case .cipherFailed(let path, let offset, let reason):
            "The cipher could not open the entry at offset \(offset) of \(path): \(reason). The entry is as it "
                + "was written: if the cipher's key is available and right, it was changed since."
        case .closed(let path):
            "The store at \(path) is closed."
        case .unnamedRecord(let recordType):
            "A record of type '\(recordType)' has no name, and a stored record is found by its name: give the "
                + "model an identifier, or the record a name."
        case .commitTooLarge(let bytes, let limit):
            "One commit would write \(bytes) bytes, more than the \(limit) a journal frame holds: write the "
                + "changes in several batches."
        case .nestedWrite:
            "write(_:) was called inside the closure of another write: make the change through the batch the "
                + "closure is given, so that it commits with the rest."
        case .mergeChangedRecord(let key, let recordType, let recordName):
            "The conflict policy's merge of \(key) returned a record of type '\(recordType)' named '\(recordName)': "
                + "return a version of the same record, with its type and name, or nil to delete it."
        }
    }

    /// The same as ``description``.
    public var errorDescription: String? { description }
}
