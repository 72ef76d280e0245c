/// Reads a journal when the store opens: checks the file header, then every frame's checksum,
/// and tells a commit cut short by a crash (at the end: cut it off) from damage to committed
/// data (frames follow it: an error, or skipped when recovering).
struct JournalScan {
    private var window: FileWindow
    private let path: String
    /// The file's salt, which every frame's checksum covers.
    let salt: UInt64
    /// The store's header: the payload of the first frame.
    let header: [UInt8]
    /// Where the frames after the header start; after ``readFrames(recover:frame:)``, where the
    /// last whole frame ends.
    private(set) var end: Int
    /// Where the last whole frame read starts: the header's frame until another is read.
    private(set) var lastFrameStart = Frame.fileHeaderSize
    /// The checksums of spans of the file from the first damage on, for the search for whole
    /// frames after damage (see ``nextFrame(after:)``): made when a frame header is first met
    /// there, and kept for every later search, since they cover the rest of the file.
    private var spans: SpanChecksums?

    /// How many bytes the search for whole frames after damage has run through the checksum: the
    /// rest of the file from the first damage once, and less than a kilobyte more for each frame
    /// header met.
    var searchedBytes: Int { spans?.checksummedBytes ?? 0 }

    /// Reads the file header and the store's header of `file`.
    init(file: any StoreFile, path: String) throws {
        self.path = path
        window = FileWindow(file: file, fileSize: try file.size())
        guard
            let (magic, salt) = try window.withBytes(
                at: 0, count: Frame.fileHeaderSize,
                { bytes in
                    (Array(bytes.prefix(8)), bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian)
                }
            )
        else {
            throw RecordStoreError.notAStore(path: path)
        }
        guard magic.prefix(7).elementsEqual(Frame.fileMagic.prefix(7)) else {
            throw RecordStoreError.notAStore(path: path)
        }
        guard magic[7] == Frame.fileMagic[7] else {
            throw RecordStoreError.unsupportedFormat(path: path, version: Int(magic[7]))
        }
        self.salt = salt
        var header: [UInt8] = []
        switch try Self.check(at: Frame.fileHeaderSize, in: &window, salt: salt) {
        case .valid(let payloadCount):
            // None when the file ends first, or when the entries do not read: a checksum that
            // holds over entries that do not read is damage all the same.
            let entries: [[UInt8]]? =
                try window.withBytes(at: Frame.fileHeaderSize + Frame.headerSize, count: payloadCount) { payload in
                    (try? Frame.entries(in: payload))?.map { Array(payload[$0.start..<$0.start + $0.count]) }
                } ?? nil
            guard let entries, entries.count == 1, let first = entries.first else {
                throw RecordStoreError.corruptJournal(
                    path: path, offset: Frame.fileHeaderSize, reason: "the store's header frame holds no header")
            }
            header = first
            end = Frame.fileHeaderSize + Frame.headerSize + payloadCount
        case .invalid(let reason):
            throw RecordStoreError.corruptJournal(path: path, offset: Frame.fileHeaderSize, reason: reason)
        }
        self.header = header
    }

    /// Starts the frames to read at `offset`, when it is past the header and within the file.
    mutating func skip(to offset: Int, lastFrameStart: Int) -> Bool {
        guard offset >= end, offset <= window.fileSize, lastFrameStart < offset else { return false }
        end = offset
        self.lastFrameStart = lastFrameStart
        return true
    }

    /// Reads every frame after the header (or after ``skip(to:)``'s offset), up to `limit` or
    /// else the end of the file, handing each one's entries to `frame`.
    mutating func readFrames(
        recover: Bool, upTo limit: Int = .max, frame: ([Journal.OpenedEntry]) throws -> Void
    ) throws -> Journal.OpenReport {
        var report = Journal.OpenReport()
        var offset = end
        while offset < min(window.fileSize, limit) {
            var damage: String
            switch try Self.check(at: offset, in: &window, salt: salt) {
            case .valid(let payloadCount):
                let payloadStart = offset + Frame.headerSize
                do {
                    try window.withBytes(at: payloadStart, count: payloadCount) { payload in
                        let entries = try Frame.entries(in: payload).map { entry in
                            (
                                location: EntryLocation(
                                    offset: payloadStart + entry.start, count: UInt32(truncatingIfNeeded: entry.count)),
                                bytes: UnsafeRawBufferPointer(
                                    rebasing: payload[entry.start..<entry.start + entry.count])
                            )
                        }
                        try frame(entries)
                    }
                    lastFrameStart = offset
                    offset = payloadStart + payloadCount
                    end = offset
                    continue
                } catch let error as RecordStoreError {
                    throw error
                } catch {
                    damage = "its entries cannot be read (\(error))"
                }
                // A frame whose checksum holds but whose entries do not read was written wrong,
                // or by a newer version: it is damage wherever it is.
                guard recover else { throw RecordStoreError.corruptJournal(path: path, offset: offset, reason: damage) }
                let next = offset + Frame.headerSize + payloadCount
                report.skipped.append(offset..<next)
                offset = next
                end = offset
            case .invalid(let reason):
                damage = reason
                // Zeros to the end are room the journal made ahead of its frames: the end of
                // the frames, not damage.
                if try isZero(from: offset) { return report }
                guard let next = try nextFrame(after: offset) else {
                    // Nothing whole follows: the end of a commit that a crash interrupted.
                    report.cutTail = offset..<window.fileSize
                    return report
                }
                guard recover else { throw RecordStoreError.corruptJournal(path: path, offset: offset, reason: damage) }
                report.skipped.append(offset..<next)
                offset = next
                end = offset
            }
        }
        return report
    }

    /// Whether every byte from `offset` to the end of the file is zero.
    private mutating func isZero(from offset: Int) throws -> Bool {
        var position = offset
        while position < window.fileSize {
            let span = min(FileWindow.readSize, window.fileSize - position)
            let zero = try window.withBytes(at: position, count: span, Self.isZero)
            guard zero == true else { return false }
            position += span
        }
        return true
    }

    /// Whether every byte of `bytes` is zero, read a word at a time: opening reads up to the
    /// 8 MB of zeros the journal keeps ahead of its frames.
    private static func isZero(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var ored: UInt64 = 0
        let words = bytes.count / 8
        for word in 0..<words {
            ored |= bytes.loadUnaligned(fromByteOffset: word * 8, as: UInt64.self)
        }
        return ored == 0 && bytes[(words * 8)...].allSatisfy { $0 == 0 }
    }

    /// The offset of the first whole frame after `offset`, if there is one.
    ///
    /// Every copy of the frame magic is a frame header to check. The file is read a window at a
    /// time, each window's headers found before any is checked, and the checksums come from
    /// ``spans``: so however many headers the damaged bytes hold, each costs less than a kilobyte
    /// of checksum work and no read of its own.
    private mutating func nextFrame(after offset: Int) throws -> Int? {
        var position = offset + 1
        while position + Frame.headerSize <= window.fileSize {
            let span = min(FileWindow.readSize, window.fileSize - position)
            let headers = try window.withBytes(at: position, count: span) { bytes -> [Int] in
                var found: [Int] = []
                var index = 0
                while index + Frame.magic.count <= bytes.count {
                    if bytes[index] == Frame.magic[0], bytes[index + 1] == Frame.magic[1],
                        bytes[index + 2] == Frame.magic[2], bytes[index + 3] == Frame.magic[3]
                    {
                        found.append(position + index)
                    }
                    index += 1
                }
                return found
            }
            for header in headers ?? [] where try isWholeFrame(at: header, damagedFrom: offset) {
                return header
            }
            // A magic may straddle the end of this window: look again from its last bytes.
            position += max(span - (Frame.magic.count - 1), 1)
        }
        return nil
    }

    /// Whether a whole frame starts at `offset`, where its magic is: its length fits the file and
    /// its checksum matches, worked out from ``spans``, made from `damage` on when first needed.
    private mutating func isWholeFrame(at offset: Int, damagedFrom damage: Int) throws -> Bool {
        let header = try window.withBytes(at: offset, count: Frame.headerSize) { bytes in
            (
                count: Int(bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self).littleEndian),
                checksum: bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian
            )
        }
        let payloadStart = offset + Frame.headerSize
        guard let header, header.count > 0, header.count <= Frame.maximumPayloadSize,
            header.count <= window.fileSize - payloadStart
        else { return false }
        if spans == nil { spans = try SpanChecksums(file: window.file, from: damage, to: window.fileSize) }
        let start = Frame.checksumStart(salt: salt, payloadCount: header.count)
        let checksum = try spans?.checksum(of: payloadStart..<payloadStart + header.count, after: start)
        return checksum == header.checksum
    }

    /// What is at `offset`: a whole frame, or why not.
    private enum Check {
        case valid(payloadCount: Int)
        case invalid(String)
    }

    private static func check(at offset: Int, in window: inout FileWindow, salt: UInt64) throws -> Check {
        let header = try window.withBytes(at: offset, count: Frame.headerSize) { bytes in
            (
                magic: bytes.prefix(4).elementsEqual(Frame.magic),
                count: Int(bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self).littleEndian),
                checksum: bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian
            )
        }
        guard let header else { return .invalid("the file ends inside a frame's header") }
        guard header.magic else { return .invalid("no frame starts here") }
        guard header.count > 0, header.count <= Frame.maximumPayloadSize else {
            return .invalid("the frame declares an impossible length of \(header.count) bytes")
        }
        let matches = try window.withBytes(at: offset + Frame.headerSize, count: header.count) { payload in
            Frame.checksum(salt: salt, payload: payload) == header.checksum
        }
        guard let matches else { return .invalid("the frame runs past the end of the file") }
        return matches ? .valid(payloadCount: header.count) : .invalid("the frame's checksum does not match its bytes")
    }
}
