import Foundation

/// Builds the bytes of a frame or an entry: little-endian integers and length-prefixed byte
/// strings, appended to one growing buffer.
///
/// ```swift
/// var writer = ByteWriter()
/// writer.append(UInt32(7))
/// writer.appendString("Note")      // 4-byte length, then the UTF-8 bytes
/// writer.bytes                     // [7, 0, 0, 0, 4, 0, 0, 0, 78, 111, 116, 101]
/// ```
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    var count: Int { bytes.count }

    mutating func append(_ byte: UInt8) {
        bytes.append(byte)
    }

    mutating func append(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func append(contentsOf other: some Sequence<UInt8>) {
        bytes.append(contentsOf: other)
    }

    /// A byte string: its length as four bytes, then the bytes.
    mutating func appendBlob(_ blob: some Collection<UInt8>) {
        append(UInt32(truncatingIfNeeded: blob.count))
        bytes.append(contentsOf: blob)
    }

    /// A byte string of `data`, copied in one go.
    mutating func appendBlob(_ data: Data) {
        append(UInt32(truncatingIfNeeded: data.count))
        data.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }

    /// Removes the bytes, keeping the memory for the next use.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// The memory kept for the bytes.
    var capacity: Int { bytes.capacity }

    /// A string as a byte string of its UTF-8.
    mutating func appendString(_ string: String) {
        appendBlob(string.utf8)
    }

    /// Writes `value` over the four bytes at `offset`, for a length known only once what it
    /// counts is written.
    mutating func overwrite(_ value: UInt32, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { word in
            for (index, byte) in word.enumerated() { bytes[offset + index] = byte }
        }
    }
}

/// Reads what ``ByteWriter`` wrote, and fails with ``ByteReader/Malformed`` — never a trap — on
/// bytes that end too soon or are not what they should be.
struct ByteReader {
    /// The bytes are not what a writer of this format writes.
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    private let bytes: UnsafeRawBufferPointer
    private(set) var position = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { position == bytes.count }
    var remaining: Int { bytes.count - position }

    mutating func byte() throws -> UInt8 {
        guard remaining >= 1 else { throw Malformed(description: "the bytes end inside a value") }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func uint32() throws -> UInt32 {
        guard remaining >= 4 else { throw Malformed(description: "the bytes end inside a number") }
        defer { position += 4 }
        return bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self).littleEndian
    }

    mutating func uint64() throws -> UInt64 {
        guard remaining >= 8 else { throw Malformed(description: "the bytes end inside a number") }
        defer { position += 8 }
        return bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self).littleEndian
    }

    /// The next `count` bytes, as a view into the buffer.
    mutating func bytes(count: Int) throws -> UnsafeRawBufferPointer {
        guard count >= 0, remaining >= count else {
            throw Malformed(description: "a length of \(count) bytes runs past the end")
        }
        defer { position += count }
        return UnsafeRawBufferPointer(rebasing: bytes[position..<position + count])
    }

    /// A byte string that ``ByteWriter/appendBlob(_:)`` wrote, as a view into the buffer.
    mutating func blob() throws -> UnsafeRawBufferPointer {
        try bytes(count: Int(try uint32()))
    }

    /// A byte string, copied out.
    mutating func data() throws -> Data {
        Data(try blob())
    }

    /// A string that ``ByteWriter/appendString(_:)`` wrote. The frame's checksum vouches for
    /// its bytes, which a writer took from a `String`: they are UTF-8.
    mutating func string() throws -> String {
        String(decoding: try blob(), as: UTF8.self)
    }
}
