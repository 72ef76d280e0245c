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

    /// A checksum begun: nothing given yet.
    init() {}

    /// A checksum that carries on from `register`: the ``register`` of another after some bytes,
    /// or zero, for a register that holds the bytes' own part alone (see ``advance(_:byZeros:)``).
    init(register: UInt32) {
        state = register
    }

    /// The register as it stands: what ``init(register:)`` carries on from.
    var register: UInt32 { state }

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

    // MARK: Spans of zeros

    // The register is a polynomial over GF(2), bit 31 holding the coefficient of x⁰ (the
    // "reflected" order). A zero byte multiplies it by x⁸ modulo the CRC's polynomial, and a byte
    // that is not zero adds to that a term that does not depend on the register. So the register
    // after any bytes, started from r, is r · x^(8n) plus the register after the same bytes started
    // from zero: which lets a span's checksum be worked out from the registers at its two ends
    // (see `SpanChecksums`), without reading the span again.

    /// The register after `count` zero bytes, started from `register`: `register · x^(8·count)`
    /// modulo the polynomial, in about as many steps as `count` has bits.
    static func advance(_ register: UInt32, byZeros count: Int) -> UInt32 {
        var result = register
        var remaining = UInt(max(count, 0))
        var power = 0
        while remaining != 0 {
            if remaining & 1 == 1 { result = multiply(result, powersOfX8[power]) }
            remaining >>= 1
            power += 1
        }
        return result
    }

    /// The product of two polynomials modulo the CRC's, in the register's order.
    private static func multiply(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var product: UInt32 = 0
        var multiple = b
        // The coefficients of a, from x⁰ (bit 31) up; `multiple` is b · x^k at each step.
        var coefficient: UInt32 = 1 << 31
        while coefficient != 0 {
            if a & coefficient != 0 { product ^= multiple }
            coefficient >>= 1
            multiple = multiple & 1 == 1 ? (multiple >> 1) ^ 0xEDB8_8320 : multiple >> 1
        }
        return product
    }

    /// `x^(8·2^k)` modulo the polynomial, for each bit k of a count of bytes.
    private static let powersOfX8: [UInt32] = {
        var powers: [UInt32] = [1 << 23]  // x⁸
        for _ in 1..<UInt.bitWidth {
            let last = powers[powers.count - 1]
            powers.append(multiply(last, last))
        }
        return powers
    }()

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
