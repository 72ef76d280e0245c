import Foundation

/// Writes JSON bytes exactly as Foundation's `JSONEncoder` writes them with `.sortedKeys`, without
/// going through `Encoder`.
///
/// `RecordJSONEncoder` promises the same bytes as the `Codable` path, which hands a ``WireJSON``
/// value to `JSONEncoder`; so every rule here is one that `JSONEncoder` follows, checked against it
/// on this platform (see `FastJSONWriterTests`):
///
/// - object keys in the order of their UTF-8 bytes (not `String`'s `<`, which normalizes);
/// - `"` and `\` escaped, `/` written `\/` unless `.withoutEscapingSlashes`, `\b \f \n \r \t`
///   by name, every other control character as `\u00xx` in lower-case hex, and everything else
///   (`DEL` and all of Unicode) as its UTF-8 bytes;
/// - an integer in decimal, a double as its `description` without a trailing `.0` (`1e+300`,
///   `5e-324`, `-0`), and NaN or an infinity refused;
/// - `.prettyPrinted`: two spaces a level, `"key" : value`, and an empty object or array as
///   `{`, an empty line, `}`.
///
/// For example, `.object(["b": .int64(1), "a": .string("x/y")])` is written
/// `{"a":"x\/y","b":1}`.
struct JSONBytesWriter {
    /// The bytes written so far.
    private(set) var bytes: ContiguousArray<UInt8> = []
    private let prettyPrinted: Bool
    private let escapesSlashes: Bool
    /// The current nesting, for pretty printing.
    private var depth = 0
    /// Runs of compact JSON written once and copied after (see ``writeRepeated(_:_:)``): their
    /// names and where their bytes are in `runs`.
    private var repeated: [(name: String, range: Range<Int>)] = []
    private var runs: ContiguousArray<UInt8> = []

    init(formatting: JSONEncoder.OutputFormatting, capacity: Int = 1024) {
        prettyPrinted = formatting.contains(.prettyPrinted)
        escapesSlashes = !formatting.contains(.withoutEscapingSlashes)
        bytes.reserveCapacity(capacity)
    }

    // MARK: Values

    /// Writes `value` and everything in it.
    ///
    /// - Throws: ``NonFiniteNumber`` for a NaN or infinite double, with the keys that lead to it
    ///   from `value`; ``JSONBytesWriter/encodingError(_:at:)`` turns it into Foundation's error.
    mutating func write(_ value: WireJSON) throws(NonFiniteNumber) {
        switch value {
        case .null: append("null")
        case .bool(let bool): append(bool ? "true" : "false")
        case .int64(let number): write(number)
        case .double(let number): try write(number)
        case .string(let string): write(string)
        case .array(let elements):
            beginArray()
            for (index, element) in elements.enumerated() {
                nextElement(first: index == 0)
                do throws(NonFiniteNumber) {
                    try write(element)
                } catch {
                    throw error.inside(AnyCodingKey(index: index))
                }
            }
            endArray(empty: elements.isEmpty)
        case .object(let members):
            beginObject()
            for (position, member) in JSONKeyOrder.sorted(members).enumerated() {
                writeKey(member.key, first: position == 0)
                do throws(NonFiniteNumber) {
                    try write(member.value)
                } catch {
                    throw error.inside(AnyCodingKey(stringValue: member.key))
                }
            }
            endObject(empty: members.isEmpty)
        }
    }

    /// Writes an integer in decimal.
    mutating func write(_ number: Int64) {
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = number.magnitude
        // From the highest power of ten the number reaches, a digit for each power.
        var power: UInt64 = 1
        while power <= magnitude / 10 { power *= 10 }
        while power > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude / power % 10))
            power /= 10
        }
    }

    /// Writes a double as `JSONEncoder` does: its shortest `description`, without a trailing `.0`.
    mutating func write(_ number: Double) throws(NonFiniteNumber) {
        guard number.isFinite else { throw NonFiniteNumber(number: number) }
        writeFinite(number)
    }

    /// Writes a double that is neither NaN nor infinite.
    mutating func writeFinite(_ number: Double) {
        // Most doubles on the wire are whole numbers or a few digits; those are written without
        // formatting a String. `description` writes integers below 2^53 in full ("100.0").
        if number.magnitude < 0x1p53, let integer = Int64(exactly: number), integer != 0 || number.sign == .plus {
            write(integer)
            return
        }
        let text = number.description
        append(text.hasSuffix(".0") ? String(text.dropLast(2)) : text)
    }

    /// Writes a string, quoted and escaped.
    mutating func write(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        // Copying the whole string costs less than reading it byte by byte; the bytes that need
        // an escape, rare outside URLs and Base64, are then found eight at a time.
        let start = bytes.count
        bytes.append(contentsOf: string.utf8)
        let escapesSlashes = self.escapesSlashes
        let special = ByteScan.first(in: bytes.span, from: start) {
            ByteScan.marks(below: 0x20, in: $0) | ByteScan.marks(of: UInt8(ascii: "\""), in: $0)
                | ByteScan.marks(of: UInt8(ascii: "\\"), in: $0)
                | (escapesSlashes ? ByteScan.marks(of: UInt8(ascii: "/"), in: $0) : 0)
        } where: {
            Self.needsEscape($0, escapesSlashes: escapesSlashes)
        }
        if special < bytes.count {
            let rest = Array(bytes[special...])
            bytes.removeSubrange(special...)
            for byte in rest {
                if Self.needsEscape(byte, escapesSlashes: escapesSlashes) {
                    appendEscaped(byte)
                } else {
                    bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func needsEscape(_ byte: UInt8, escapesSlashes: Bool) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
            || (byte == UInt8(ascii: "/") && escapesSlashes)
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 0x0F)])
        }
    }

    /// Appends ASCII text as it is.
    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    // MARK: Containers

    // A container is written as begin, then each member or element after its separator, then end,
    // so that a writer that knows its keys already sorted (a record's fields) shares the layout.

    mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        depth += 1
    }

    /// Writes the separator before a member, and its key.
    mutating func writeKey(_ key: String, first: Bool) {
        nextElement(first: first)
        write(key)
        if prettyPrinted {
            append(" : ")
        } else {
            bytes.append(UInt8(ascii: ":"))
        }
    }

    mutating func endObject(empty: Bool) {
        close(UInt8(ascii: "}"), empty: empty)
    }

    mutating func beginArray() {
        bytes.append(UInt8(ascii: "["))
        depth += 1
    }

    /// Writes the separator before a member or an element.
    mutating func nextElement(first: Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        if prettyPrinted { newLine() }
    }

    mutating func endArray(empty: Bool) {
        close(UInt8(ascii: "]"), empty: empty)
    }

    private mutating func close(_ bracket: UInt8, empty: Bool) {
        depth -= 1
        if prettyPrinted {
            // JSONEncoder leaves an empty line inside an empty container.
            if empty { bytes.append(UInt8(ascii: "\n")) }
            newLine()
        }
        bytes.append(bracket)
    }

    private mutating func newLine() {
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    /// Writes what `write` writes, the first time; after that, a copy of it. For a run of compact
    /// JSON that comes again and again with the same `name`, such as the start of a record's field
    /// of one type: copying bytes costs less than writing the keys and strings again. When
    /// pretty printing, where the run depends on its depth, `write` writes every time.
    mutating func writeRepeated(_ name: String, _ write: (inout JSONBytesWriter) -> Void) {
        guard !prettyPrinted else { return write(&self) }
        if let run = repeated.first(where: { $0.name == name }) {
            bytes.append(contentsOf: runs[run.range])
            return
        }
        let start = bytes.count
        write(&self)
        let runStart = runs.count
        runs.append(contentsOf: bytes[start...])
        repeated.append((name, runStart..<runs.count))
    }

    /// A point in the output to come back to.
    struct Mark {
        fileprivate let count: Int
        fileprivate let depth: Int
    }

    /// Where the output is now.
    var mark: Mark { Mark(count: bytes.count, depth: depth) }

    /// Takes back everything written since `mark`.
    mutating func rollBack(to mark: Mark) {
        bytes.removeSubrange(mark.count...)
        depth = mark.depth
    }

    // MARK: Errors

    /// A NaN or infinite double, which JSON cannot carry, and the keys from the value being
    /// written down to it, innermost first.
    struct NonFiniteNumber: Error {
        var number: Double
        var keysInward: [AnyCodingKey] = []

        func inside(_ key: AnyCodingKey) -> NonFiniteNumber {
            var error = self
            error.keysInward.append(key)
            return error
        }
    }

    /// The error `JSONEncoder` throws for a NaN or infinite double, at its full coding path.
    static func encodingError(_ error: NonFiniteNumber, at path: [any CodingKey]) -> EncodingError {
        .invalidValue(
            error.number,
            EncodingError.Context(
                codingPath: path + error.keysInward.reversed(),
                debugDescription: "Unable to encode Double.\(error.number) directly in JSON."))
    }
}

/// The order in which `JSONEncoder` writes an object's keys: by their UTF-8 bytes.
enum JSONKeyOrder {
    /// A member of an object, with what sorts it.
    struct Member<Value> {
        let key: String
        let value: Value
        /// The first eight UTF-8 bytes of the key as a big-endian number, shorter keys padded
        /// with zeros: numbers in the order of the keys, except that keys equal in them may
        /// differ later.
        fileprivate let prefix: UInt64
    }

    /// `members` in the order of their keys' UTF-8 bytes.
    ///
    /// Keys are compared by their first eight bytes as one number, and only keys that share
    /// those by all their bytes: comparing two `String`s costs far more than comparing two
    /// integers, and most keys differ early.
    static func sorted<Value>(_ members: some Sequence<(key: String, value: Value)>) -> [Member<Value>] {
        var sorted = members.map { Member(key: $0.key, value: $0.value, prefix: prefix(of: $0.key)) }
        sorted.sort { first, second in
            if first.prefix != second.prefix { return first.prefix < second.prefix }
            return first.key.utf8.lexicographicallyPrecedes(second.key.utf8)
        }
        return sorted
    }

    private static func prefix(of key: String) -> UInt64 {
        if #available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *) {
            // Reading a string's bytes through a span costs a tenth of stepping through its
            // UTF-8 view.
            let bytes = key.utf8.span
            if bytes.count >= 8 { return ByteScan.word(bytes, at: 0).byteSwapped }
            var prefix: UInt64 = 0
            for index in 0..<bytes.count {
                prefix |= UInt64(bytes[index]) << (56 - 8 * UInt64(index))
            }
            return prefix
        }
        var prefix: UInt64 = 0
        for (index, byte) in key.utf8.prefix(8).enumerated() {
            prefix |= UInt64(byte) << (56 - 8 * UInt64(index))
        }
        return prefix
    }
}

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
}
