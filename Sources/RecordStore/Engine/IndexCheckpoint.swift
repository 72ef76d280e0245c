import Foundation

/// The store's index as a file, `records.checkpoint`: what the index held when the journal
/// ended at ``coveredEnd``, so that opening reads this file and replays only the frames after
/// that end, instead of every frame of the journal.
///
/// The file is made to be used as it is read, without building anything: one row of fixed
/// width a record, sorted by a hash of the record's zone and name, so that a look-up is a binary
/// search of the rows; the names' bytes after the rows; the zones' sync tokens before them. The
/// ``StoreIndex`` keeps the changes since in memory, over it (through ``CheckpointRecords``).
///
/// It is trusted only where checked, and only for the journal it was written from:
/// - opening checks what is small and of fixed use: a checksum (``StripeChecksum``) covers the
///   header, the tokens, the fences and a table of the blocks' checksums, and the sections must
///   add up to the file's length. The rows and the names, nearly all of the file, are checked a
///   block (4 KB) at a time, when a look-up first reads the block, so that opening costs the
///   same at any size. A block whose checksum does not match throws ``Damaged``, and is checked
///   again at its next use: damage is never read as data;
/// - it names the journal's salt, which compaction changes, and the end it covers, which the
///   journal must reach: a checkpoint of another journal, or of an older one, is stale.
/// A checkpoint that is missing, damaged or stale is not an error: opening reads the whole
/// journal, as without one, and the store writes a new one later. Damage found after opening
/// has the records replayed from the journal instead (see ``CheckpointRecords``).
///
/// It is written whole under another name, made durable, then renamed over the old one and the
/// directory made durable: a crash while writing leaves the old checkpoint or the new one.
///
/// Layout, little-endian:
///
/// | bytes | what |
/// |---|---|
/// | 8 | magic, `RSINDEX2` (a `RSINDEX1` file, of an earlier version, reads as damaged) |
/// | 32 | checksum of the header's words, the tokens, the fences and the blocks' checksums |
/// | 8 × 8 | journal salt, covered end, record count, live bytes, tokens' length, names' length, where the journal's last frame starts, that frame's length (high half) and checksum (low half) |
/// | tokens' length | count (4), then per zone: zone, token, owner (byte strings; owner after a 0/1 byte), offset (8), count (4) |
/// | 8 × ⌈record count / 128⌉ | fences: the hash of every 128th row, for a search to touch one block of rows |
/// | 8 × ⌈record count / 128⌉ | each block of 128 rows' checksum (``StripeChecksum/folded``) |
/// | 8 × ⌈names' length / 4096⌉ | each 4 KB block of the names' checksum |
/// | 32 × record count | rows: hash (8), entry offset (8), entry length (4), name start (4), zone, name and type lengths (2 each), state (1), zero (1) |
/// | names' length | each row's zone, name and type, one after another |
///
/// Which blocks were checked is state of the checkpoint, changed by reads: like the engine that
/// owns it, a checkpoint is used by one thread at a time, with the store's lock held.
final class IndexCheckpoint {
    static let fileName = "records.checkpoint"
    static let writingFileName = "records.checkpoint.writing"

    private static let magic = Array("RSINDEX2".utf8)
    private static let headerSize = 8 + StripeChecksum.byteCount + 8 * 8
    private static let rowSize = 32
    /// Rows a fence stands for, and a block of rows that one checksum covers: 4 KB of rows, a page.
    private static let fenceStride = 128
    /// The bytes of names that one checksum covers.
    private static let namesBlockSize = 4096

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
    }

    /// Where each section of a checkpoint's file starts, read from its header: `nil` when the
    /// lengths the header gives do not add up to the file's.
    private struct Layout {
        var recordCount: Int
        var tokensLength: Int
        var namesLength: Int
        var fencesStart: Int
        var blockCount: (rows: Int, names: Int)
        var rowSumsStart: Int
        var namesSumsStart: Int
        var rowsStart: Int
        var namesStart: Int

        init?(of bytes: UnsafeRawBufferPointer) {
            guard bytes.count >= headerSize else { return nil }
            func word(_ index: Int) -> Int {
                Int(
                    truncatingIfNeeded: bytes.loadUnaligned(fromByteOffset: 40 + 8 * index, as: UInt64.self)
                        .littleEndian)
            }
            recordCount = word(2)
            tokensLength = word(4)
            namesLength = word(5)
            // Each length is checked against what is left of the file before it is added.
            var left = bytes.count - headerSize
            func take(_ length: Int) -> Bool {
                guard length >= 0, length <= left else { return false }
                left -= length
                return true
            }
            let (rowsLength, overflow) = recordCount.multipliedReportingOverflow(by: rowSize)
            guard recordCount >= 0, namesLength >= 0, !overflow else { return nil }
            blockCount = (
                recordCount / fenceStride + (recordCount % fenceStride == 0 ? 0 : 1),
                namesLength / namesBlockSize + (namesLength % namesBlockSize == 0 ? 0 : 1)
            )
            guard take(tokensLength), take(blockCount.rows &* 8), take(blockCount.rows &* 8),
                take(blockCount.names &* 8), take(rowsLength), left == namesLength
            else { return nil }
            fencesStart = headerSize + tokensLength
            rowSumsStart = fencesStart + 8 * blockCount.rows
            namesSumsStart = rowSumsStart + 8 * blockCount.rows
            rowsStart = namesSumsStart + 8 * blockCount.names
            namesStart = rowsStart + rowsLength
        }

        /// The bytes of rows block `block` of `bytes`.
        func rowsBlock(_ block: Int, of bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
            let start = rowsStart + block * fenceStride * rowSize
            return UnsafeRawBufferPointer(rebasing: bytes[start..<min(start + fenceStride * rowSize, namesStart)])
        }

        /// The bytes of names block `block` of `bytes`.
        func namesBlock(_ block: Int, of bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
            let start = namesStart + block * namesBlockSize
            return UnsafeRawBufferPointer(rebasing: bytes[start..<min(start + namesBlockSize, bytes.count)])
        }
    }

    /// Writes the checksums of `bytes`, a checkpoint's file whose sections add up: each block's,
    /// then the header's over them. Nothing when they do not add up.
    static func seal(_ bytes: UnsafeMutableRawBufferPointer) {
        let read = UnsafeRawBufferPointer(bytes)
        guard let layout = Layout(of: read) else { return }
        for block in 0..<layout.blockCount.rows {
            let sum = StripeChecksum(of: layout.rowsBlock(block, of: read)).folded
            bytes.storeBytes(of: sum.littleEndian, toByteOffset: layout.rowSumsStart + 8 * block, as: UInt64.self)
        }
        for block in 0..<layout.blockCount.names {
            let sum = StripeChecksum(of: layout.namesBlock(block, of: read)).folded
            bytes.storeBytes(of: sum.littleEndian, toByteOffset: layout.namesSumsStart + 8 * block, as: UInt64.self)
        }
        var writer = ByteWriter(capacity: StripeChecksum.byteCount)
        StripeChecksum(of: UnsafeRawBufferPointer(rebasing: read[40..<layout.rowsStart])).write(to: &writer)
        writer.bytes.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: bytes[8..<40]).copyMemory(from: $0) }
    }

    /// The whole file, read or mapped.
    private let storage: Storage
    private let layout: Layout
    /// Which blocks were checked and found whole: a bit a block, the rows' blocks first, then
    /// the names'. A block's bit is set once its checksum matched, and never cleared; a block
    /// that did not match stays unset, and is checked again at its next use.
    private var checkedBlocks: [UInt64]
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

    /// Why a checkpoint could not be used.
    struct Unusable: Error, CustomStringConvertible {
        var description: String
    }

    /// A block of the checkpoint that a look-up read does not match its checksum: the look-up's
    /// answer would be wrong, and it gives none.
    struct Damaged: Error, CustomStringConvertible {
        var description: String
    }

    /// Takes `storage` (the checkpoint's bytes) over, checking what opening checks: the
    /// header's checksum and that the sections add up. The rows and names are checked a block
    /// at a time, as they are read.
    private init(storage: Storage) throws {
        self.storage = storage
        let bytes = storage.bytes
        func fail(_ reason: String) -> Unusable { Unusable(description: reason) }
        guard bytes.count >= Self.headerSize, bytes.prefix(8).elementsEqual(Self.magic) else {
            throw fail("it does not start as a checkpoint does")
        }
        guard let layout = Layout(of: bytes) else {
            throw fail("its sections do not add up to its length")
        }
        self.layout = layout
        let stored = StripeChecksum(stored: UnsafeRawBufferPointer(rebasing: bytes[8..<40]))
        guard StripeChecksum(of: UnsafeRawBufferPointer(rebasing: bytes[40..<layout.rowsStart])) == stored else {
            throw fail("its checksum does not match its header")
        }
        func word(_ index: Int) -> UInt64 {
            bytes.loadUnaligned(fromByteOffset: 40 + 8 * index, as: UInt64.self).littleEndian
        }
        salt = word(0)
        coveredEnd = Int(truncatingIfNeeded: word(1))
        recordCount = layout.recordCount
        liveBytes = Int(truncatingIfNeeded: word(3))
        lastFrame = JournalFrame(
            start: Int(truncatingIfNeeded: word(6)), payloadCount: Int(word(7) >> 32),
            checksum: UInt32(truncatingIfNeeded: word(7)))
        guard coveredEnd >= 0, liveBytes >= 0, liveBytes <= coveredEnd else {
            throw fail("its covered end and live bytes do not agree")
        }
        let blocks = layout.blockCount.rows + layout.blockCount.names
        checkedBlocks = [UInt64](repeating: 0, count: (blocks + 63) / 64)
        do {
            tokens = try Self.readTokens(
                UnsafeRawBufferPointer(rebasing: bytes[Self.headerSize..<layout.fencesStart]))
        } catch {
            throw fail("its sync tokens do not read: \(error)")
        }
    }

    /// The checkpoint's bytes, as its file holds them.
    var fileBytes: UnsafeRawBufferPointer { storage.bytes }

    /// Where the rows start: opening checks the bytes before, and each block after is checked
    /// when first read.
    var blocksStart: Int { layout.rowsStart }

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

    // MARK: Checking blocks

    /// Checks block `block` (the rows' blocks first, then the names') against its checksum,
    /// once: a block found whole is not checked again.
    private func check(block: Int) throws {
        let (word, bit) = (block / 64, UInt64(1) << (block % 64))
        guard checkedBlocks[word] & bit == 0 else { return }
        let bytes = storage.bytes
        let rowBlocks = layout.blockCount.rows
        let (data, sumOffset) =
            block < rowBlocks
            ? (layout.rowsBlock(block, of: bytes), layout.rowSumsStart + 8 * block)
            : (layout.namesBlock(block - rowBlocks, of: bytes), layout.namesSumsStart + 8 * (block - rowBlocks))
        let stored = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: sumOffset, as: UInt64.self))
        guard StripeChecksum(of: data).folded == stored else {
            let what = block < rowBlocks ? "rows \(block)" : "names \(block - rowBlocks)"
            throw Damaged(description: "the checkpoint's block of \(what) does not match its checksum")
        }
        checkedBlocks[word] |= bit
    }

    /// Checks every block: what a walk of every row does first, so that it never stops halfway.
    private func checkAllBlocks() throws {
        for block in 0..<(layout.blockCount.rows + layout.blockCount.names) {
            try check(block: block)
        }
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

    /// Row `index`, its block checked.
    private func row(_ index: Int) throws -> Row {
        try check(block: index / Self.fenceStride)
        return uncheckedRow(index)
    }

    /// Row `index`, read as it lies: only once its block is checked.
    private func uncheckedRow(_ index: Int) -> Row {
        let base = layout.rowsStart + index * Self.rowSize
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

    /// The zone, name and type of `row`, the blocks of names they lie in checked.
    private func names(of row: Row) throws -> (
        zone: UnsafeRawBufferPointer, name: UnsafeRawBufferPointer, type: UnsafeRawBufferPointer
    ) {
        let start = Int(row.nameStart)
        let end = start + Int(row.zoneLength) + Int(row.nameLength) + Int(row.typeLength)
        if end > start, end <= layout.namesLength {
            for block in (start / Self.namesBlockSize)...((end - 1) / Self.namesBlockSize) {
                try check(block: layout.blockCount.rows + block)
            }
        }
        return uncheckedNames(of: row)
    }

    /// The zone, name and type of `row`, read as they lie: only once their blocks are checked.
    private func uncheckedNames(of row: Row) -> (
        zone: UnsafeRawBufferPointer, name: UnsafeRawBufferPointer, type: UnsafeRawBufferPointer
    ) {
        let zoneStart = layout.namesStart + Int(row.nameStart)
        let nameStart = zoneStart + Int(row.zoneLength)
        let typeStart = nameStart + Int(row.nameLength)
        let bytes = storage.bytes
        // A row whose checksum holds names names within the file, unless it was written so: it
        // then reads as empty names rather than outside the file.
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
    ///
    /// - Throws: ``Damaged`` when a block it reads does not match its checksum.
    func records(named name: String, inZone zone: String) throws -> [(recordType: String, slot: StoreIndex.Slot)] {
        let hash = Self.hash(zone: zone, name: name)
        // The first fence not below `hash`: the first row not below it is in the block before.
        var fence = 0
        var lastFence = layout.blockCount.rows
        while fence < lastFence {
            let middle = fence + (lastFence - fence) / 2
            let fenceHash = storage.bytes.loadUnaligned(
                fromByteOffset: layout.fencesStart + middle * 8, as: UInt64.self)
            if UInt64(littleEndian: fenceHash) < hash { fence = middle + 1 } else { lastFence = middle }
        }
        // The first row whose hash is not below `hash`, in that block.
        var low = max(0, (fence - 1) * Self.fenceStride)
        var high = min(recordCount, fence * Self.fenceStride)
        while low < high {
            let middle = low + (high - low) / 2
            if try row(middle).hash < hash { low = middle + 1 } else { high = middle }
        }
        var found: [(recordType: String, slot: StoreIndex.Slot)] = []
        while low < recordCount {
            let row = try self.row(low)
            guard row.hash == hash else { break }
            let names = try self.names(of: row)
            if zone.utf8.elementsEqual(names.zone), name.utf8.elementsEqual(names.name) {
                found.append((String(decoding: names.type, as: UTF8.self), slot(of: row)))
            }
            low += 1
        }
        return found
    }

    /// Calls `body` with every record, in the rows' order, once every block is checked: damage
    /// throws ``Damaged`` before the first call, never halfway.
    func forEachRecord(_ body: (RecordKey, StoreIndex.Slot) throws -> Void) throws {
        try checkAllBlocks()
        for index in 0..<recordCount {
            let row = uncheckedRow(index)
            let names = uncheckedNames(of: row)
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
    ///
    /// - Throws: What reading the index throws: see ``StoreIndex/records(where:)``.
    static func make(of index: StoreIndex, salt: UInt64, lastFrame: JournalFrame) throws -> IndexCheckpoint? {
        let coveredEnd = lastFrame.end
        var records = try index.records(where: { _, _ in true })
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
        let namesBlocks = (namesLength + namesBlockSize - 1) / namesBlockSize
        // The blocks' checksums, between the fences and the rows, are written by `seal`.
        let rowsStart = fencesStart + 8 * (2 * fenceCount + namesBlocks)
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
        seal(storage)
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

    /// The checkpoint in `directory`, its header checked: `nil` when there is none; an
    /// ``Unusable`` error when it is damaged there.
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
