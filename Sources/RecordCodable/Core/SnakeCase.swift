/// Conversions between Swift's camel case and the snake case of many record stores.
enum SnakeCase {
    /// `createdAt` → `created_at`, `imageURL` → `image_url`, `URLList` → `url_list`.
    ///
    /// A new word starts at an uppercase letter that follows a lowercase letter or a digit, and at
    /// the last uppercase letter of a run that a lowercase letter follows. Only ASCII letters
    /// change case, because a field name may hold nothing else.
    static func fromCamelCase(_ key: String) -> String {
        let bytes = Array(key.utf8)
        guard bytes.contains(where: isUppercase) else { return key }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 4)
        for (index, byte) in bytes.enumerated() {
            if isUppercase(byte), index > 0 {
                let previous = bytes[index - 1]
                let next = index + 1 < bytes.count ? bytes[index + 1] : nil
                let endsLowercaseWord = isLowercase(previous) || isDigit(previous)
                let endsAcronym = isUppercase(previous) && next.map(isLowercase) == true
                if endsLowercaseWord || endsAcronym {
                    output.append(UInt8(ascii: "_"))
                }
            }
            output.append(isUppercase(byte) ? byte + 32 : byte)
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `created_at` → `createdAt`, `_private_name` → `_privateName`.
    ///
    /// Leading and trailing underscores are kept; the words between are joined with their first
    /// letters capitalized, and the first word lowercased.
    static func toCamelCase(_ name: String) -> String {
        let leading = name.prefix(while: { $0 == "_" })
        let rest = name.dropFirst(leading.count)
        let core = rest.dropLast(rest.reversed().prefix(while: { $0 == "_" }).count)
        let trailing = rest.dropFirst(core.count)
        let words = core.split(separator: "_")
        guard words.count > 1 else { return name }
        let camel = words.enumerated().map { index, word in
            index == 0 ? word.lowercased() : word.prefix(1).uppercased() + word.dropFirst().lowercased()
        }
        return leading + camel.joined() + trailing
    }

    private static func isUppercase(_ byte: UInt8) -> Bool { (65...90).contains(byte) }
    private static func isLowercase(_ byte: UInt8) -> Bool { (97...122).contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }
}
