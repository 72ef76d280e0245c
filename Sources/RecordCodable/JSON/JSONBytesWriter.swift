import Foundation

/// Writes JSON bytes exactly as Foundation's `JSONEncoder` writes them with `.sortedKeys`, without
/// going through `Encoder`.
///
/// `RecordJSONEncoder` promises the same bytes as the `Codable` path, which hands a ``WireJSON``
/// value to `JSONEncoder`; so every rule here is one that `JSONEncoder` follows, checked against it
/// on this platform (see `RecordJSONEncoderTests`):
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
    let prettyPrinted: Bool
    let escapesSlashes: Bool
    /// The current nesting, for pretty printing.
    private var depth = 0

    init(formatting: JSONEncoder.OutputFormatting, capacity: Int = 1024) {
        prettyPrinted = formatting.contains(.prettyPrinted)
        escapesSlashes = !formatting.contains(.withoutEscapingSlashes)
        bytes.reserveCapacity(capacity)
    }

    /// How many bytes are written.
    var count: Int { bytes.count }

    /// Where the writer is: what ``rewind(to:)`` goes back to.
    struct Mark {
        fileprivate let count: Int
        fileprivate let depth: Int
    }

    /// Where the writer is now, to go back to should what follows be written another way.
    var mark: Mark { Mark(count: bytes.count, depth: depth) }

    /// Removes what was written since `mark`, and goes back to its nesting.
    mutating func rewind(to mark: Mark) {
        bytes.removeLast(bytes.count - mark.count)
        depth = mark.depth
    }

    /// Makes room for `count` more bytes at once, for a caller that can tell about how many
    /// follow: the output is then sized once rather than doubled again and again, each time copied.
    mutating func reserve(more count: Int) {
        let (total, overflow) = bytes.count.addingReportingOverflow(count)
        if !overflow { bytes.reserveCapacity(total) }
    }

    // MARK: Values

    /// Writes an integer in decimal.
    mutating func write(_ number: Int64) {
        put(upTo: JSONText.integerBound) { JSONText.put(number, into: &$0) }
    }

    /// Writes a double as `JSONEncoder` does: its shortest `description`, without a trailing `.0`.
    mutating func write(_ number: Double) throws(NonFiniteNumber) {
        guard number.isFinite else { throw NonFiniteNumber(number: number) }
        put(upTo: JSONText.doubleBound) { JSONText.put(finite: number, into: &$0) }
    }

    /// Writes a string, quoted and escaped.
    mutating func write(_ string: String) {
        let escapingSlashes = escapesSlashes
        put(upTo: JSONText.bound(of: string)) { JSONText.put(string, escapingSlashes: escapingSlashes, into: &$0) }
    }

    /// Writes an array of strings, each quoted and escaped.
    mutating func write(strings: [String]) {
        beginArray()
        for (index, string) in strings.enumerated() {
            nextElement(first: index == 0)
            write(string)
        }
        endArray(empty: strings.isEmpty)
    }

    /// Appends ASCII text as it is.
    mutating func append(_ text: String) {
        put(upTo: text.utf8.count) { JSONText.putASCII(text, into: &$0) }
    }

    /// Appends what `write` writes straight into the output, at most `capacity` bytes: room is made
    /// once for all of them (see ``JSONText``).
    mutating func put(upTo capacity: Int, _ write: (inout OutputSpan<UInt8>) -> Void) {
        bytes.append(addingCapacity: capacity, initializingWith: write)
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

    /// Writes the separator before a member, and `key`, which is plain ASCII that needs no
    /// escape, such as `recordName`: the same bytes as ``writeKey(_:first:)``, without looking
    /// for bytes to escape.
    mutating func writePlainKey(_ key: StaticString, first: Bool) {
        guard !prettyPrinted else {
            nextElement(first: first)
            put(upTo: key.utf8CodeUnitCount + 5) { output in
                output.append(UInt8(ascii: "\""))
                JSONText.putASCII(key, into: &output)
                output.append(UInt8(ascii: "\""))
                JSONText.putASCII(" : ", into: &output)
            }
            return
        }
        put(upTo: key.utf8CodeUnitCount + 4) { output in
            if !first { output.append(UInt8(ascii: ",")) }
            output.append(UInt8(ascii: "\""))
            JSONText.putASCII(key, into: &output)
            output.append(UInt8(ascii: "\""))
            output.append(UInt8(ascii: ":"))
        }
    }

    /// Writes the separator before a record's field, its name, and the start of its object up to
    /// its value: `"name":{"type":"STRING","value":`, or for an encrypted field
    /// `"name":{"isEncrypted":true,"type":"STRING","value":`. Compact JSON is written in one step.
    ///
    /// `typeName` is one of CloudKit's type names (``RecordValue/typeName``), written as it is.
    mutating func writeFieldStart(name: String, typeName: String, encrypted: Bool = false, first: Bool) {
        guard !prettyPrinted else {
            writeKey(name, first: first)
            beginObject()
            if encrypted {
                writeKey("isEncrypted", first: true)
                append("true")
            }
            writeKey("type", first: !encrypted)
            write(typeName)
            writeKey("value", first: false)
            return
        }
        depth += 1
        let escapingSlashes = escapesSlashes
        put(upTo: JSONText.bound(of: name) + JSONText.bound(of: typeName) + (encrypted ? 40 : 20)) { output in
            if !first { output.append(UInt8(ascii: ",")) }
            JSONText.put(name, escapingSlashes: escapingSlashes, into: &output)
            if encrypted {
                JSONText.putASCII(JSONText.encryptedFieldTypeStart, into: &output)
            } else {
                JSONText.putASCII(JSONText.fieldTypeStart, into: &output)
            }
            // A type name is one of CloudKit's, such as `INT64_LIST`: nothing in it needs an escape.
            output.append(UInt8(ascii: "\""))
            JSONText.putASCII(typeName, into: &output)
            output.append(UInt8(ascii: "\""))
            JSONText.putASCII(JSONText.fieldValueStart, into: &output)
        }
    }

    /// Writes the separator before a record's field, its name, and `start`: the rest of its object
    /// up to its value, as compact JSON has it, such as `:{"type":"STRING","value":`. The same bytes
    /// as ``writeFieldStart(name:typeName:encrypted:first:)`` writes, for a caller that knows them
    /// whole for the field's type. Compact JSON only.
    mutating func writeFieldStart(name: String, compactStart start: StaticString, first: Bool) {
        depth += 1
        let escapingSlashes = escapesSlashes
        put(upTo: JSONText.bound(of: name) + start.utf8CodeUnitCount + 1) { output in
            if !first { output.append(UInt8(ascii: ",")) }
            JSONText.put(name, escapingSlashes: escapingSlashes, into: &output)
            JSONText.putASCII(start, into: &output)
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
