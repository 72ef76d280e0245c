import Foundation

/// How a ``Record`` keeps its fields: as the dictionary ``Record/fields`` is, or as a reader of
/// JSON read them, in a list.
///
/// A dictionary hashes each name as it is filled, and again at each lookup, which a record read
/// from JSON only to be decoded into a model does not need. So the JSON reader keeps the fields it
/// reads in a list (``ReadFields``), which the decoder searches without hashing, and the
/// dictionary is built only when someone asks for ``Record/fields``. Any change to a record's
/// fields turns them into the dictionary, which holds them from then on.
enum FieldStorage: Sendable {
    /// Fields set by name: by the encoder, by hand, and after any change.
    case dictionary([String: RecordValue])
    /// Fields as a reader of JSON read them, each name once.
    case read(ReadFields)

    /// The fields as a dictionary: the one held, or the list's, built once.
    var dictionary: [String: RecordValue] {
        switch self {
        case .dictionary(let fields): fields
        case .read(let fields): fields.dictionary
        }
    }

    /// The fields as a dictionary to change, for a record that then holds it instead (see
    /// ``ReadFields/dictionaryToChange``).
    var dictionaryToChange: [String: RecordValue] {
        switch self {
        case .dictionary(let fields): fields
        case .read(let fields): fields.dictionaryToChange
        }
    }

    /// The value of the field named `name`, without building a dictionary.
    @inline(__always)
    func value(named name: String) -> RecordValue? {
        switch self {
        case .dictionary(let fields): fields[name]
        case .read(let fields): fields.value(named: name)
        }
    }

    /// The number of fields.
    var count: Int {
        switch self {
        case .dictionary(let fields): fields.count
        case .read(let fields): fields.count
        }
    }

    /// The fields' names, in no particular order.
    var names: [String] {
        switch self {
        case .dictionary(let fields): Array(fields.keys)
        case .read(let fields): fields.names
        }
    }

    /// Calls `body` with each field's name and value, in no particular order.
    func forEach(_ body: (_ name: String, _ value: RecordValue) throws -> Void) rethrows {
        switch self {
        case .dictionary(let fields):
            for (name, value) in fields { try body(name, value) }
        case .read(let fields): try fields.forEach(body)
        }
    }
}

/// A record's fields as a reader of JSON read them: names and values in the order read, each name
/// once, and for each name a summary (its length in UTF-8 bytes and its first byte) that tells most
/// names apart without comparing them.
///
/// A name is found as a dictionary finds it, by `String`'s equality, which compares Unicode text:
/// the summary only skips names that cannot be equal. Two names of plain ASCII are equal exactly
/// when their bytes are, so their summaries are too; a name with other characters may equal one
/// of other bytes (`"é"` composed or not, the Kelvin sign and `"K"`), so a name not found by its
/// summary is looked for again among all, unless it and every name of the list are ASCII.
///
/// The records of a page most often name the same fields in the same order. A record whose names
/// are all those of an earlier record of its page (the last one read that kept names of its own),
/// in the same order, keeps only its values, and takes its names from that record's (``List``): a
/// page of such records holds each name once, or once for each run of records named alike.
///
/// It never changes, but for the dictionary of its fields, built on first ask and kept: a record's
/// copies share it, on any thread, so it is read and set under a lock, one for all lists (taken at
/// each ask, twice on the first, and held only to read or set the kept dictionary, never to build
/// it). A record that changes its fields takes the kept dictionary, or builds one it does not
/// keep here: the list may still serve other copies, which have not changed.
final class ReadFields: @unchecked Sendable {
    /// The fields, in the order read: this record's own, or, when `sharedValues` holds its
    /// values, the names of an earlier record's (``SharedNames``), whose values are placeholders.
    private let fields: ContiguousArray<Field>
    /// The values, one for each of `fields`, of a record that takes its names from another's
    /// fields; `nil` for a record whose `fields` are its own.
    private let sharedValues: ContiguousArray<RecordValue>?
    /// Whether a name holds more than ASCII.
    private let hasUnicodeNames: Bool

    /// The fields as a dictionary, once asked for. Read and set only while `ReadFields.lock` is
    /// held.
    private var builtDictionary: [String: RecordValue]?
    private static let lock = NSLock()

    /// A field: its name, its value, and the name's ``summary(of:)``.
    ///
    /// In this order the summary takes the room the value leaves after its last byte (17 bytes in
    /// 24): a field is 40 bytes, where in the order name, summary, value it is 48. A page of
    /// records holds thousands, all alive at once.
    struct Field {
        let name: String
        let value: RecordValue
        let summary: UInt32
    }

    /// The fields that `list` gathered.
    init(_ list: consuming List) {
        (fields, sharedValues, hasUnicodeNames) = list.finished()
    }

    /// The number of fields.
    var count: Int { fields.count }

    /// Whether the names are another record's.
    var sharesNames: Bool { sharedValues != nil }

    /// The fields' names, in the order read.
    var names: [String] { fields.map(\.name) }

    /// Calls `body` with each field's name and value, in the order read.
    func forEach(_ body: (_ name: String, _ value: RecordValue) throws -> Void) rethrows {
        guard let sharedValues else {
            for field in fields { try body(field.name, field.value) }
            return
        }
        for (field, value) in zip(fields, sharedValues) { try body(field.name, value) }
    }

    /// The value of the field named `name`.
    func value(named name: String) -> RecordValue? {
        let place = Self.place(
            of: name, summary: Self.summary(of: name), isASCII: Self.isASCII(name), in: fields,
            hasUnicodeNames: hasUnicodeNames)
        guard let place else { return nil }
        guard let sharedValues else { return fields[place].value }
        // One value for each name, by construction; the check keeps a slip from trapping.
        return place < sharedValues.count ? sharedValues[place] : nil
    }

    /// The place in `fields` of the one named `name`, if any, where `summary` is the name's
    /// summary, `isASCII` tells whether it is ASCII alone (asked only when no field's name has its
    /// bytes) and `hasUnicodeNames` whether a field's name is not.
    @inline(__always)
    fileprivate static func place(
        of name: String, summary: UInt32, isASCII: @autoclosure () -> Bool, in fields: ContiguousArray<Field>,
        hasUnicodeNames: Bool
    ) -> Int? {
        for place in fields.indices where fields[place].summary == summary && fields[place].name == name {
            return place
        }
        // Not found by its bytes: equal Unicode text of other bytes is still the same name.
        if !hasUnicodeNames && isASCII() { return nil }
        return fields.firstIndex { $0.name == name }
    }

    /// A name's length in UTF-8 bytes and its first byte, in one number: equal for equal bytes.
    @inline(__always)
    static func summary(of name: String) -> UInt32 {
        let utf8 = name.utf8
        return summary(count: utf8.count, first: utf8.first ?? 0)
    }

    /// The summary of a name of `count` UTF-8 bytes, the first of them `first` (0 for none).
    @inline(__always)
    static func summary(count: Int, first: UInt8) -> UInt32 {
        UInt32(truncatingIfNeeded: count) &<< 8 | UInt32(first)
    }

    /// Whether `name` is ASCII alone.
    static func isASCII(_ name: String) -> Bool {
        name.utf8.allSatisfy { $0 < 0x80 }
    }

    /// The fields as a dictionary: built the first time it is asked for, and kept.
    var dictionary: [String: RecordValue] {
        if let kept = keptDictionary { return kept }
        // Built outside the lock: two threads that ask at once build the same dictionary, and the
        // first kept serves every later ask.
        let dictionary = builtNow
        Self.lock.lock()
        defer { Self.lock.unlock() }
        if let kept = builtDictionary { return kept }
        builtDictionary = dictionary
        return dictionary
    }

    /// The fields as a dictionary to change: the one kept, or else one built and not kept, since
    /// the record that changes it no longer holds this list.
    var dictionaryToChange: [String: RecordValue] {
        keptDictionary ?? builtNow
    }

    /// The dictionary kept, if one was built.
    private var keptDictionary: [String: RecordValue]? {
        Self.lock.lock()
        defer { Self.lock.unlock() }
        return builtDictionary
    }

    /// The fields as a dictionary, built now.
    private var builtNow: [String: RecordValue] {
        guard let sharedValues else { return Self.dictionary(of: fields) }
        return Self.dictionary(zip(fields.lazy.map(\.name), sharedValues))
    }

    /// `fields` as a dictionary.
    fileprivate static func dictionary(of fields: ContiguousArray<Field>) -> [String: RecordValue] {
        dictionary(fields.lazy.map { ($0.name, $0.value) })
    }

    /// `fields`, pairs of a name and a value, as a dictionary.
    private static func dictionary(
        _ fields: some Sequence<(String, RecordValue)>
    ) -> [String: RecordValue] {
        // The names are distinct (``List`` keeps each once); were two equal, the first would count,
        // as it does for the reader, rather than stop the program.
        Dictionary(fields, uniquingKeysWith: { first, _ in first })
    }

    /// Fields gathered one by one, each name once, for a ``ReadFields``: while a record names the
    /// fields that an earlier record of its page named, in the same order, it gathers only values,
    /// to take its names from that record's (``SharedNames``).
    ///
    /// A name is matched only when its text in the JSON is plain (ASCII without escapes) and is the
    /// earlier name's UTF-8 bytes: so every name matched is ASCII, and fields that share their names
    /// never have names that are not.
    struct List {
        /// The names to match, in order (none for a record read alone), and the plain text of each.
        private let previousFields: ContiguousArray<Field>
        private let previousTexts: ContiguousArray<NameText>
        /// Whether every name so far is the earlier record's name at the same place; the values
        /// are then in `values`, and `fields` is empty.
        private(set) var namesArePrevious: Bool
        /// The fields, once a name is not the earlier record's: those before it, then the rest.
        fileprivate private(set) var fields: ContiguousArray<Field> = []
        /// The values, while every name is the earlier record's.
        private var values: ContiguousArray<RecordValue> = []
        fileprivate private(set) var hasUnicodeNames = false

        /// An empty list, whose names are matched against `previous`, when there are any.
        init(after previous: SharedNames?) {
            previousFields = previous?.fields ?? []
            previousTexts = previous?.texts ?? []
            namesArePrevious = !previousFields.isEmpty
            if namesArePrevious {
                values.reserveCapacity(previousFields.count)
            } else {
                fields.reserveCapacity(16)
            }
        }

        var count: Int { namesArePrevious ? values.count : fields.count }

        /// Whether the names are the earlier record's, every one of them.
        var namesAreAllPrevious: Bool {
            namesArePrevious && values.count == previousFields.count
        }

        /// The fields as a dictionary.
        var dictionary: [String: RecordValue] { ReadFields.dictionary(of: ownFields()) }

        /// The earlier record's name at the place of the next field, when the text `range` of
        /// `bytes` is that name's plain text, as long as every name so far has been the earlier
        /// record's; `nil` otherwise. The caller asks only for plain text: text with an escape may
        /// read to a name of other bytes.
        @inline(__always)
        func previousName(_ bytes: Span<UInt8>, _ range: Range<Int>) -> String? {
            let place = values.count
            // `previousTexts` has a text for each of `previousFields`: one check of the place
            // against each keeps either from trapping.
            guard namesArePrevious, place < previousTexts.count, place < previousFields.count,
                previousTexts[place].isText(of: bytes, range)
            else { return nil }
            return previousFields[place].name
        }

        /// Adds the value of the field that ``previousName(_:_:)`` named: distinct from the names
        /// before it, which are the earlier record's too.
        @inline(__always)
        mutating func appendPrevious(_ value: RecordValue) {
            values.append(value)
        }

        /// Adds a field named `name`, whose ``ReadFields/summary(of:)`` is `summary` and whose text
        /// is ASCII alone when `isASCII` says so, unless the list has a field of that name; `false`
        /// then.
        @inline(__always)
        mutating func append(_ name: String, summary: UInt32, isASCII: Bool, _ value: RecordValue) -> Bool {
            if namesArePrevious { becomeOwn() }
            assert(summary == ReadFields.summary(of: name) && isASCII == ReadFields.isASCII(name), "the name's facts")
            guard
                ReadFields.place(
                    of: name, summary: summary, isASCII: isASCII, in: fields, hasUnicodeNames: hasUnicodeNames) == nil
            else { return false }
            fields.append(Field(name: name, value: value, summary: summary))
            hasUnicodeNames = hasUnicodeNames || !isASCII
            return true
        }

        /// Turns the values gathered so far, with the earlier record's names (all ASCII, as every
        /// name matched is), into fields of this record's own.
        @inline(never)
        private mutating func becomeOwn() {
            fields = ownFields()
            fields.reserveCapacity(max(16, fields.count + 1))
            values = []
            namesArePrevious = false
        }

        /// The fields so far, each with its name and its value.
        private func ownFields() -> ContiguousArray<Field> {
            guard namesArePrevious else { return fields }
            var own = ContiguousArray<Field>()
            own.reserveCapacity(values.count)
            for (field, value) in zip(previousFields, values) {
                own.append(Field(name: field.name, value: value, summary: field.summary))
            }
            return own
        }

        /// The fields, the values kept apart when the names are all the earlier record's, and
        /// whether a name is not ASCII alone (never, for names matched).
        fileprivate consuming func finished() -> (
            fields: ContiguousArray<Field>, sharedValues: ContiguousArray<RecordValue>?, hasUnicodeNames: Bool
        ) {
            if namesAreAllPrevious { return (previousFields, values, false) }
            return (ownFields(), nil, hasUnicodeNames)
        }
    }

    /// The names of a record's fields, for the records read after it in its page to match theirs
    /// against and share: the fields with their names and summaries (each value a placeholder,
    /// never read, so that the names keep no record's values alive), and the plain text of each
    /// name.
    struct SharedNames {
        fileprivate let fields: ContiguousArray<Field>
        /// The plain text of each name (see ``NameText``).
        fileprivate let texts: ContiguousArray<NameText>

        /// The names of the fields of `readFields`, a record's own.
        init(_ readFields: ReadFields) {
            fields = ContiguousArray(
                readFields.fields.lazy.map { Field(name: $0.name, value: .int64(0), summary: $0.summary) })
            texts = ContiguousArray(fields.lazy.map { NameText(plainName: $0.name) })
        }
    }
}

/// The plain text of a name in JSON, between its quotes, in a form that text read is compared with
/// in a few steps: its length, its first 16 bytes as two words of bytes (the first byte lowest,
/// zeros past the end), and any bytes past 16.
///
/// Only plain text is matched: ASCII without escapes, whose bytes are the name's UTF-8 bytes, so
/// that text whose bytes are a name's reads to that very name.
struct NameText: Sendable {
    let head: UInt64
    let tail: UInt64
    /// The length in bytes, or -1 for a name no text is matched against.
    let count: Int
    /// The bytes past the first 16: none for most names.
    let rest: [UInt8]

    /// The plain text of `name`: its UTF-8 bytes, when it is ASCII; otherwise a text that matches
    /// none.
    init(plainName name: String) {
        let bytes = ContiguousArray(name.utf8)
        let first = 0..<min(bytes.count, 16)
        guard bytes.allSatisfy({ $0 < 0x80 }), let (head, tail) = ByteScan.words(bytes.span, first) else {
            (head, tail, count, rest) = (0, 0, -1, [])
            return
        }
        (self.head, self.tail, count, rest) = (head, tail, bytes.count, Array(bytes.dropFirst(16)))
    }

    /// Whether the text `range` of `bytes` is this text.
    @inline(__always)
    func isText(of bytes: Span<UInt8>, _ range: Range<Int>) -> Bool {
        guard range.count == count,
            let (head, tail) = ByteScan.words(bytes, range.lowerBound..<range.lowerBound + min(count, 16)),
            head == self.head, tail == self.tail
        else { return false }
        for (offset, byte) in rest.enumerated() where bytes[range.lowerBound + 16 + offset] != byte { return false }
        return true
    }
}
