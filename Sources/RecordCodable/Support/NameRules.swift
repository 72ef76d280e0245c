/// The rule every field name must follow to be accepted by a record store such as CloudKit.
enum FieldName {
    /// The longest field name, in bytes.
    static let maximumLength = 255

    /// Whether `name` starts with an ASCII letter, holds only ASCII letters, digits and
    /// underscores, and is at most ``maximumLength`` bytes long.
    static func isValid(_ name: String) -> Bool {
        var utf8 = name.utf8.makeIterator()
        guard let first = utf8.next(), isLetter(first) else { return false }
        var length = 1
        while let byte = utf8.next() {
            length += 1
            guard length <= maximumLength, isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "_")
            else { return false }
        }
        return true
    }

    /// Why `name` is not a valid field name, for an error message.
    static func problem(with name: String) -> String {
        if name.isEmpty { return "a field name cannot be empty" }
        if name.utf8.count > maximumLength {
            return "a field name is at most \(maximumLength) bytes, and this one has \(name.utf8.count)"
        }
        return "a field name starts with an ASCII letter and holds only ASCII letters, digits and underscores"
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (65...90).contains(byte) || (97...122).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }
}

/// The rule every record name must follow: CloudKit takes at most 255 ASCII characters, not
/// starting with an underscore, which it keeps for its own names.
enum RecordName {
    static let maximumLength = 255

    /// Why `name` cannot name a record, or `nil` when it can.
    static func problem(with name: String) -> String? {
        guard let first = name.utf8.first else { return "a record name cannot be empty" }
        if first == UInt8(ascii: "_") { return "a record name cannot start with an underscore" }
        if !name.utf8.allSatisfy({ $0 < 128 }) { return "a record name holds ASCII characters only" }
        if name.utf8.count > maximumLength {
            return "a record name is at most \(maximumLength) characters, and this one has \(name.utf8.count)"
        }
        return nil
    }
}
