/// The CRC-32 checksum of the journal's frames (the IEEE polynomial, as zlib, PNG and Ethernet
/// compute it), so that a frame damaged on disk or cut short by a crash is told from a whole one.
///
/// The store checks every frame of the journal when it opens, so the checksum must be fast: it
/// reads sixteen bytes a step through sixteen tables ("slicing by sixteen"), several times the
/// speed of the one-table loop, without any code but this file.
///
/// ```swift
/// var crc = CRC32()
/// crc.update(Array("123456789".utf8))
/// crc.value   // 0xCBF43926, the polynomial's check value
/// ```
struct CRC32 {
    /// The register, inverted as the algorithm keeps it between updates.
    private var state: UInt32 = 0xFFFF_FFFF

    /// The checksum of everything given so far.
    var value: UInt32 { ~state }

    /// Adds `bytes` to the checksum.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var crc = state
        var index = 0
        let count = bytes.count
        Self.tables.withUnsafeBufferPointer { table in
            /// The entry of `byte` in table `slice`.
            func lookUp(_ slice: Int, _ byte: UInt32) -> UInt32 {
                table[slice &* 256 &+ Int(byte & 0xFF)]
            }
            while count - index >= 16 {
                // Sixteen bytes as two little-endian words; the buffer need not be aligned.
                let first = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self).littleEndian
                let second = bytes.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self).littleEndian
                let a = crc ^ UInt32(truncatingIfNeeded: first)
                let b = UInt32(truncatingIfNeeded: first >> 32)
                let c = UInt32(truncatingIfNeeded: second)
                let d = UInt32(truncatingIfNeeded: second >> 32)
                crc =
                    lookUp(15, a) ^ lookUp(14, a >> 8) ^ lookUp(13, a >> 16) ^ lookUp(12, a >> 24)
                    ^ lookUp(11, b) ^ lookUp(10, b >> 8) ^ lookUp(9, b >> 16) ^ lookUp(8, b >> 24)
                    ^ lookUp(7, c) ^ lookUp(6, c >> 8) ^ lookUp(5, c >> 16) ^ lookUp(4, c >> 24)
                    ^ lookUp(3, d) ^ lookUp(2, d >> 8) ^ lookUp(1, d >> 16) ^ lookUp(0, d >> 24)
                index += 16
            }
            while index < count {
                crc = lookUp(0, crc ^ UInt32(bytes[index])) ^ (crc >> 8)
                index += 1
            }
        }
        state = crc
    }

    /// Adds `bytes` to the checksum.
    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The checksum of `bytes`.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }

    /// Sixteen tables of 256 entries, one after another. Table 0 is the classic byte-at-a-time
    /// table of the reflected polynomial 0xEDB88320; table k advances a byte's remainder by k
    /// more zero bytes, which lets sixteen bytes be folded in at once.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 16 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 {
                crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
            }
            tables[byte] = crc
        }
        for byte in 0..<256 {
            for slice in 1..<16 {
                let previous = tables[(slice - 1) * 256 + byte]
                tables[slice * 256 + byte] = tables[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return tables
    }()
}
