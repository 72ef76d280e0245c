/// The rule every field name must follow to be accepted by a record store such as CloudKit.
package enum FieldName {
    /// The longest field name, in bytes.
    static let maximumLength = 255

    /// Whether `name` starts with an ASCII letter, holds only ASCII letters, digits and
    /// underscores, and is at most ``maximumLength`` bytes long.
    ///
    /// Every field of every record is checked, so the check reads each byte once, through a
    /// table.
    package static func isValid(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            guard let first = bytes.first, byteClass[Int(first)] == letter, bytes.count <= maximumLength else {
                return false
            }
            for byte in bytes where byteClass[Int(byte)] == invalid {
                return false
            }
            return true
        }
    }

    private static let invalid: UInt8 = 0
    private static let letter: UInt8 = 1
    private static let other: UInt8 = 2

    /// For each byte: `letter` for an ASCII letter, `other` for a digit or an underscore,
    /// `invalid` for anything else.
    private static let byteClass: [UInt8] = (0...255).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): letter
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"): other
        default: invalid
        }
    }

    /// Why `name` is not a valid field name, for an error message.
    package static func problem(with name: String) -> String {
        if name.isEmpty { return "a field name cannot be empty" }
        if name.utf8.count > maximumLength {
            return "a field name is at most \(maximumLength) bytes, and this one has \(name.utf8.count)"
        }
        return "a field name starts with an ASCII letter and holds only ASCII letters, digits and underscores"
    }
}

/// The rule every record name must follow: CloudKit takes at most 255 ASCII characters, not
/// starting with an underscore, which it keeps for its own names.
package enum RecordName {
    static let maximumLength = 255

    /// Why `name` cannot name a record, or `nil` when it can.
    package static func problem(with name: String) -> String? {
        if isValid(name) { return nil }
        guard let first = name.utf8.first else { return "a record name cannot be empty" }
        if first == UInt8(ascii: "_") { return "a record name cannot start with an underscore" }
        if !name.utf8.allSatisfy({ $0 < 128 }) { return "a record name holds ASCII characters only" }
        if name.utf8.count > maximumLength {
            return "a record name is at most \(maximumLength) characters, and this one has \(name.utf8.count)"
        }
        return nil
    }

    /// Whether `name` is one to ``maximumLength`` ASCII characters, not starting with an
    /// underscore. Every record's name is checked, so the check reads each byte once.
    static func isValid(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            guard let first = bytes.first, first != UInt8(ascii: "_"), bytes.count <= maximumLength else {
                return false
            }
            var bits: UInt8 = 0
            for byte in bytes { bits |= byte }
            return bits < 128
        }
    }
}
