import Foundation

/// The layout of the journal file: a file header, then checksummed frames, each the entries of
/// one committed batch.
///
/// ```
/// file header   "RCSTORE" 0x01 (8 bytes) · salt (8 bytes)
/// frame         magic "RSF" 0x01 · payload length (4) · CRC-32 (4) · payload
/// payload       entries, each: length (4) · bytes
/// ```
///
/// Integers are little-endian. A frame's CRC-32 covers the file's salt, the frame's length and
/// its payload: a frame left behind by an older file, or a copy of one inside another frame's
/// data, does not pass for a frame of this file. The first frame after the file header is the
/// store's header (``StoreHeader``); every other frame is one commit.
enum Frame {
    /// The first bytes of every journal; the last is the format's version.
    static let fileMagic: [UInt8] = Array("RCSTORE".utf8) + [1]

    /// The length of the file header: magic and salt.
    static let fileHeaderSize = 16

    /// The first bytes of every frame.
    static let magic: [UInt8] = Array("RSF".utf8) + [1]

    /// Magic, length and checksum.
    static let headerSize = 12

    /// The largest payload a frame may declare: a bigger length is damage, not data.
    static let maximumPayloadSize = 1 << 30

    /// The checksum of a frame of `payload` in a file of `salt`.
    static func checksum(salt: UInt64, payload: UnsafeRawBufferPointer) -> UInt32 {
        var crc = checksumStart(salt: salt, payloadCount: payload.count)
        crc.update(payload)
        return crc.value
    }

    /// The checksum of a frame of `payloadCount` bytes in a file of `salt`, before its payload.
    static func checksumStart(salt: UInt64, payloadCount: Int) -> CRC32 {
        var crc = CRC32()
        withUnsafeBytes(of: salt.littleEndian) { crc.update($0) }
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: payloadCount).littleEndian) { crc.update($0) }
        return crc
    }

    /// The entries of a payload: where each one's bytes start within the payload, and how many.
    static func entries(in payload: UnsafeRawBufferPointer) throws -> [(start: Int, count: Int)] {
        var reader = ByteReader(payload)
        var entries: [(start: Int, count: Int)] = []
        while !reader.isAtEnd {
            let count = Int(try reader.uint32())
            let start = reader.position
            _ = try reader.bytes(count: count)
            entries.append((start, count))
        }
        return entries
    }
}

/// The bytes of one frame being built: entries are added, then ``finish(salt:)`` fills in the
/// length and the checksum.
///
/// ```swift
/// var frame = FrameBuilder()
/// let first = frame.add(entryBytes)      // where the entry's bytes are in the frame
/// let bytes = frame.finish(salt: salt)   // the whole frame, checksummed
/// ```
struct FrameBuilder {
    private var writer: ByteWriter
    private(set) var entryCount = 0

    init(capacity: Int = 256) {
        writer = ByteWriter(capacity: capacity + Frame.headerSize)
        startFrame()
    }

    /// Empties the builder for the next frame, keeping its memory: a commit of a thousand
    /// records then writes into memory already there, instead of faulting in new pages.
    mutating func reset() {
        writer.removeAll()
        entryCount = 0
        startFrame()
    }

    private mutating func startFrame() {
        writer.append(contentsOf: Frame.magic)
        writer.append(UInt32(0))
        writer.append(UInt32(0))
    }

    /// The memory the builder keeps.
    var capacity: Int { writer.capacity }

    /// The frame's size so far.
    var count: Int { writer.count }

    /// Adds an entry, and returns where its bytes are within the frame.
    @discardableResult
    mutating func add(_ entry: some Collection<UInt8>) -> EntryLocation {
        writer.append(UInt32(truncatingIfNeeded: entry.count))
        let start = writer.count
        writer.append(contentsOf: entry)
        entryCount += 1
        return EntryLocation(offset: start, count: UInt32(truncatingIfNeeded: entry.count))
    }

    /// Adds an entry of bytes already sealed, and returns where they are within the frame.
    @discardableResult
    mutating func add(_ entry: Data) -> EntryLocation {
        let start = writer.count + 4
        writer.appendBlob(entry)
        entryCount += 1
        return EntryLocation(offset: start, count: UInt32(truncatingIfNeeded: entry.count))
    }

    /// Adds an entry written in place by `build`, and returns where its bytes are within the
    /// frame.
    @discardableResult
    mutating func add(_ build: (inout ByteWriter) -> Void) -> EntryLocation {
        let lengthOffset = writer.count
        writer.append(UInt32(0))
        let start = writer.count
        build(&writer)
        let count = UInt32(truncatingIfNeeded: writer.count - start)
        writer.overwrite(count, at: lengthOffset)
        entryCount += 1
        return EntryLocation(offset: start, count: count)
    }

    /// The finished frame, for a file of `salt`.
    mutating func finish(salt: UInt64) -> [UInt8] {
        let payloadCount = writer.count - Frame.headerSize
        let checksum = writer.bytes.withUnsafeBytes { bytes in
            Frame.checksum(salt: salt, payload: UnsafeRawBufferPointer(rebasing: bytes[Frame.headerSize...]))
        }
        writer.overwrite(UInt32(truncatingIfNeeded: payloadCount), at: 4)
        writer.overwrite(checksum, at: 8)
        return writer.bytes
    }
}
