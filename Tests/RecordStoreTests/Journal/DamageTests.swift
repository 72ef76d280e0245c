import Foundation
import RecordCodable
import Testing

@testable import RecordStoreKit

/// What opening does with every way a journal's last frames can be cut or damaged.
@Suite("Torn and damaged journals")
struct DamageTests {
    /// A journal of three commits, each saving one record `r<n>`, and where each commit ends.
    struct ThreeCommits {
        var bytes: [UInt8]
        /// The journal's size after the header, and after each commit.
        var ends: [Int]
    }

    static let threeCommits: ThreeCommits = {
        do {
            let directory = MemoryDirectory(faults: nil)
            let store = try RecordStore(storeDirectory: directory, url: nil, options: RecordStore.Options())
            var ends = [try store.journalSize]
            for commit in 1...3 {
                try store.save(noteRecord("r\(commit)", title: String(repeating: "t", count: 20 * commit)))
                ends.append(try store.journalSize)
            }
            // The frames alone, without the room the journal makes after them.
            let journal = try #require(try directory.openFile(named: Journal.fileName))
            return ThreeCommits(bytes: try journal.read(count: ends[3], at: 0), ends: ends)
        } catch {
            Issue.record("Could not write the journal: \(error)")
            return ThreeCommits(bytes: [], ends: [0, 0, 0, 0])
        }
    }()

    /// Opens a store whose journal is `bytes`. The journal is kept in memory: what is tested is
    /// what opening makes of its bytes, many times over.
    func open(
        _ bytes: [UInt8], options: RecordStore.Options = RecordStore.Options(), _ body: (RecordStore) throws -> Void
    ) throws {
        try body(try RecordStore(storeDirectory: try MemoryDirectory(journal: bytes), url: nil, options: options))
    }

    func names(_ store: RecordStore) throws -> [String] {
        try store.keys().map(\.recordName)
    }

    @Test("Cut anywhere in the last two frames, the journal opens with every commit before the cut")
    func everyTruncationPoint() throws {
        let journal = Self.threeCommits
        for length in journal.ends[1]...journal.ends[3] {
            let whole = journal.ends.lastIndex { $0 <= length } ?? 0
            try open(Array(journal.bytes.prefix(length))) { store in
                let found = try names(store)
                #expect(found == (1...3).prefix(whole).map { "r\($0)" }, "cut at \(length)")
                let cut = length > journal.ends[whole] ? journal.ends[whole]..<length : nil
                #expect(store.openReport.discardedTail == cut, "cut at \(length)")
                let size = try store.journalSize
                #expect(size == journal.ends[whole])
            }
        }
    }

    @Test("A flipped bit anywhere in the last frame drops that commit alone")
    func bitFlipInLastFrame() throws {
        let journal = Self.threeCommits
        for offset in journal.ends[2]..<journal.ends[3] {
            var bytes = journal.bytes
            bytes[offset] ^= 1 << (offset % 8)
            try open(bytes) { store in
                let found = try names(store)
                #expect(found == ["r1", "r2"], "bit flipped at \(offset)")
                #expect(store.openReport.discardedTail == journal.ends[2]..<journal.ends[3])
            }
        }
    }

    @Test("A flipped bit in a frame before the last is an error naming the frame, or skipped when recovering")
    func bitFlipBeforeLastFrame() throws {
        let journal = Self.threeCommits
        var recovering = RecordStore.Options()
        recovering.recoversDamagedFrames = true
        for offset in journal.ends[1]..<journal.ends[2] {
            var bytes = journal.bytes
            bytes[offset] ^= 1 << (offset % 8)
            #expect(throws: RecordStoreError.self) {
                try open(bytes) { _ in }
            }
            do {
                try open(bytes) { _ in }
            } catch let RecordStoreError.corruptJournal(_, errorOffset, reason) {
                #expect(errorOffset == journal.ends[1], "bit flipped at \(offset): \(reason)")
            }
            try open(bytes, options: recovering) { store in
                let found = try names(store)
                #expect(found == ["r1", "r3"], "bit flipped at \(offset)")
                #expect(store.openReport.skippedFrames == [journal.ends[1]..<journal.ends[2]])
            }
        }
    }

    @Test("A record whose JSON names another record is damage: reading or sending it fails until it is saved again")
    func recordUnderAnotherKey() throws {
        // A commit that passes its checksum but keeps record r2's JSON under r1's key: what a
        // fault that wrote the right checksum over the wrong bytes would leave (found by fuzzing).
        let journal = Self.threeCommits
        var bytes = Array(journal.bytes.prefix(journal.ends[1]))
        let entry = RecordEntry(
            key: noteKey("r1"), status: .pending, isDeletion: false, local: try EncodedRecord(noteRecord("r2")),
            server: nil, lastError: nil)
        bytes += try Self.commit(entry, after: bytes)

        try open(bytes) { store in
            #expect(try names(store) == ["r1"])
            for read in [
                { _ = try store.record(for: noteKey("r1")) }, { _ = try store.storedRecord(for: noteKey("r1")) },
            ] {
                do {
                    try read()
                    Issue.record("The record under another key read")
                } catch DecodingError.dataCorrupted(let context) {
                    #expect(
                        context.debugDescription
                            == "The store keeps record 'r1' of type 'Note' with the JSON of record 'r2' of type 'Note': "
                            + "the journal is damaged.")
                }
            }
            // Sending it would save r2 on the server in r1's name; every attempt fails instead.
            for _ in 0..<2 {
                #expect(throws: DecodingError.self) { try store.modifyRequests() }
            }
            #expect(try store.records(in: .sent).isEmpty)
            // Saving the record again, or deleting it, is the way out.
            try store.save(noteRecord("r1", title: "Again"))
            let sent = try store.modifyRequests().flatMap(\.operations).map(\.record.recordName)
            #expect(sent == ["r1"])
        }
    }

    @Test("A damaged record that a synced model linked to is an error when the model is parked again")
    func damagedLinkOfAParkedModel() throws {
        // A note and its folder as the server sent them; then the folder's JSON damaged.
        let directory = MemoryDirectory(faults: nil)
        let store = try RecordStore(storeDirectory: directory, url: nil, options: RecordStore.Options())
        let records = try RecordEncoder().encodeGraph(
            FiledNote(id: "n", title: "T", folder: Folder(id: "old", name: "Old")))
        try store.applyFetched(records.map { .success(serverCopy(of: $0, tag: "t1")) })
        let size = try store.journalSize
        let journal = try #require(try directory.openFile(named: Journal.fileName))
        var bytes = try journal.read(count: size, at: 0)
        let folderKey = RecordKey(recordType: "Folder", recordName: "old")
        let damaged = RecordEntry(
            key: folderKey, status: .synced, isDeletion: false,
            local: try EncodedRecord(serverCopy(of: Record(recordType: "Folder", recordName: "other"), tag: "t1")),
            server: nil, lastError: nil)
        bytes += try Self.commit(damaged, after: bytes)
        try open(bytes) { store in
            // The edited note links elsewhere, so only reading the note as it was finds the folder.
            let edited = FiledNote(id: "n", title: "T", folder: Folder(id: "new", name: "New"))
            do {
                try store.park(edited)
                Issue.record("The note was parked over a damaged record it linked to")
            } catch DecodingError.dataCorrupted(let context) {
                #expect(context.debugDescription.hasSuffix("the journal is damaged."))
            }
            #expect(try store.records(in: .pending).isEmpty)
        }
    }

    struct Memo: Codable, Hashable {
        var id: String
        var title: String
        var previous: RecordReference?
    }

    @Test("A damaged record that a synced model names by a plain reference stops neither the model's read nor its edit")
    func damagedPlainReferenceOfAParkedModel() throws {
        let directory = MemoryDirectory(faults: nil)
        let store = try RecordStore(storeDirectory: directory, url: nil, options: RecordStore.Options())
        let memos = [
            Memo(id: "m0", title: "Zero"), Memo(id: "m1", title: "One", previous: RecordReference(recordName: "m0")),
        ]
        try store.applyFetched(try memos.map { .success(serverCopy(of: try RecordEncoder().encode($0), tag: "t1")) })
        let size = try store.journalSize
        let journal = try #require(try directory.openFile(named: Journal.fileName))
        var bytes = try journal.read(count: size, at: 0)
        let damaged = RecordEntry(
            key: RecordKey(recordType: "Memo", recordName: "m0"), status: .synced, isDeletion: false,
            local: try EncodedRecord(serverCopy(of: Record(recordType: "Memo", recordName: "other"), tag: "t1")),
            server: nil, lastError: nil)
        bytes += try Self.commit(damaged, after: bytes)
        try open(bytes) { store in
            // m1 reads no linked record, so the store does not follow its reference: m1 reads, and
            // m0 is the damage when it is read itself...
            #expect(try store.retrieve(Memo.self, identifier: "m1")?.previous == RecordReference(recordName: "m0"))
            #expect(throws: DecodingError.self) { try store.retrieve(Memo.self, identifier: "m0") }
            #expect(throws: DecodingError.self) { try store.retrieveAll(Memo.self) }
            // ...and m1's edit is an update of its own record, which m0 has no part in.
            try store.park(Memo(id: "m1", title: "Edited", previous: RecordReference(recordName: "m0")))
            let sent = try store.modifyRequests().flatMap(\.operations).map(\.record)
            #expect(sent.map(\.recordName) == ["m1"])
            #expect(sent.first?.fields == ["title": .string("Edited")])
        }
    }

    @Test("A server's deletion marker, kept without a type as the server sends it, reads under its key's type")
    func untypedDeletionMarker() throws {
        let journal = Self.threeCommits
        var bytes = Array(journal.bytes.prefix(journal.ends[1]))
        var marker = Record(recordType: "", recordName: "r1")
        marker.metadata = RecordMetadata(deleted: true)
        let entry = RecordEntry(
            key: noteKey("r1"), status: .conflict, isDeletion: false, local: try EncodedRecord(noteRecord("r1")),
            server: try EncodedRecord(marker), lastError: nil)
        bytes += try Self.commit(entry, after: bytes)

        try open(bytes) { store in
            let stored = try #require(try store.storedRecord(for: noteKey("r1")))
            #expect(stored.serverRecord?.recordType == "Note")
            #expect(stored.serverRecord?.metadata?.deleted == true)
            try store.acceptServerVersion(for: noteKey("r1"))
            #expect(try names(store).isEmpty)
        }
    }

    /// The frame of a commit of `entry`, for the journal `bytes`, whose salt its checksum covers.
    static func commit(_ entry: RecordEntry, after bytes: [UInt8]) throws -> [UInt8] {
        let salt = bytes[8..<16].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        var frame = FrameBuilder()
        frame.add { JournalEntry.write(entry, to: &$0) }
        return frame.finish(salt: salt)
    }

    @Test("Zeros after the last frame are room made ahead, not damage; a cut frame before them is cut off")
    func zerosAfterTheFrames() throws {
        let journal = Self.threeCommits
        let zeros = [UInt8](repeating: 0, count: 5000)
        try open(journal.bytes + zeros) { store in
            let found = try names(store)
            #expect(found == ["r1", "r2", "r3"])
            #expect(store.openReport.discardedTail == nil)
        }
        let cut = Array(journal.bytes.prefix(journal.ends[3] - 40))
        try open(cut + zeros) { store in
            let found = try names(store)
            #expect(found == ["r1", "r2"])
            #expect(store.openReport.discardedTail == journal.ends[2]..<(cut.count + zeros.count))
        }
    }

    /// Bytes that no frame can be found in, though they hold `headers` frame headers back to back,
    /// each declaring a payload that runs to the end of a file of `fileSize` bytes (the first
    /// header at `offset`), followed by a megabyte of filler.
    static func damage(headers: Int, at offset: Int, fileSize: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for index in 0..<headers {
            let payloadCount = fileSize - (offset + index * Frame.headerSize + Frame.headerSize)
            bytes += Frame.magic
            withUnsafeBytes(of: UInt32(payloadCount).littleEndian) { bytes += $0 }
            bytes += [0, 0, 0, 0]  // a checksum that no payload here has
        }
        return bytes + [UInt8](repeating: 0x55, count: 1 << 20)
    }

    @Test("Frame headers by the thousand in damaged bytes are checked in one reading of the file, not one each")
    func manyHeadersInDamage() throws {
        let journal = Self.threeCommits
        let headers = 2000
        let damageSize = headers * Frame.headerSize + (1 << 20)

        // At the end, a commit cut short: cut off.
        let tail = Self.damage(headers: headers, at: journal.ends[3], fileSize: journal.ends[3] + damageSize)
        var torn = try JournalScan(file: MemoryFile(journal.bytes + tail), path: "journal")
        let report = try torn.readFrames(recover: false) { _ in }
        #expect(report.cutTail == journal.ends[3]..<journal.ends[3] + tail.count)
        // The rest of the file once, the headers' starts at most once more, and less than a step for
        // each header's end: checking each header by running its payload through the checksum would
        // take about two gigabytes.
        let perHeader = SpanChecksums.step
        #expect(torn.searchedBytes < 2 * tail.count + headers * perHeader)

        // Before whole frames: damage, found as such, and skipped when recovering.
        let middle = Self.damage(headers: headers, at: journal.ends[1], fileSize: journal.bytes.count + damageSize)
        let bytes = Array(journal.bytes[..<journal.ends[1]]) + middle + journal.bytes[journal.ends[1]...]
        var damaged = try JournalScan(file: MemoryFile(bytes), path: "journal")
        let recovered = try damaged.readFrames(recover: true) { _ in }
        #expect(
            recovered == Journal.OpenReport(cutTail: nil, skipped: [journal.ends[1]..<journal.ends[1] + middle.count]))
        #expect(damaged.searchedBytes < 2 * (bytes.count - journal.ends[1]) + (headers + 1) * perHeader)
        var recovering = RecordStore.Options()
        recovering.recoversDamagedFrames = true
        try open(bytes, options: recovering) { store in
            let found = try names(store)
            #expect(found == ["r1", "r2", "r3"])
        }
        do {
            try open(bytes) { _ in }
            Issue.record("A journal damaged before its last frames opened")
        } catch let RecordStoreError.corruptJournal(_, offset, _) {
            #expect(offset == journal.ends[1])
        }
    }

    @Test("The checksum of a span follows from the registers at its ends, without reading it again")
    func spanChecksums() throws {
        var random = SplitMix64(seed: 0x5BA4)
        let bytes = (0..<20_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        // A zero byte multiplies the register by x⁸: `advance` skips any number of them at once.
        for count in [0, 1, 15, 16, 17, 255, 4096, 4099] {
            for register in [UInt32(0), 1, 0xFFFF_FFFF, 0x1234_5678] {
                var zeros = CRC32(register: register)
                zeros.update([UInt8](repeating: 0, count: count))
                #expect(CRC32.advance(register, byZeros: count) == zeros.register, "\(count) zeros")
            }
        }
        let file = MemoryFile(bytes)
        let origin = 1000
        var spans = try SpanChecksums(file: file, from: origin, to: bytes.count)
        for _ in 0..<200 {
            let start = Int.random(in: origin...bytes.count, using: &random)
            let end = Int.random(in: start...bytes.count, using: &random)
            var begun = CRC32()
            begun.update([UInt8.random(in: 0...255, using: &random)])
            var direct = begun
            direct.update(Array(bytes[start..<end]))
            #expect(try spans.checksum(of: start..<end, after: begun) == direct.value, "\(start)..<\(end)")
        }
        #expect(try spans.checksum(of: origin - 1..<origin, after: CRC32()) == nil)
    }

    @Test("A recovered journal is rewritten whole: it opens again without recovering")
    func recoveredJournalIsRewritten() throws {
        let journal = Self.threeCommits
        var bytes = journal.bytes
        bytes[journal.ends[1] + 20] ^= 0xFF
        let directory = try MemoryDirectory(journal: bytes)
        var recovering = RecordStore.Options()
        recovering.recoversDamagedFrames = true
        do {
            let store = try RecordStore(storeDirectory: directory, url: nil, options: recovering)
            try store.save(noteRecord("r4"))
        }
        let store = try RecordStore(storeDirectory: directory, url: nil, options: RecordStore.Options())
        #expect(try names(store) == ["r1", "r3", "r4"])
        #expect(store.openReport == RecordStore.OpenReport(discardedTail: nil, skippedFrames: []))
    }

    @Test("A file that is not a journal, or of a newer format, or with a damaged header, is a clear error")
    func notAJournal() throws {
        let journal = Self.threeCommits
        expectDamage { try open(Array("not a journal at all, not at all".utf8)) { _ in } }
        do {
            try open(Array("short".utf8)) { _ in }
            Issue.record("A five-byte journal opened")
        } catch RecordStoreError.notAStore {
        } catch {
            Issue.record("\(error)")
        }
        var newer = journal.bytes
        newer[7] = 9
        do {
            try open(newer) { _ in }
            Issue.record("A journal of version 9 opened")
        } catch let RecordStoreError.unsupportedFormat(_, version) {
            #expect(version == 9)
        } catch {
            Issue.record("\(error)")
        }
        var damagedHeader = journal.bytes
        damagedHeader[Frame.fileHeaderSize + Frame.headerSize + 2] ^= 1
        do {
            try open(damagedHeader) { _ in }
            Issue.record("A journal with a damaged header opened")
        } catch let RecordStoreError.corruptJournal(_, offset, _) {
            #expect(offset == Frame.fileHeaderSize)
        } catch {
            Issue.record("\(error)")
        }

        // A header frame whose checksum holds but whose entries do not read: an entry's length
        // runs past the frame.
        var crafted = Frame.fileMagic
        let salt: UInt64 = 0x1234_5678
        withUnsafeBytes(of: salt.littleEndian) { crafted += $0 }
        let payload: [UInt8] = [5, 0, 0, 0, 1]
        crafted += Frame.magic
        withUnsafeBytes(of: UInt32(payload.count).littleEndian) { crafted += $0 }
        let checksum = payload.withUnsafeBytes { Frame.checksum(salt: salt, payload: $0) }
        withUnsafeBytes(of: checksum.littleEndian) { crafted += $0 }
        crafted += payload
        do {
            try open(crafted) { _ in }
            Issue.record("A journal whose header frame does not read opened")
        } catch let RecordStoreError.corruptJournal(_, offset, _) {
            #expect(offset == Frame.fileHeaderSize)
        } catch {
            Issue.record("\(error)")
        }
    }

    func expectDamage(_ body: () throws -> Void) {
        do {
            try body()
            Issue.record("A damaged journal opened")
        } catch RecordStoreError.notAStore {
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test("The CRC-32 is the IEEE polynomial's, at every length and alignment")
    func crc32() {
        var check = CRC32()
        check.update(Array("123456789".utf8))
        #expect(check.value == 0xCBF4_3926)
        // Against the one-table definition, across the eight-byte steps.
        let bytes = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
        for start in 0..<9 {
            for end in stride(from: start, through: bytes.count, by: 7) {
                var crc = CRC32()
                crc.update(Array(bytes[start..<end]))
                #expect(crc.value == Self.slowCRC(bytes[start..<end]))
            }
        }
    }

    /// The CRC-32 bit by bit.
    static func slowCRC(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

extension MemoryFile {
    /// A file in memory that holds `bytes`.
    convenience init(_ bytes: [UInt8]) {
        self.init(path: "journal")
        try? write(bytes, at: 0)
    }
}
