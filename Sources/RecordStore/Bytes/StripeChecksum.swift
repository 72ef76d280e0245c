/// A 256-bit checksum of a buffer, fast enough for megabytes: the index checkpoint's header and
/// each of its 4 KB blocks (those in the 64-bit ``folded`` form).
///
/// The bytes are read as little-endian 64-bit words, in stripes of four; word `i` of every
/// stripe goes to lane `i`, which takes each word through a step that is one-to-one in the lane
/// (add the word times an odd constant, rotate, multiply by another odd constant). Changing
/// the words of one lane therefore always changes that lane's result: any damage that stays
/// within one word — a flipped bit, a changed byte — is always caught, and damage wider than
/// that is missed with a chance of one in 2⁶⁴. The four lanes run side by side, so the loop
/// reads several bytes a cycle, a few times CRC-32's speed.
///
/// ```swift
/// let sum = StripeChecksum(of: bytes)   // four words, kept beside the bytes
/// ```
struct StripeChecksum: Hashable {
    var lanes: (UInt64, UInt64, UInt64, UInt64)

    static let byteCount = 32

    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F

    /// The checksum of `bytes`. Their length counts too: a last partial stripe is padded with
    /// zeros, and the length is taken into lane 0 at the end.
    init(of bytes: UnsafeRawBufferPointer) {
        var a: UInt64 = 1
        var b: UInt64 = 2
        var c: UInt64 = 3
        var d: UInt64 = 4
        @inline(__always) func step(_ lane: UInt64, _ word: UInt64) -> UInt64 {
            let mixed = lane &+ word &* Self.prime2
            return ((mixed << 31) | (mixed >> 33)) &* Self.prime1
        }
        let stripes = bytes.count / 32
        var offset = 0
        for _ in 0..<stripes {
            a = step(a, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian)
            b = step(b, bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self).littleEndian)
            c = step(c, bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self).littleEndian)
            d = step(d, bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self).littleEndian)
            offset += 32
        }
        var last = [UInt8](repeating: 0, count: 32)
        for index in offset..<bytes.count {
            last[index - offset] = bytes[index]
        }
        last.withUnsafeBytes { tail in
            a = step(a, tail.loadUnaligned(fromByteOffset: 0, as: UInt64.self).littleEndian)
            b = step(b, tail.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian)
            c = step(c, tail.loadUnaligned(fromByteOffset: 16, as: UInt64.self).littleEndian)
            d = step(d, tail.loadUnaligned(fromByteOffset: 24, as: UInt64.self).littleEndian)
        }
        a = step(a, UInt64(bytes.count))
        lanes = (a, b, c, d)
    }

    /// The four lanes in one word, for a table of many blocks' checksums: each lane is taken
    /// through a rotation of its own and the four are added bitwise (XOR). Damage within one word
    /// changes one lane, and so this word too: it is still always caught.
    var folded: UInt64 {
        lanes.0 ^ ((lanes.1 << 16) | (lanes.1 >> 48)) ^ ((lanes.2 << 32) | (lanes.2 >> 32))
            ^ ((lanes.3 << 48) | (lanes.3 >> 16))
    }

    /// The checksum as stored: its four lanes, little-endian.
    func write(to writer: inout ByteWriter) {
        writer.append(lanes.0)
        writer.append(lanes.1)
        writer.append(lanes.2)
        writer.append(lanes.3)
    }

    /// Reads a stored checksum from the first ``byteCount`` bytes of `bytes`.
    init(stored bytes: UnsafeRawBufferPointer) {
        lanes = (
            bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self).littleEndian,
            bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian,
            bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self).littleEndian,
            bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self).littleEndian
        )
    }

    static func == (left: StripeChecksum, right: StripeChecksum) -> Bool {
        left.lanes == right.lanes
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(lanes.0)
        hasher.combine(lanes.1)
        hasher.combine(lanes.2)
        hasher.combine(lanes.3)
    }
}
