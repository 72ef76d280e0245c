import Foundation

/// Finding bytes in a `Span` eight at a time, in safe code.
///
/// Eight bytes are read as one `UInt64` after one range check, and tested together with the
/// bit tricks of "Bit Twiddling Hacks" (`haszero`, `hasless`), which mark the matching bytes.
enum ByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The eight bytes at `index` as one number, the first byte lowest.
    @inline(__always)
    static func word(_ bytes: Span<UInt8>, at index: Int) -> UInt64 {
        let chunk = bytes.extracting(index..<index + 8)
        // The compiler reads these as one load: the range was checked once, above.
        return UInt64(chunk[0]) | UInt64(chunk[1]) << 8 | UInt64(chunk[2]) << 16 | UInt64(chunk[3]) << 24
            | UInt64(chunk[4]) << 32 | UInt64(chunk[5]) << 40 | UInt64(chunk[6]) << 48 | UInt64(chunk[7]) << 56
    }

    /// The high bit of each byte of `word` that is `byte`.
    @inline(__always)
    static func marks(of byte: UInt8, in word: UInt64) -> UInt64 {
        let difference = word ^ (ones &* UInt64(byte))
        return (difference &- ones) & ~difference & highBits
    }

    /// The high bit of each byte of `word` below `limit`, which is at most 128.
    @inline(__always)
    static func marks(below limit: UInt8, in word: UInt64) -> UInt64 {
        (word &- ones &* UInt64(limit)) & ~word & highBits
    }

    /// The high bit of each byte of `word` that is not ASCII.
    @inline(__always)
    static func marksOfNonASCII(_ word: UInt64) -> UInt64 {
        word & highBits
    }

    /// The index of the first byte from `start` that `matches`, or `bytes.count`. `marks` gives,
    /// for eight bytes read as one number, the high bit of each matching byte; the lowest of
    /// those marks is exact (a wrong mark can only follow a right one), so the first match is
    /// found without reading its eight bytes one by one.
    @inline(__always)
    static func first(
        in bytes: Span<UInt8>, from start: Int, marks: (UInt64) -> UInt64, where matches: (UInt8) -> Bool
    ) -> Int {
        var index = start
        while index + 8 <= bytes.count {
            let found = marks(word(bytes, at: index))
            if found != 0 { return index + found.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < bytes.count, !matches(bytes[index]) {
            index += 1
        }
        return index
    }

    /// The bytes of `range` of `bytes`, at most 16 of them, as two words, the first byte lowest
    /// and zeros past the end: what a short name is compared and hashed by. `nil` for a longer
    /// range.
    @inline(__always)
    static func words(_ bytes: Span<UInt8>, _ range: Range<Int>) -> (head: UInt64, tail: UInt64)? {
        let count = range.count
        guard count <= 16 else { return nil }
        guard range.lowerBound + 16 <= bytes.count else { return wordsByByte(bytes, range) }
        let first = word(bytes, at: range.lowerBound)
        let second = word(bytes, at: range.lowerBound + 8)
        if count <= 8 { return (first & mask(count), 0) }
        return (first, second & mask(count - 8))
    }

    /// The words of a range too near the end of the text to be read as two words, such as a
    /// record's type, its last member: byte by byte.
    @inline(never)
    private static func wordsByByte(_ bytes: Span<UInt8>, _ range: Range<Int>) -> (head: UInt64, tail: UInt64) {
        var head: UInt64 = 0
        var tail: UInt64 = 0
        for offset in 0..<range.count {
            let byte = UInt64(bytes[range.lowerBound + offset])
            if offset < 8 {
                head |= byte << UInt64(offset * 8)
            } else {
                tail |= byte << UInt64((offset - 8) * 8)
            }
        }
        return (head, tail)
    }

    /// The low `count` bytes of a word, for `count` from 0 to 8.
    @inline(__always)
    private static func mask(_ count: Int) -> UInt64 {
        count >= 8 ? ~0 : (1 << UInt64(count * 8)) &- 1
    }
}
