import Foundation

/// Reads a record dictionary straight from its bytes in one pass, when it has the shape nearly
/// every record has; otherwise it says so, and ``RecordJSONDecoder`` reads the document the
/// general way, from its start: into a ``JSONTape``, then through ``WireRecord/record(from:as:)``.
///
/// The general way makes a token of every value, then finds each member by its key, and reads
/// each field object's members one by one. For a record such as
///
/// ```json
/// {"fields":{"title":{"type":"STRING","value":"Hello"},"views":{"type":"INT64","value":3}},
///  "recordName":"N1","recordType":"Post"}
/// ```
///
/// this reader goes through the bytes once: it recognises each key from its bytes, reads each
/// field's `{"type":"NAME","value":…}` (or `{"value":…,"type":"NAME"}`, as CloudKit writes it)
/// with the value in its type's own terms, and makes each string once.
///
/// It decides only *how* a record is read, never what is read: a document it reads, the general
/// way reads to the same record, and it reads no document the general way refuses. So it takes a
/// document only when every part of it is of the shape it knows, and returns `nil` for anything
/// else — a key it does not know, a key given twice, `null`, a field that is encrypted, cleared or
/// of a type other than strings, numbers, timestamps, bytes and references (or lists of them), a
/// trailing comma, a byte order mark, a value of the wrong kind for its type, text that is not
/// valid JSON — so that the general way reads it, with its values and its errors. It checks the
/// text as strictly as ``JSONTapeParser`` does, with that parser's own functions for strings and
/// numbers, so that a value is the same `String` or number either way. It reads no deeper than a
/// record's fixed shape: only stepping over a field's value calls itself, two levels at most.
enum RecordBytesReader {
    typealias Bytes = Span<UInt8>

    /// The record that `data` holds, or `nil` for the general way to read.
    static func record(from data: Data) -> Record? {
        document(data.span)
    }

    /// The record that the JSON text `bytes` holds whole, or `nil` for the general way to read;
    /// its field names found in, and kept in, `table`.
    static func document(_ bytes: Bytes, table: FieldNameTable = .shared) -> Record? {
        var index = 0
        guard let record = record(bytes, &index, table: table),
            JSONTapeParser.skipWhitespace(bytes, from: index) == bytes.count
        else { return nil }
        return record
    }

    /// What the records read before the next one named: the last one's type, and the names of the
    /// fields of the last one that kept names of its own, which the next record of a page most
    /// often names the same, and so shares rather than makes (see ``ReadFields/List``).
    struct Precedent {
        /// Whether the reader follows its records: a page's reader does, one of a record alone
        /// does not, and keeps nothing.
        private let follows: Bool
        /// The last record's type.
        private var recordType: String?
        /// The text of `recordType`, once a record has been matched against it.
        private var recordTypeText: NameText?
        /// The names of the fields of the last record that kept names of its own, as read.
        private(set) var fields: ReadFields.SharedNames?

        /// No record read before, for a reader that follows the records it reads when `follows`
        /// says so.
        init(follows: Bool) {
            self.follows = follows
        }

        /// The last record's type, when `text` of `bytes` is its plain text.
        mutating func recordType(ifTextIs bytes: Bytes, _ text: Range<Int>) -> String? {
            guard let recordType else { return nil }
            let typeText = recordTypeText ?? NameText(plainName: recordType)
            recordTypeText = typeText
            return typeText.isText(of: bytes, text) ? recordType : nil
        }

        /// Follows a record of type `type` whose fields, kept as read, are `fields`: their names
        /// become the ones to match, unless they are those already.
        fileprivate mutating func follow(type: String?, fields: ReadFields?) {
            guard follows else { return }
            if let type, type != recordType {
                recordType = type
                recordTypeText = nil
            }
            guard let fields, !fields.sharesNames else { return }
            self.fields = ReadFields.SharedNames(fields)
        }
    }

    /// The record object at `index`, read up to its closing brace; `nil` for the general way to
    /// read the document. Its field names and type are found in `table`, and those made for it
    /// are kept there once it has read.
    static func record(_ bytes: Bytes, _ index: inout Int, table: FieldNameTable = .shared) -> Record? {
        var precedent = Precedent(follows: false)
        return record(bytes, &index, table: table, after: &precedent)
    }

    /// The record object at `index`, as ``record(_:_:table:)`` reads it, its type and field names
    /// matched first against those of the record read before, `precedent`, which becomes this
    /// one's when it reads.
    static func record(
        _ bytes: Bytes, _ index: inout Int, table: FieldNameTable = .shared, after precedent: inout Precedent
    ) -> Record? {
        var recordName: String?
        var recordType: String?
        var changeTag: String?
        var created: RecordMetadata.Stamp?
        var modified: RecordMetadata.Stamp?
        var zoneID: RecordZoneID?
        var deleted: Bool?
        var fields: Fields?
        var names = FieldNameLookup(table: table)
        let read = readMembers(bytes, &index) { bytes, key, index in
            switch WireRecord.Members.Key.named(bytes.extracting(key)) {
            case .recordName: fill(&recordName, with: string(bytes, &index))
            case .recordType: fill(&recordType, with: typeName(bytes, &index, &names, after: &precedent))
            case .recordChangeTag: fill(&changeTag, with: string(bytes, &index))
            case .fields: fill(&fields, with: self.fields(bytes, &index, &names, after: precedent.fields))
            case .created: fill(&created, with: stamp(bytes, &index))
            case .modified: fill(&modified, with: stamp(bytes, &index))
            case .zoneID: fill(&zoneID, with: self.zoneID(bytes, &index))
            case .deleted: fill(&deleted, with: bool(bytes, &index))
            case .parent, .share, .shortGUID, nil: false
            }
        }
        guard read, let recordName else { return nil }
        // Only a record that reads gives its names to the table, so that text that is not a
        // record's takes no place there.
        names.finish()
        let metadata = WireRecord.metadata(
            changeTag: changeTag, created: created, modified: modified, zoneID: zoneID, deleted: deleted)
        let type = recordType ?? ""
        guard let fields = fields.take() else {
            precedent.follow(type: recordType, fields: nil)
            return Record(recordType: type, recordName: recordName, metadata: metadata)
        }
        let readFields = fields.dictionary == nil && fields.list.count > 0 ? ReadFields(fields.list) : nil
        var record =
            if let dictionary = fields.dictionary {
                Record(recordType: type, recordName: recordName, fields: dictionary, metadata: metadata)
            } else if let readFields {
                Record(recordType: type, recordName: recordName, readFields: readFields, metadata: metadata)
            } else {
                Record(recordType: type, recordName: recordName, metadata: metadata)
            }
        if !fields.typeHints.isEmpty { record.fieldTypeHints = fields.typeHints }
        precedent.follow(type: recordType, fields: readFields)
        return record
    }

    // MARK: Fields

    /// A record's fields as read, in the order read, with the type of each empty list, which the
    /// record keeps.
    fileprivate struct Fields {
        var list: ReadFields.List
        /// The fields, once there are more than a list keeps: a dictionary, as the record keeps them.
        var dictionary: [String: RecordValue]?
        var typeHints: [String: String] = [:]

        /// No fields yet, their names to be matched against those of the record read before,
        /// `previous`, when there is one.
        init(after previous: ReadFields.SharedNames?) {
            list = ReadFields.List(after: previous)
        }

        /// Adds a field named `name` (its ``ReadFields/summary(of:)`` and whether it is ASCII
        /// alone given), unless one of that name is there; `false` then.
        @inline(__always)
        mutating func add(_ name: String, summary: UInt32, isASCII: Bool, _ value: RecordValue) -> Bool {
            if dictionary == nil, list.count < RecordBytesReader.maximumListedFields {
                return list.append(name, summary: summary, isASCII: isASCII, value)
            }
            var fields = dictionary.take() ?? list.dictionary
            let added = fields.updateValue(value, forKey: name) == nil
            dictionary = fields
            return added
        }
    }

    /// The most fields a record read here keeps in a list: its fields are searched one by one, for
    /// a name given twice and by the decoder, so the fields of a record of more are moved into a
    /// dictionary, which hashes each name.
    static let maximumListedFields = 64

    /// The fields object at `index`: each name the name at its place in `previous`, the names of
    /// an earlier record, as long as they are the same; otherwise found in `names`.
    private static func fields(
        _ bytes: Bytes, _ index: inout Int, _ names: inout FieldNameLookup, after previous: ReadFields.SharedNames?
    ) -> Fields? {
        guard consume(UInt8(ascii: "{"), bytes, &index) else { return nil }
        var fields = Fields(after: previous)
        if closes(UInt8(ascii: "}"), bytes, &index) { return fields }
        repeat {
            guard let (text, isPlain) = stringContent(bytes, &index), consume(UInt8(ascii: ":"), bytes, &index),
                let (value, spelled) = field(bytes, &index)
            else { return nil }
            let name: String
            // While the names are an earlier record's, the next is matched against its name there
            // (a record read alone has none, and skips the call; a list moved into a dictionary has
            // matched all it could, the earlier record having kept at most as many fields).
            if fields.list.namesArePrevious, isPlain, let previousName = fields.list.previousName(bytes, text) {
                fields.list.appendPrevious(value)
                name = previousName
            } else {
                let (made, summary, isASCII) = fieldName(bytes, text, isPlain: isPlain, &names)
                // A name given twice is the general way's to read.
                guard fields.add(made, summary: summary, isASCII: isASCII, value) else { return nil }
                name = made
            }
            // An empty list keeps the type the server has for its field.
            if value.isEmptyList { fields.typeHints[name] = spelled.plainName }
            guard let more = readsOn(bytes, &index, before: UInt8(ascii: "}")) else { return nil }
            if !more { return fields }
        } while true
    }

    /// The field name whose text, between its quotes, is `text` of `bytes`, plain when `isPlain`
    /// says so, as ``name(_:_:isPlain:_:)`` makes it.
    @inline(__always)
    private static func fieldName(
        _ bytes: Bytes, _ text: Range<Int>, isPlain: Bool, _ names: inout FieldNameLookup
    ) -> (String, summary: UInt32, isASCII: Bool) {
        let name = name(bytes, text, isPlain: isPlain, &names)
        guard isPlain else { return (name, ReadFields.summary(of: name), ReadFields.isASCII(name)) }
        // Plain text is ASCII without escapes: the name's UTF-8 bytes are the text's.
        let summary = ReadFields.summary(count: text.count, first: text.isEmpty ? 0 : bytes[text.lowerBound])
        return (name, summary, true)
    }

    /// The field object at `index`: its type and its value, in either order, and nothing else.
    private static func field(_ bytes: Bytes, _ index: inout Int) -> (RecordValue, WireField.SpelledType)? {
        let start = index
        if let field = compactField(bytes, &index) { return field }
        index = start
        guard consume(UInt8(ascii: "{"), bytes, &index), let first = key(bytes, &index) else { return nil }
        let read: RecordValue
        let spelled: WireField.SpelledType
        if bytes.extracting(first).isText("type") {
            guard let type = type(bytes, &index), consume(UInt8(ascii: ","), bytes, &index),
                let second = key(bytes, &index), bytes.extracting(second).isText("value"),
                let value = value(of: type, bytes, &index)
            else { return nil }
            (read, spelled) = (value, type)
        } else if bytes.extracting(first).isText("value") {
            // The value is stepped over to find the type, then read from where it starts: read, it
            // must end where it was stepped over to.
            let valueStart = index
            guard skipValue(bytes, &index, depth: 0) else { return nil }
            let valueEnd = index
            guard consume(UInt8(ascii: ","), bytes, &index), let second = key(bytes, &index),
                bytes.extracting(second).isText("type"), let type = type(bytes, &index)
            else { return nil }
            var valueIndex = valueStart
            guard let value = value(of: type, bytes, &valueIndex), valueIndex == valueEnd else { return nil }
            (read, spelled) = (value, type)
        } else {
            return nil
        }
        guard consume(UInt8(ascii: "}"), bytes, &index) else { return nil }
        return (read, spelled)
    }

    /// `{"type":` as the eight bytes ``ByteScan/word(_:at:)`` reads.
    static var typeKeyWord: UInt64 { 0x3A22_6570_7974_227B }
    /// `,"value"` as the eight bytes ``ByteScan/word(_:at:)`` reads.
    static var valueKeyWord: UInt64 { 0x2265_756C_6176_222C }

    /// The field object at `index` when it is written as this package and `JSONEncoder` write it,
    /// `{"type":"NAME","value":…}` without whitespace between its keys: its start and the type's
    /// name matched as words of bytes rather than read key by key. `nil` for any other field,
    /// which ``field(_:_:)`` then reads from its start.
    @inline(__always)
    private static func compactField(_ bytes: Bytes, _ index: inout Int) -> (RecordValue, WireField.SpelledType)? {
        index = JSONTapeParser.skipWhitespace(bytes, from: index)
        guard index + 9 <= bytes.count, ByteScan.word(bytes, at: index) == typeKeyWord,
            bytes[index + 8] == UInt8(ascii: "\"")
        else { return nil }
        // A type's name is capitals, digits and underscores.
        let nameStart = index + 9
        var nameEnd = nameStart
        while nameEnd < bytes.count, isTypeNameByte(bytes[nameEnd]) { nameEnd += 1 }
        guard nameEnd + 10 <= bytes.count, bytes[nameEnd] == UInt8(ascii: "\""),
            ByteScan.word(bytes, at: nameEnd + 1) == valueKeyWord, bytes[nameEnd + 9] == UInt8(ascii: ":"),
            let spelled = readableType(bytes.extracting(nameStart..<nameEnd))
        else { return nil }
        index = nameEnd + 10
        guard let value = value(of: spelled, bytes, &index), consume(UInt8(ascii: "}"), bytes, &index) else {
            return nil
        }
        return (value, spelled)
    }

    @inline(__always)
    private static func isTypeNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "_")
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// The field type that `name` spells, when it is one this reader reads: not encrypted, and
    /// neither a location nor an asset.
    @inline(__always)
    private static func readableType(_ name: Bytes) -> WireField.SpelledType? {
        guard let spelled = WireField.SpelledType(name), !spelled.isEncrypted else { return nil }
        switch spelled.type {
        case .location, .asset: return nil
        case .string, .int64, .double, .bytes, .timestamp, .reference: return spelled
        }
    }

    /// The field type named by the string at `index`, when it is one this reader reads: not
    /// encrypted, and neither a location nor an asset.
    private static func type(_ bytes: Bytes, _ index: inout Int) -> WireField.SpelledType? {
        index = JSONTapeParser.skipWhitespace(bytes, from: index)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\""),
            let (end, isPlain) = JSONTapeParser.stringEnd(bytes, from: index), isPlain,
            let spelled = readableType(bytes.extracting(index + 1..<end - 1))
        else { return nil }
        index = end
        return spelled
    }

    /// The value at `index` of the field type `spelled`, read as ``WireField/scalar(_:from:)``
    /// reads it.
    private static func value(of spelled: WireField.SpelledType, _ bytes: Bytes, _ index: inout Int)
        -> RecordValue?
    {
        guard spelled.isList else { return scalar(spelled.type, bytes, &index) }
        guard consume(UInt8(ascii: "["), bytes, &index) else { return nil }
        var elements: [RecordValue] = []
        if closes(UInt8(ascii: "]"), bytes, &index) { return .list(elements) }
        // Room for a short list at once: growing from empty reallocates at each of its first elements.
        elements.reserveCapacity(8)
        repeat {
            guard let element = scalar(spelled.type, bytes, &index) else { return nil }
            elements.append(element)
            guard let more = readsOn(bytes, &index, before: UInt8(ascii: "]")) else { return nil }
            if !more { return .list(elements) }
        } while true
    }

    /// A value of `type`; `nil` for one of another kind, which the general way refuses, and for a
    /// number spelled as a string, which it reads with checks of its own.
    private static func scalar(_ type: WireField.FieldType, _ bytes: Bytes, _ index: inout Int) -> RecordValue? {
        switch type {
        case .string:
            return string(bytes, &index).map(RecordValue.string)
        case .int64:
            return int64(bytes, &index).map(RecordValue.int64)
        case .double:
            guard let (kind, bits) = number(bytes, &index) else { return nil }
            return .double(kind == .integer ? Double(Int64(bitPattern: bits)) : Double(bitPattern: bits))
        case .timestamp:
            return int64(bytes, &index).flatMap(WireReader.date(milliseconds:)).map(RecordValue.date)
        case .bytes:
            return string(bytes, &index).flatMap { Data(base64Encoded: $0) }.map(RecordValue.bytes)
        case .reference:
            return reference(bytes, &index).map(RecordValue.reference)
        case .location, .asset:
            return nil
        }
    }

    /// A reference object of a record name and perhaps an action, as
    /// ``WireField/reference(from:)`` reads it; `nil` for one with a zone.
    private static func reference(_ bytes: Bytes, _ index: inout Int) -> RecordReference? {
        var recordName: String?
        var action: RecordReference.Action?
        let read = readMembers(bytes, &index) { bytes, key, index in
            let name = bytes.extracting(key)
            if name.isText("recordName") { return fill(&recordName, with: string(bytes, &index)) }
            guard name.isText("action") else { return false }
            return fill(&action, with: string(bytes, &index).flatMap(RecordReference.Action.init(rawValue:)))
        }
        guard read, let recordName else { return nil }
        return RecordReference(recordName: recordName, action: action ?? .none)
    }

    // MARK: System fields

    /// A `created` or `modified` stamp, as ``WireRecord`` reads it.
    private static func stamp(_ bytes: Bytes, _ index: inout Int) -> RecordMetadata.Stamp? {
        var timestamp: Date?
        var userRecordName: String?
        var deviceID: String?
        let read = readMembers(bytes, &index) { bytes, key, index in
            let name = bytes.extracting(key)
            if name.isText("timestamp") {
                return fill(&timestamp, with: int64(bytes, &index).flatMap(WireReader.date(milliseconds:)))
            }
            if name.isText("userRecordName") { return fill(&userRecordName, with: string(bytes, &index)) }
            return name.isText("deviceID") && fill(&deviceID, with: string(bytes, &index))
        }
        guard read, let timestamp else { return nil }
        return RecordMetadata.Stamp(timestamp: timestamp, userRecordName: userRecordName, deviceID: deviceID)
    }

    /// A zone, as ``WireField/zoneID(from:)`` reads it.
    static func zoneID(_ bytes: Bytes, _ index: inout Int) -> RecordZoneID? {
        var zoneName: String?
        var ownerRecordName: String?
        let read = readMembers(bytes, &index) { bytes, key, index in
            let name = bytes.extracting(key)
            if name.isText("zoneName") { return fill(&zoneName, with: string(bytes, &index)) }
            return name.isText("ownerRecordName") && fill(&ownerRecordName, with: string(bytes, &index))
        }
        guard read, let zoneName else { return nil }
        return RecordZoneID(zoneName: zoneName, ownerRecordName: ownerRecordName)
    }

    // MARK: Text

    /// Reads the object at `index`, each member's value by `readValue`, which gets the place of
    /// its key's content and the index of its value; `false` when the object does not read: a
    /// key that is not plain text, a value `readValue` does not read, an empty object.
    @inline(__always)
    static func readMembers(
        _ bytes: Bytes, _ index: inout Int, _ readValue: (Bytes, Range<Int>, inout Int) -> Bool
    ) -> Bool {
        guard consume(UInt8(ascii: "{"), bytes, &index) else { return false }
        repeat {
            guard let key = key(bytes, &index), readValue(bytes, key, &index),
                let more = readsOn(bytes, &index, before: UInt8(ascii: "}"))
            else { return false }
            if !more { return true }
        } while true
    }

    /// Keeps `read` in `slot`; `false` when it did not read, or when `slot` was filled before by a
    /// key given twice, which the general way reads.
    @inline(__always)
    static func fill<Value>(_ slot: inout Value?, with read: consuming Value?) -> Bool {
        guard slot == nil, read != nil else { return false }
        slot = read
        return true
    }

    /// Steps over whitespace and the byte `expected`; `false` when another byte comes first.
    @inline(__always)
    static func consume(_ expected: UInt8, _ bytes: Bytes, _ index: inout Int) -> Bool {
        index = JSONTapeParser.skipWhitespace(bytes, from: index)
        guard index < bytes.count, bytes[index] == expected else { return false }
        index += 1
        return true
    }

    /// Steps over whitespace and `closing`, when it comes next: the end of an empty container.
    @inline(__always)
    static func closes(_ closing: UInt8, _ bytes: Bytes, _ index: inout Int) -> Bool {
        consume(closing, bytes, &index)
    }

    /// After a member or an element: `true` past a comma, for another to follow; `false` past
    /// `closing`; `nil` for anything else. (A comma before `closing`, which `JSONDecoder` allows,
    /// is left to the general way, as the next key or value does not read.)
    @inline(__always)
    static func readsOn(_ bytes: Bytes, _ index: inout Int, before closing: UInt8) -> Bool? {
        index = JSONTapeParser.skipWhitespace(bytes, from: index)
        guard index < bytes.count else { return nil }
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: ",") { return true }
        return byte == closing ? false : nil
    }

    /// The place of the content of the key at `index`, a string of plain text, and steps over the
    /// colon after it.
    @inline(__always)
    static func key(_ bytes: Bytes, _ index: inout Int) -> Range<Int>? {
        guard let (content, isPlain) = stringContent(bytes, &index), isPlain else { return nil }
        guard consume(UInt8(ascii: ":"), bytes, &index) else { return nil }
        return content
    }

    /// The place of the content of the string at `index`, and whether it is plain text (ASCII
    /// without escapes, as `JSONTapeParser.stringEnd` says); steps over the string.
    @inline(__always)
    private static func stringContent(_ bytes: Bytes, _ index: inout Int) -> (Range<Int>, isPlain: Bool)? {
        index = JSONTapeParser.skipWhitespace(bytes, from: index)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\""),
            let (end, isPlain) = JSONTapeParser.stringEnd(bytes, from: index)
        else { return nil }
        let content = index + 1..<end - 1
        index = end
        return (content, isPlain)
    }

    /// The string at `index`, made as ``JSONTape`` makes it.
    @inline(__always)
    static func string(_ bytes: Bytes, _ index: inout Int) -> String? {
        guard let (content, isPlain) = stringContent(bytes, &index) else { return nil }
        return JSONTape.string(in: bytes, content, isPlain: isPlain)
    }

    /// The record type at `index`: the type of the record read before, `precedent`'s, when its
    /// plain text is the same; otherwise made as ``name(_:_:isPlain:_:)`` makes it.
    @inline(__always)
    private static func typeName(
        _ bytes: Bytes, _ index: inout Int, _ names: inout FieldNameLookup, after precedent: inout Precedent
    ) -> String? {
        guard let (content, isPlain) = stringContent(bytes, &index) else { return nil }
        if isPlain, let previous = precedent.recordType(ifTextIs: bytes, content) { return previous }
        return name(bytes, content, isPlain: isPlain, &names)
    }

    /// The string whose content is `content`, made as ``string(_:_:)`` makes it or, when it is
    /// plain text, found in `names`: for the names and types that records of a model repeat.
    @inline(__always)
    private static func name(
        _ bytes: Bytes, _ content: Range<Int>, isPlain: Bool, _ names: inout FieldNameLookup
    ) -> String {
        isPlain ? names.name(bytes, content) : JSONTape.string(in: bytes, content, isPlain: false)
    }

    /// The literal `true` or `false` at `index`.
    static func bool(_ bytes: Bytes, _ index: inout Int) -> Bool? {
        index = JSONTapeParser.skipWhitespace(bytes, from: index)
        if bytes.hasText("true", at: index) {
            index += 4
            return true
        } else if bytes.hasText("false", at: index) {
            index += 5
            return false
        }
        return nil
    }

    /// The number at `index`, as the kind and bits of its token in a tape.
    @inline(__always)
    private static func number(_ bytes: Bytes, _ index: inout Int) -> (JSONToken.Kind, UInt64)? {
        index = JSONTapeParser.skipWhitespace(bytes, from: index)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "-") || (0x30...0x39).contains(bytes[index]),
            case .number(let end, let kind, let bits) = JSONTapeParser.number(bytes, at: index)
        else { return nil }
        index = end
        return (kind, bits)
    }

    /// The number at `index` as ``WireReader/int64(acceptingText:)`` reads it: an integer within
    /// `Int64`, or minus zero as zero.
    private static func int64(_ bytes: Bytes, _ index: inout Int) -> Int64? {
        guard let (kind, bits) = number(bytes, &index) else { return nil }
        switch kind {
        case .integer: return Int64(bitPattern: bits)
        case .double: return Double(bitPattern: bits) == 0 ? 0 : nil
        default: return nil
        }
    }

    /// Steps over the value at `index`, a string, a number, or an array or object of them nested
    /// no deeper than a field's value; `false` for anything else, which this reader does not read.
    private static func skipValue(_ bytes: Bytes, _ index: inout Int, depth: Int) -> Bool {
        index = JSONTapeParser.skipWhitespace(bytes, from: index)
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            guard let (end, _) = JSONTapeParser.stringEnd(bytes, from: index) else { return false }
            index = end
            return true
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            // A list of references is as deep as a field's value goes.
            let closing = bytes[index] == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}")
            guard depth < 2 else { return false }
            index += 1
            if closes(closing, bytes, &index) { return true }
            repeat {
                if closing == UInt8(ascii: "}") {
                    guard key(bytes, &index) != nil else { return false }
                }
                guard skipValue(bytes, &index, depth: depth + 1),
                    let more = readsOn(bytes, &index, before: closing)
                else { return false }
                if !more { return true }
            } while true
        default:
            return number(bytes, &index) != nil
        }
    }
}
