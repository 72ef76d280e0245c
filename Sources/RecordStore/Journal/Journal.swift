import Foundation

/// The append-only journal: a file of checksummed frames, each the entries of one committed
/// batch, made durable before a commit returns.
///
/// The journal knows bytes, not records: it appends frames (``write(_:)``, made durable by ``flusher`` for several commits at once), reads an entry at
/// its offset (``read(_:)``), copies the live entries into a new file when most of the file is
/// dead (``rewrite(keeping:)``), and on opening checks every frame and hands each frame's
/// entries to its caller, in the order they were committed.
///
/// What a crash can leave, and what opening does with it:
/// - a frame cut short, or whose checksum fails, at the end of the file — a commit that never
///   returned: it is cut off, and the frames before it are kept;
/// - a damaged frame with whole frames after it — damage to committed data: an error naming the
///   frame's offset, or, when the caller asks to recover, the frame is skipped and reported;
/// - a half-written copy from compaction: it is never the journal, since it is renamed over the
///   journal only once complete and durable, and is removed on opening.
///
/// Not thread-safe: the store calls it with its lock held.
final class Journal {
    static let fileName = "records.journal"
    static let compactingFileName = "records.journal.compacting"

    /// What opening found beyond the frames it read.
    struct OpenReport: Hashable, Sendable {
        /// The bytes cut off the end: a commit that a crash interrupted.
        var cutTail: Range<Int>?
        /// Damaged frames skipped because the caller asked to recover what can be read.
        var skipped: [Range<Int>] = []
    }

    /// One entry handed to the caller on opening: where it is and its bytes.
    typealias OpenedEntry = (location: EntryLocation, bytes: UnsafeRawBufferPointer)

    private let directory: any StoreDirectory
    private var file: any StoreFile
    /// The salt of the frames' checksums, new with each file: what tells the journal from a
    /// rewrite of it.
    private(set) var salt: UInt64
    /// The end of the last committed frame: where the next frame goes.
    private(set) var end: Int
    /// Where the last committed frame starts: the header's frame in a journal without commits.
    private(set) var lastFrameStart = Frame.fileHeaderSize
    /// Where ``readFrames(recover:frame:)`` started: after the header, or where a checkpoint ends.
    private(set) var firstFrameRead = 0
    /// Flushes the frames written for the commits waiting on them, several at once.
    let flusher: GroupFlush
    /// The frames written and not known durable yet: each one's ticket, and the last frame's
    /// start before it, to go back to if a flush fails.
    private var unflushed: [(ticket: Int, previousLastFrameStart: Int)] = []
    /// The end of the file: from ``end`` on, zeros written ahead of the frames, so that a
    /// commit overwrites blocks the file already has, and its flush writes data alone — no
    /// change of the file's size, no file-system journal commit. It saves about a third of a
    /// durable commit's time on ext4.
    private var allocatedEnd: Int
    /// The store's header, kept in the journal's first frame.
    let header: [UInt8]
    /// The frames of an opened journal, until they are read.
    private var unread: JournalScan?
    /// The file's size when it was opened.
    let openedSize: Int
    /// A failed commit may have left bytes past ``end`` that could not be cut off yet.
    private var tailNeedsCutting = false
    /// A rename that compaction made is not known to be durable yet.
    private var directoryNeedsSync = false

    /// Opens the journal in `directory` and reads its header, or creates it holding
    /// `newHeader`. ``readFrames(recover:frame:)`` then reads what it holds.
    init(directory: any StoreDirectory, newHeader: @autoclosure () throws -> [UInt8]) throws {
        self.directory = directory
        try directory.removeFile(named: Self.compactingFileName)
        if let existing = try directory.openFile(named: Self.fileName) {
            file = existing
            do {
                let scan = try JournalScan(file: existing, path: directory.path + "/" + Self.fileName)
                salt = scan.salt
                header = scan.header
                end = scan.end
                openedSize = try existing.size()
                allocatedEnd = openedSize
                unread = scan
                flusher = GroupFlush(file: existing, end: scan.end)
            } catch {
                existing.close()
                throw error
            }
        } else {
            let header = try newHeader()
            let created = try Self.write(header: header, entries: [], from: nil, in: directory)
            do {
                // The journal appears whole or not at all: a crash before the rename leaves no
                // journal, and no commit can have returned yet.
                try directory.rename(Self.compactingFileName, to: Self.fileName)
                created.file.path = directory.path + "/" + Self.fileName
                try directory.synchronize()
            } catch {
                created.file.close()
                throw error
            }
            file = created.file
            salt = created.salt
            end = created.end
            allocatedEnd = created.end
            openedSize = created.end
            self.header = header
            flusher = GroupFlush(file: created.file, end: created.end)
        }
    }

    /// Reads the frames after the header, handing each frame's entries to `frame` in the order
    /// they were committed, and cuts off a commit that a crash interrupted.
    ///
    /// - Parameters:
    ///   - recover: Whether a damaged frame before the end is skipped (and reported) rather than
    ///     an error.
    ///   - frame: Called with the entries of each committed frame. An error it throws makes the
    ///     frame damaged.
    func readFrames(recover: Bool, frame: ([OpenedEntry]) throws -> Void) throws -> OpenReport {
        guard var scan = unread else { return OpenReport() }
        unread = nil
        firstFrameRead = scan.end
        let report = try scan.readFrames(recover: recover, frame: frame)
        end = scan.end
        lastFrameStart = scan.lastFrameStart
        if report.cutTail != nil {
            try file.truncate(to: end)
            try file.synchronize()
            allocatedEnd = end
        }
        flusher.replace(file: file, end: end)
        return report
    }

    /// Reads the frames from the first after the header up to `end`, the end of a committed
    /// one, handing each one's entries to `frame`: what replays the records of an index
    /// checkpoint found damaged after opening. Damage, or frames that do not end at `end`,
    /// throw ``RecordStoreError/corruptJournal(path:offset:reason:)``.
    func readFrames(upTo end: Int, frame: ([OpenedEntry]) throws -> Void) throws {
        let path = directory.path + "/" + Self.fileName
        var scan = try JournalScan(file: file, path: path)
        let report = try scan.readFrames(recover: false, upTo: end, frame: frame)
        guard scan.end == end, report.cutTail == nil else {
            throw RecordStoreError.corruptJournal(
                path: path, offset: scan.end, reason: "the frames do not reach the end a checkpoint covers, \(end)")
        }
    }

    /// Starts ``readFrames(recover:frame:)`` at `offset`, the end of a frame that an index
    /// checkpoint covers, instead of after the header. Returns whether the journal reaches it:
    /// when it does not, nothing changes.
    func skipFrames(to offset: Int, lastFrameStart: Int) -> Bool {
        unread?.skip(to: offset, lastFrameStart: lastFrameStart) ?? false
    }

    /// The header of the frame at `start`: its payload's length and checksum, when a whole
    /// frame is there, its checksum matching its bytes (unless `checkingPayload` is false: then
    /// the payload is not read, only its length checked against the file's); `nil` when not.
    func frame(at start: Int, checkingPayload: Bool = true) throws -> (payloadCount: Int, checksum: UInt32)? {
        let size = try file.size()
        guard start >= Frame.fileHeaderSize, start <= size - Frame.headerSize else { return nil }
        let header = try file.read(count: Frame.headerSize, at: start)
        guard header.prefix(4).elementsEqual(Frame.magic) else { return nil }
        let (count, checksum) = header.withUnsafeBytes {
            (
                Int($0.loadUnaligned(fromByteOffset: 4, as: UInt32.self).littleEndian),
                $0.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian
            )
        }
        guard count <= size - start - Frame.headerSize else { return nil }
        guard checkingPayload else { return (count, checksum) }
        let payload = try file.read(count: count, at: start + Frame.headerSize)
        guard payload.withUnsafeBytes({ Frame.checksum(salt: salt, payload: $0) }) == checksum else { return nil }
        return (count, checksum)
    }

    /// Appends a frame, not yet durable: returns where it starts, and the ticket that
    /// ``flusher`` makes durable, with the frames of other commits written meanwhile.
    ///
    /// A failed write cuts the file back to its end before the frame, so that the store stays
    /// usable: a full disk fails this commit, not the next one. A failed flush is dealt with
    /// by ``cutOffUnflushed()``.
    func write(_ frame: inout FrameBuilder) throws -> (start: Int, ticket: Int) {
        try settle()
        let durable = flusher.durableState.ticket
        unflushed.removeAll { $0.ticket <= durable }
        let payloadCount = frame.count - Frame.headerSize
        guard payloadCount <= Frame.maximumPayloadSize else {
            throw RecordStoreError.commitTooLarge(bytes: payloadCount, limit: Frame.maximumPayloadSize)
        }
        let bytes = frame.finish(salt: salt)
        let start = end
        let frameEnd = start + bytes.count
        do {
            try file.write(bytes, at: start)
            if frameEnd > allocatedEnd {
                // Room for the next commits: a quarter of the journal, from 256 KB to 8 MB. Only
                // a help (a flush that need not change the file's length is cheaper): a disk
                // with room for the frame but not for the zeros takes the commit all the same.
                let room = min(max(frameEnd / 4, 256 << 10), 8 << 20)
                do {
                    try writeZeros(from: frameEnd, count: room)
                    allocatedEnd = frameEnd + room
                } catch {
                    try file.truncate(to: frameEnd)
                    allocatedEnd = frameEnd
                }
            }
        } catch {
            tailNeedsCutting = true
            try? settle()
            throw error
        }
        end = frameEnd
        let ticket = flusher.noteWritten(end: frameEnd)
        unflushed.append((ticket, lastFrameStart))
        lastFrameStart = start
        return (start, ticket)
    }

    /// Makes every frame written durable, or throws why not.
    func flushAll() throws {
        try flusher.waitUntilDurable(flusher.lastTicket)
    }

    /// After a flush failed: goes back to the end of the last durable frame, cutting off the
    /// frames after it, whose commits all fail. Their bytes are cut off the file now, or before
    /// the next write when that fails too.
    func cutOffUnflushed() {
        guard flusher.hasFailed else { return }
        flusher.waitUntilIdle()
        let durable = flusher.durableState
        if let first = unflushed.first(where: { $0.ticket > durable.ticket }) {
            lastFrameStart = first.previousLastFrameStart
        }
        unflushed.removeAll()
        end = durable.end
        tailNeedsCutting = true
        flusher.reset()
        try? settle()
    }

    /// Writes `count` zeros at `offset`.
    private func writeZeros(from offset: Int, count: Int) throws {
        var written = 0
        while written < count {
            let part = min(count - written, Self.zeros.count)
            try Self.zeros.withUnsafeBytes { zeros in
                try file.write(UnsafeRawBufferPointer(rebasing: zeros[0..<part]), at: offset + written)
            }
            written += part
        }
    }

    private static let zeros = [UInt8](repeating: 0, count: 1 << 20)

    /// Finishes what a failure left undone before anything else is written: cuts off the bytes
    /// of a failed commit, makes a compaction's rename durable.
    private func settle() throws {
        if tailNeedsCutting {
            try file.truncate(to: end)
            try file.synchronize()
            allocatedEnd = end
            tailNeedsCutting = false
        }
        if directoryNeedsSync {
            try directory.synchronize()
            directoryNeedsSync = false
        }
    }

    /// The bytes of the entry at `location`.
    func read(_ location: EntryLocation) throws -> [UInt8] {
        guard location.offset >= 0, location.offset + Int(location.count) <= end else {
            throw RecordStoreError.corruptJournal(
                path: directory.path + "/" + Self.fileName, offset: location.offset,
                reason: "an entry lies past the end of the journal")
        }
        return try file.read(count: Int(location.count), at: location.offset)
    }

    /// Copies the entries at `live` into a new journal that replaces this one, and returns
    /// where each one is now, in the order given.
    ///
    /// The copy is written and made durable under another name, then renamed over the journal,
    /// and the directory made durable: a crash at any point leaves either the old journal or
    /// the new one, whole.
    func rewrite(keeping live: [EntryLocation]) throws -> [EntryLocation] {
        // What is copied must be durable where it is: a frame whose flush then failed would
        // otherwise live on in the copy, its commit having failed.
        try flushAll()
        try settle()
        let created = try Self.write(header: header, entries: live, from: file, in: directory)
        do {
            try directory.rename(Self.compactingFileName, to: Self.fileName)
        } catch {
            created.file.close()
            try? directory.removeFile(named: Self.compactingFileName)
            throw error
        }
        created.file.path = directory.path + "/" + Self.fileName
        file.close()
        file = created.file
        salt = created.salt
        end = created.end
        lastFrameStart = created.lastFrameStart
        allocatedEnd = created.end
        unflushed.removeAll()
        flusher.replace(file: created.file, end: created.end)
        // The new journal is in place; if its rename cannot be made durable now, the next commit
        // tries again before it writes.
        do {
            try directory.synchronize()
        } catch {
            directoryNeedsSync = true
        }
        return created.locations
    }

    /// Writes a complete, durable journal under the compaction name: the file header, the
    /// store's header, and the entries at `entries` of `source`.
    private static func write(
        header: [UInt8], entries: [EntryLocation], from source: (any StoreFile)?, in directory: any StoreDirectory
    ) throws -> (file: any StoreFile, salt: UInt64, end: Int, lastFrameStart: Int, locations: [EntryLocation]) {
        let file = try directory.createFile(named: compactingFileName)
        do {
            let salt = UInt64.random(in: 1...UInt64.max)
            var start = ByteWriter(capacity: 64 + header.count)
            start.append(contentsOf: Frame.fileMagic)
            start.append(salt)
            var headerFrame = FrameBuilder(capacity: header.count)
            headerFrame.add(header)
            start.append(contentsOf: headerFrame.finish(salt: salt))
            try file.write(start.bytes, at: 0)
            var end = start.count
            var lastFrameStart = Frame.fileHeaderSize

            var locations = entries
            if let source, !entries.isEmpty {
                var window = FileWindow(file: source, fileSize: try source.size())
                var frame = FrameBuilder(capacity: rewriteFrameSize)
                var placed: [(index: Int, start: Int)] = []
                func flush() throws {
                    let bytes = frame.finish(salt: salt)
                    try file.write(bytes, at: end)
                    for (index, relative) in placed {
                        locations[index].offset = end + relative
                    }
                    lastFrameStart = end
                    end += bytes.count
                    frame = FrameBuilder(capacity: rewriteFrameSize)
                    placed.removeAll(keepingCapacity: true)
                }
                // In file order, so the old file is read front to back.
                for index in entries.indices.sorted(by: { entries[$0].offset < entries[$1].offset }) {
                    let location = entries[index]
                    let copied: Void? = try window.withBytes(at: location.offset, count: Int(location.count)) { bytes in
                        placed.append((index, frame.add(bytes).offset))
                    }
                    guard copied != nil else {
                        throw RecordStoreError.corruptJournal(
                            path: directory.path + "/" + fileName, offset: location.offset,
                            reason: "an entry lies past the end of the journal")
                    }
                    if frame.count >= rewriteFrameSize { try flush() }
                }
                if frame.entryCount > 0 { try flush() }
            }
            try file.synchronize()
            return (file, salt, end, lastFrameStart, locations)
        } catch {
            file.close()
            try? directory.removeFile(named: compactingFileName)
            throw error
        }
    }

    /// Compaction writes frames of about this size: big enough to write fast, small enough that
    /// opening reads each in one go.
    private static let rewriteFrameSize = 1 << 20

    /// Lets go of the file, once more trying to cut off what a failed commit left past the end:
    /// left there, the commit that threw would be read back when the store opens again.
    func close() {
        if (try? flushAll()) == nil { cutOffUnflushed() }
        try? settle()
        flusher.waitUntilIdle()
        file.close()
    }
}
