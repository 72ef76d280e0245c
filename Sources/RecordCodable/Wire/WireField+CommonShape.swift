import Foundation

/// The shortcut for the field objects that nearly every body holds: a `type` this package spells
/// the same way (`"INT64"`, `"STRING_LIST"`, `"ENCRYPTED_BYTES"`), a `value` that is not `null`,
/// perhaps `"isEncrypted"`, all keys plain ASCII.
///
/// ``WireField/generalContent(of:)`` looks each of a field's three members up by key, makes a
/// `String` of its type's name and takes that apart; for a field such as
/// `{"type":"INT64","value":3}` that costs more than reading the number. The shortcut finds the
/// members in one pass over the object, and recognises the type name from its bytes.
///
/// It decides only *how* a field is read, never what is read or which error is thrown: the value
/// is read by the same functions as on the general route, and a field it does not recognise in
/// every part — a key that is escaped, a `type` that is missing, `null`, not a string, unknown or
/// spelled `ASSET`, an `isEncrypted` that is not a boolean, a `value` that is missing or `null` —
/// it leaves to the general route, which reads it or throws its error. Where its members are
/// there, the general route would read them the same way: the first of a key given twice, the
/// `isEncrypted` and `type` it checks before the value found well-formed.
extension WireField {
    /// The content of a field of the common shape, or `nil` for the general route to read.
    ///
    /// - Throws: The error the general route throws for the field's value, at the same path.
    static func commonContent(of field: WireReader) throws -> Content? {
        // Members are kept as places in the tape, and only the value is made into a reader: each
        // reader costs a reference count.
        var typeMember: WireReader.Member?
        var valueMember: WireReader.Member?
        var flagMember: WireReader.Member?
        let keysArePlain = field.forEachPlainMember { key, member in
            // The first of a key given twice is the one read, as on the general route.
            if typeMember == nil, key.isText("type") {
                typeMember = member
            } else if valueMember == nil, key.isText("value") {
                valueMember = member
            } else if flagMember == nil, key.isText("isEncrypted") {
                flagMember = member
            }
        }
        guard keysArePlain, let typeMember, let valueMember, !field.isNull(valueMember),
            let spelled = field.plainText(of: typeMember, { SpelledType($0) }) ?? nil
        else { return nil }
        var isEncrypted = spelled.isEncrypted
        if let flagMember, !field.isNull(flagMember) {
            // A flag that is not a boolean is the general route's error to throw.
            guard let flag = try? field.reader(of: flagMember).bool() else { return nil }
            isEncrypted = isEncrypted || flag
        }
        let valueReader = field.reader(of: valueMember)
        let read: RecordValue
        if spelled.isList {
            read = .list(try valueReader.mapElements { try scalar(spelled.type, from: $0) })
        } else {
            read = try scalar(spelled.type, from: valueReader)
        }
        return .value(read, typeName: spelled.plainName, isEncrypted: isEncrypted && spelled.type.canBeEncrypted)
    }

    /// A field type's name as this package writes it, perhaps as `ENCRYPTED_` and perhaps as a
    /// list: `INT64`, `STRING_LIST`, `ENCRYPTED_DOUBLE_LIST`. `ASSET`, which some responses use
    /// for `ASSETID`, is not among them: the general route keeps that spelling.
    struct SpelledType {
        let type: FieldType
        let isList: Bool
        let isEncrypted: Bool

        /// The type that `name`, the bytes of a type name, spells; `nil` for any other name.
        init?(_ name: Span<UInt8>) {
            var start = 0
            var end = name.count
            isEncrypted = name.hasText(WireField.encryptedPrefixText, at: 0)
            if isEncrypted { start = WireField.encryptedPrefixText.utf8CodeUnitCount }
            let suffixStart = end - WireField.listSuffixText.utf8CodeUnitCount
            isList = suffixStart > start && name.hasText(WireField.listSuffixText, at: suffixStart)
            if isList { end = suffixStart }
            guard let type = Self.type(in: name, start..<end) else { return nil }
            self.type = type
        }

        /// The field type whose plain name is exactly the bytes at `range` of `name`. (A test holds
        /// these spellings to ``WireField/FieldType``'s raw values.)
        private static func type(in name: Span<UInt8>, _ range: Range<Int>) -> FieldType? {
            let core = name.extracting(range)
            // By length first, so that at most two names are compared byte by byte.
            switch core.count {
            case 5: return core.isText("INT64") ? .int64 : core.isText("BYTES") ? .bytes : nil
            case 6: return core.isText("STRING") ? .string : core.isText("DOUBLE") ? .double : nil
            case 7: return core.isText("ASSETID") ? .asset : nil
            case 8: return core.isText("LOCATION") ? .location : nil
            case 9: return core.isText("TIMESTAMP") ? .timestamp : core.isText("REFERENCE") ? .reference : nil
            default: return nil
            }
        }

        /// The name without `ENCRYPTED_`, as the general route gives it.
        var plainName: String {
            isList ? type.listName : type.rawValue
        }
    }
}

extension Span<UInt8> {
    /// Whether the bytes are exactly those of `text`.
    @inline(__always)
    func isText(_ text: StaticString) -> Bool {
        count == text.utf8CodeUnitCount && hasText(text, at: 0)
    }

    /// Whether the bytes from `offset` begin with those of `text`. Inlined, so that the text's
    /// length is known where it is called and the bytes compare without a call a byte.
    @inline(__always)
    func hasText(_ text: StaticString, at offset: Int) -> Bool {
        let length = text.utf8CodeUnitCount
        guard offset >= 0, offset + length <= count else { return false }
        return text.withUTF8Buffer { expected in
            (0..<length).allSatisfy { self[offset + $0] == expected[$0] }
        }
    }
}
