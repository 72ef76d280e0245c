import Foundation

/// The store's index as a file, `records.checkpoint`: what the index held when the journal
/// ended at ``coveredEnd``, so that opening reads this file and replays only the frames after
/// that end, instead of every frame of the journal.
///
/// The file is made to be used as it is read, without building anything: one row of fixed
/// width a record, sorted by a hash of the record's zone and name, so that a look-up is a binary
/// search of the rows; the names' bytes after the rows; the zones' sync tokens before them. The
/// ``StoreIndex`` keeps the changes since in memory, over it.
///
/// It is trusted only whole and only for the journal it was written from:
/// - a checksum (``StripeChecksum``) covers everything after it, and every row is checked
///   against the file's bounds as it loads, so that damage anywhere makes it unusable;
/// - it names the journal's salt, which compaction changes, and the end it covers, which the
///   journal must reach: a checkpoint of another journal, or of an older one, is stale.
/// A checkpoint that is missing, damaged or stale is not an error: opening reads the whole
/// journal, as without one, and the store writes a new one later.
///
/// It is written whole under another name, made durable, then renamed over the old one and the
/// directory made durable: a crash while writing leaves the old checkpoint or the new one.
///
/// Layout, little-endian:
///
/// | bytes | what |
/// |---|---|
/// | 8 | magic, `RSINDEX1` |
/// | 32 | checksum of everything after it |
/// | 8 × 8 | journal salt, covered end, record count, live bytes, tokens' length, names' length, where the journal's last frame starts, that frame's length (high half) and checksum (low half) |
/// | tokens' length | count (4), then per zone: zone, token, owner (byte strings; owner after a 0/1 byte), offset (8), count (4) |
/// | 8 × ⌈record count / 128⌉ | fences: the hash of every 128th row, for a search to touch one block of rows |
/// | 32 × record count | rows: hash (8), entry offset (8), entry length (4), name start (4), zone, name and type lengths (2 each), state (1), zero (1) |
/// | names' length | each row's zone, name and type, one after another |
final class IndexCheckpoint {
    static let fileName = "records.checkpoint"
    static let writingFileName = "records.checkpoint.writing"

    private static let magic = Array("RSINDEX1".utf8)
    private static let headerSize = 8 + StripeChecksum.byteCount + 8 * 8
    private static let rowSize = 32
    /// Rows a fence stands for: 4 KB of rows, a page.
    private static let fenceStride = 128

    /// A frame of the journal, as the checkpoint names the last one it covers.
    struct JournalFrame: Hashable {
        var start: Int
        var payloadCount: Int
        var checksum: UInt32

        var end: Int { start + Frame.headerSize + payloadCount }
    }

    /// A zone's sync token as the checkpoint keeps it.
    struct Token {
        var zone: String
        var token: String
        var owner: String?
        var location: EntryLocation
    }

    /// The checkpoint's bytes, and what frees them.
    private final class Storage {
        let bytes: UnsafeRawBufferPointer
        private let allocated: UnsafeMutableRawBufferPointer?
        private let mapping: MappedFile?

        init(allocated: UnsafeMutableRawBufferPointer) {
            bytes = UnsafeRawBufferPointer(allocated)
            self.allocated = allocated
            mapping = nil
        }

        init(mapping: MappedFile) {
            bytes = mapping.bytes
            allocated = nil
            self.mapping = mapping
        }

        deinit {
            allocated?.deallocate()
        }

        /// Once checked: lets the system take back the pages of a mapped file until used again.
        func releaseResidentPages() {
            mapping?.releaseResidentPages()
        }
    }

    /// The whole file, read or mapped.
    private let storage: Storage
    /// The journal's salt when the checkpoint was written.
    let salt: UInt64
    /// The end of the journal's last frame that the checkpoint holds.
    let coveredEnd: Int
    /// That frame's start, payload length and checksum: what tells that the journal still
    /// holds the frames the checkpoint covers, and not others written over them since.
    let lastFrame: JournalFrame
    let recordCount: Int
    /// The bytes of the journal's live entries, as ``StoreIndex/liveBytes`` counts them.
    let liveBytes: Int
    let tokens: [Token]
    private let fencesStart: Int
    private let fenceCount: Int
    private let rowsStart: Int
    private let namesStart: Int

    /// Why a checkpoint could not be used.
    struct Unusable: Error, CustomStringConvertible {
        var description: String
    }

    /// Takes `storage` (the checkpoint's bytes) over, checking them whole: the checksum and the
    /// header. A row is read with its bounds checked, never trusted to be within the file.
    private init(storage: Storage) throws {
        self.storage = storage
        let bytes = storage.bytes
        func fail(_ reason: String) -> Unusable { Unusable(description: reason) }
        guard bytes.count >= Self.headerSize, bytes.prefix(8).elementsEqual(Self.magic) else {
            throw fail("it does not start as a checkpoint does")
        }
        let stored = StripeChecksum(stored: UnsafeRawBufferPointer(rebasing: bytes[8..<40]))
        guard StripeChecksum(of: UnsafeRawBufferPointer(rebasing: bytes[40...])) == stored else {
            throw fail("its checksum does not match its bytes")
        }
        func word(_ index: Int) -> UInt64 {
            bytes.loadUnaligned(fromByteOffset: 40 + 8 * index, as: UInt64.self).littleEndian
        }
        salt = word(0)
        coveredEnd = Int(truncatingIfNeeded: word(1))
        recordCount = Int(truncatingIfNeeded: word(2))
        liveBytes = Int(truncatingIfNeeded: word(3))
        let tokensLength = Int(truncatingIfNeeded: word(4))
        let namesLength = Int(truncatingIfNeeded: word(5))
        lastFrame = JournalFrame(
            start: Int(truncatingIfNeeded: word(6)), payloadCount: Int(word(7) >> 32),
            checksum: UInt32(truncatingIfNeeded: word(7)))
        // Each length is checked against what is left of the file before it is added.
        let space = bytes.count - Self.headerSize
        let (rowsLength, rowsOverflow) = recordCount.multipliedReportingOverflow(by: Self.rowSize)
        let fences = recordCount / Self.fenceStride + (recordCount % Self.fenceStride == 0 ? 0 : 1)
        let fencesLength = fences &* 8
        let fits =
            coveredEnd >= 0 && recordCount >= 0 && liveBytes >= 0 && liveBytes <= coveredEnd && tokensLength >= 0
            && namesLength >= 0 && !rowsOverflow
            && tokensLength <= space && rowsLength <= space - tokensLength
            && fencesLength <= space - tokensLength - rowsLength
            && namesLength == space - tokensLength - rowsLength - fencesLength
        fenceCount = fits ? fences : 0
        fencesStart = Self.headerSize + (fits ? tokensLength : 0)
        rowsStart = fencesStart + (fits ? fencesLength : 0)
        namesStart = rowsStart + (fits ? rowsLength : 0)
        guard fits else {
            throw fail("its sections do not add up to its length")
        }
        do {
            tokens = try Self.readTokens(UnsafeRawBufferPointer(rebasing: bytes[Self.headerSize..<fencesStart]))
        } catch {
            throw fail("its sync tokens do not read: \(error)")
        }
        storage.releaseResidentPages()
    }

    /// The checkpoint's bytes, as its file holds them.
    var fileBytes: UnsafeRawBufferPointer { storage.bytes }

    private static func readTokens(_ bytes: UnsafeRawBufferPointer) throws -> [Token] {
        var reader = ByteReader(bytes)
        let count = try reader.uint32()
        var tokens: [Token] = []
        for _ in 0..<count {
            let zone = try reader.string()
            let token = try reader.string()
            let owner = try reader.byte() == 1 ? try reader.string() : nil
            let offset = Int(truncatingIfNeeded: try reader.uint64())
            let location = EntryLocation(offset: offset, count: try reader.uint32())
            tokens.append(Token(zone: zone, token: token, owner: owner, location: location))
        }
        guard reader.isAtEnd else { throw ByteReader.Malformed(description: "bytes follow the last token") }
        return tokens
    }

    // MARK: Rows

    private struct Row {
        var hash: UInt64
        var offset: UInt64
        var count: UInt32
        var nameStart: UInt32
        var zoneLength: UInt16
        var nameLength: UInt16
        var typeLength: UInt16
        var state: UInt8
    }

    private func row(_ index: Int) -> Row {
        let base = rowsStart + index * Self.rowSize
        let bytes = storage.bytes
        return Row(
            hash: bytes.loadUnaligned(fromByteOffset: base, as: UInt64.self).littleEndian,
            offset: bytes.loadUnaligned(fromByteOffset: base + 8, as: UInt64.self).littleEndian,
            count: bytes.loadUnaligned(fromByteOffset: base + 16, as: UInt32.self).littleEndian,
            nameStart: bytes.loadUnaligned(fromByteOffset: base + 20, as: UInt32.self).littleEndian,
            zoneLength: bytes.loadUnaligned(fromByteOffset: base + 24, as: UInt16.self).littleEndian,
            nameLength: bytes.loadUnaligned(fromByteOffset: base + 26, as: UInt16.self).littleEndian,
            typeLength: bytes.loadUnaligned(fromByteOffset: base + 28, as: UInt16.self).littleEndian,
            state: bytes[base + 30])
    }

    private func names(of row: Row) -> (
        zone: UnsafeRawBufferPointer, name: UnsafeRawBufferPointer, type: UnsafeRawBufferPointer
    ) {
        let zoneStart = namesStart + Int(row.nameStart)
        let nameStart = zoneStart + Int(row.zoneLength)
        let typeStart = nameStart + Int(row.nameLength)
        let bytes = storage.bytes
        // Only a checkpoint whose checksum holds is read: a row past the end was written so, and
        // reads as empty names rather than outside the file.
        guard typeStart + Int(row.typeLength) <= bytes.count else {
            let none = UnsafeRawBufferPointer(rebasing: bytes[bytes.count...])
            return (none, none, none)
        }
        return (
            UnsafeRawBufferPointer(rebasing: bytes[zoneStart..<nameStart]),
            UnsafeRawBufferPointer(rebasing: bytes[nameStart..<typeStart]),
            UnsafeRawBufferPointer(rebasing: bytes[typeStart..<typeStart + Int(row.typeLength)])
        )
    }

    private func slot(of row: Row) -> StoreIndex.Slot {
        StoreIndex.Slot(
            // An offset past the covered journal, which only a checkpoint written so can hold,
            // makes the read of the entry fail rather than overflow.
            location: EntryLocation(offset: Int(min(row.offset, UInt64(coveredEnd))), count: row.count),
            // A state no version writes, likewise, reads as pending.
            state: Self.state(of: row.state)
                ?? RecordState(status: .pending, isDeletion: false, hasServerVersion: false))
    }

    /// The hash that orders the rows: FNV-1a of the zone's and the name's UTF-8, a 0xFF between.
    static func hash(zone: String, name: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in zone.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        hash = (hash ^ 0xFF) &* 0x100_0000_01B3
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return hash
    }

    /// The records named `name` in `zone`, by type.
    func records(named name: String, inZone zone: String) -> [(recordType: String, slot: StoreIndex.Slot)] {
        let hash = Self.hash(zone: zone, name: name)
        // The first fence not below `hash`: the first row not below it is in the block before.
        var fence = 0
        var lastFence = fenceCount
        while fence < lastFence {
            let middle = fence + (lastFence - fence) / 2
            let fenceHash = storage.bytes.loadUnaligned(fromByteOffset: fencesStart + middle * 8, as: UInt64.self)
            if UInt64(littleEndian: fenceHash) < hash { fence = middle + 1 } else { lastFence = middle }
        }
        // The first row whose hash is not below `hash`, in that block.
        var low = max(0, (fence - 1) * Self.fenceStride)
        var high = min(recordCount, fence * Self.fenceStride)
        while low < high {
            let middle = low + (high - low) / 2
            if row(middle).hash < hash { low = middle + 1 } else { high = middle }
        }
        var found: [(recordType: String, slot: StoreIndex.Slot)] = []
        while low < recordCount {
            let row = self.row(low)
            guard row.hash == hash else { break }
            let names = self.names(of: row)
            if zone.utf8.elementsEqual(names.zone), name.utf8.elementsEqual(names.name) {
                found.append((String(decoding: names.type, as: UTF8.self), slot(of: row)))
            }
            low += 1
        }
        return found
    }

    /// Calls `body` with every record, in the rows' order.
    func forEachRecord(_ body: (RecordKey, StoreIndex.Slot) throws -> Void) rethrows {
        for index in 0..<recordCount {
            let row = self.row(index)
            let names = self.names(of: row)
            let key = RecordKey(
                zone: String(decoding: names.zone, as: UTF8.self),
                recordType: String(decoding: names.type, as: UTF8.self),
                recordName: String(decoding: names.name, as: UTF8.self))
            try body(key, slot(of: row))
        }
    }

    // MARK: States

    private static func code(of state: RecordState) -> UInt8 {
        let status: UInt8 =
            switch state.status {
            case .localOnly: 0
            // Sent is known in memory alone, as in the journal: once reopened, a record is
            // pending again until a request carries it.
            case .pending, .sent: 1
            case .synced: 2
            case .deletedLocally: 3
            case .conflict: 4
            }
        return status | (state.isDeletion ? 8 : 0) | (state.hasServerVersion ? 16 : 0) | (state.wasOffered ? 32 : 0)
    }

    private static func state(of code: UInt8) -> RecordState? {
        guard code & 0xC0 == 0 else { return nil }
        let status: SyncStatus
        switch code & 7 {
        case 0: status = .localOnly
        case 1: status = .pending
        case 2: status = .synced
        case 3: status = .deletedLocally
        case 4: status = .conflict
        default: return nil
        }
        return RecordState(
            status: status, isDeletion: code & 8 != 0, hasServerVersion: code & 16 != 0, wasOffered: code & 32 != 0)
    }

    // MARK: Writing and reading the file

    /// The checkpoint of `index` when the journal of `salt` ends at `coveredEnd`, built in
    /// memory; `nil` when a name is too long for a row (64 KB) or the names too many (4 GB).
    static func make(of index: StoreIndex, salt: UInt64, lastFrame: JournalFrame) -> IndexCheckpoint? {
        let coveredEnd = lastFrame.end
        var records = index.records(where: { _, _ in true })
        var namesLength = 0
        for (key, _) in records {
            let lengths = [key.zone.utf8.count, key.recordName.utf8.count, key.recordType.utf8.count]
            guard lengths.allSatisfy({ $0 <= Int(UInt16.max) }) else { return nil }
            namesLength += lengths.reduce(0, +)
        }
        guard namesLength <= Int(UInt32.max) else { return nil }
        let hashes = records.map { hash(zone: $0.key.zone, name: $0.key.recordName) }
        let order = hashes.indices.sorted { hashes[$0] < hashes[$1] }
        var tokenWriter = ByteWriter()
        let tokens = index.syncTokens
        tokenWriter.append(UInt32(truncatingIfNeeded: tokens.count))
        for token in tokens {
            tokenWriter.appendString(token.zone)
            tokenWriter.appendString(token.token)
            tokenWriter.append(UInt8(token.owner == nil ? 0 : 1))
            if let owner = token.owner { tokenWriter.appendString(owner) }
            tokenWriter.append(UInt64(truncatingIfNeeded: token.location.offset))
            tokenWriter.append(token.location.count)
        }
        var header = ByteWriter(capacity: headerSize)
        for word in [
            salt, UInt64(truncatingIfNeeded: coveredEnd), UInt64(records.count),
            UInt64(truncatingIfNeeded: index.liveBytes),
            UInt64(tokenWriter.count), UInt64(namesLength), UInt64(truncatingIfNeeded: lastFrame.start),
            UInt64(truncatingIfNeeded: lastFrame.payloadCount) << 32 | UInt64(lastFrame.checksum),
        ] {
            header.append(word)
        }
        let fencesStart = headerSize + tokenWriter.count
        let fenceCount = (records.count + fenceStride - 1) / fenceStride
        let rowsStart = fencesStart + 8 * fenceCount
        let namesStart = rowsStart + rowSize * records.count
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: namesStart + namesLength, alignment: 16)
        magic.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: storage[0..<8]).copyMemory(from: $0) }
        header.bytes.withUnsafeBytes {
            UnsafeMutableRawBufferPointer(rebasing: storage[40..<headerSize]).copyMemory(from: $0)
        }
        tokenWriter.bytes.withUnsafeBytes { tokens in
            UnsafeMutableRawBufferPointer(rebasing: storage[headerSize..<fencesStart]).copyMemory(from: tokens)
        }
        var nameOffset = 0
        for (position, recordIndex) in order.enumerated() {
            let (key, slot) = records[recordIndex]
            let base = rowsStart + position * rowSize
            if position % fenceStride == 0 {
                storage.storeBytes(
                    of: hashes[recordIndex].littleEndian, toByteOffset: fencesStart + position / fenceStride * 8,
                    as: UInt64.self)
            }
            storage.storeBytes(of: hashes[recordIndex].littleEndian, toByteOffset: base, as: UInt64.self)
            storage.storeBytes(
                of: UInt64(truncatingIfNeeded: slot.location.offset).littleEndian, toByteOffset: base + 8,
                as: UInt64.self)
            storage.storeBytes(of: slot.location.count.littleEndian, toByteOffset: base + 16, as: UInt32.self)
            storage.storeBytes(
                of: UInt32(truncatingIfNeeded: nameOffset).littleEndian, toByteOffset: base + 20, as: UInt32.self)
            var lengthOffset = base + 24
            for var part in [key.zone, key.recordName, key.recordType] {
                let count = part.withUTF8 { utf8 in
                    let start = namesStart + nameOffset
                    UnsafeMutableRawBufferPointer(rebasing: storage[start..<start + utf8.count])
                        .copyMemory(from: UnsafeRawBufferPointer(utf8))
                    return utf8.count
                }
                storage.storeBytes(
                    of: UInt16(truncatingIfNeeded: count).littleEndian, toByteOffset: lengthOffset, as: UInt16.self)
                nameOffset += count
                lengthOffset += 2
            }
            storage[base + 30] = code(of: slot.state)
            storage[base + 31] = 0
        }
        records.removeAll()
        let checksum = StripeChecksum(of: UnsafeRawBufferPointer(rebasing: storage[40...]))
        var checksumWriter = ByteWriter(capacity: StripeChecksum.byteCount)
        checksum.write(to: &checksumWriter)
        checksumWriter.bytes.withUnsafeBytes {
            UnsafeMutableRawBufferPointer(rebasing: storage[8..<40]).copyMemory(from: $0)
        }
        return try? IndexCheckpoint(storage: Storage(allocated: storage))
    }

    /// Writes the checkpoint in `directory`, atomically and durably.
    func write(in directory: any StoreDirectory) throws {
        let file = try directory.createFile(named: Self.writingFileName)
        do {
            try file.write(fileBytes, at: 0)
            try file.synchronize()
            file.close()
            try directory.rename(Self.writingFileName, to: Self.fileName)
        } catch {
            file.close()
            try? directory.removeFile(named: Self.writingFileName)
            throw error
        }
        try directory.synchronize()
    }

    /// The checkpoint in `directory`, checked whole: `nil` when there is none; an ``Unusable``
    /// error when it is damaged.
    static func read(in directory: any StoreDirectory) throws -> IndexCheckpoint? {
        try directory.removeFile(named: writingFileName)
        guard let file = try directory.openFile(named: fileName) else { return nil }
        defer { file.close() }
        if let mapping = try file.mapped() {
            return try IndexCheckpoint(storage: Storage(mapping: mapping))
        }
        let size = try file.size()
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        do {
            try file.read(into: storage, at: 0)
        } catch {
            throw error
        }
        return try IndexCheckpoint(storage: Storage(allocated: storage))
    }
}
