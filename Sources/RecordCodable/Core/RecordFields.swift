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
/// It never changes, but for the dictionary of its fields, built on first ask and kept: a record's
/// copies share it, on any thread, so it is read and set under a lock, one for all lists (taken at
/// each ask, twice on the first, and held only to read or set the kept dictionary, never to build
/// it). A record that changes its fields takes the kept dictionary, or builds one it does not
/// keep here: the list may still serve other copies, which have not changed.
final class ReadFields: @unchecked Sendable {
    /// The fields, in the order read.
    private let fields: ContiguousArray<Field>
    /// Whether a name holds more than ASCII.
    private let hasUnicodeNames: Bool

    /// The fields as a dictionary, once asked for. Read and set only while `ReadFields.lock` is
    /// held.
    private var builtDictionary: [String: RecordValue]?
    private static let lock = NSLock()

    /// A field: its name, the name's ``summary(of:)``, and its value.
    struct Field {
        let name: String
        let summary: UInt32
        let value: RecordValue
    }

    /// The fields that `list` gathered.
    init(_ list: List) {
        fields = list.fields
        hasUnicodeNames = list.hasUnicodeNames
    }

    /// The number of fields.
    var count: Int { fields.count }

    /// The fields' names, in the order read.
    var names: [String] { fields.map(\.name) }

    /// Calls `body` with each field's name and value, in the order read.
    func forEach(_ body: (_ name: String, _ value: RecordValue) throws -> Void) rethrows {
        for field in fields { try body(field.name, field.value) }
    }

    /// The value of the field named `name`.
    func value(named name: String) -> RecordValue? {
        Self.place(
            of: name, summary: Self.summary(of: name), isASCII: Self.isASCII(name), in: fields,
            hasUnicodeNames: hasUnicodeNames
        ).map { fields[$0].value }
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
        let dictionary = Self.dictionary(of: fields)
        Self.lock.lock()
        defer { Self.lock.unlock() }
        if let kept = builtDictionary { return kept }
        builtDictionary = dictionary
        return dictionary
    }

    /// The fields as a dictionary to change: the one kept, or else one built and not kept, since
    /// the record that changes it no longer holds this list.
    var dictionaryToChange: [String: RecordValue] {
        keptDictionary ?? Self.dictionary(of: fields)
    }

    /// The dictionary kept, if one was built.
    private var keptDictionary: [String: RecordValue]? {
        Self.lock.lock()
        defer { Self.lock.unlock() }
        return builtDictionary
    }

    /// `fields` as a dictionary.
    fileprivate static func dictionary(of fields: ContiguousArray<Field>) -> [String: RecordValue] {
        // The names are distinct (``List`` keeps each once); were two equal, the first would count,
        // as it does for the reader, rather than stop the program.
        Dictionary(fields.lazy.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// Fields gathered one by one, each name once, for a ``ReadFields``.
    struct List {
        fileprivate private(set) var fields: ContiguousArray<Field> = []
        fileprivate private(set) var hasUnicodeNames = false

        /// An empty list, with room for `capacity` fields.
        init(capacity: Int) {
            fields.reserveCapacity(capacity)
        }

        var count: Int { fields.count }

        /// The fields as a dictionary.
        var dictionary: [String: RecordValue] { ReadFields.dictionary(of: fields) }

        /// Adds a field named `name`, whose ``ReadFields/summary(of:)`` is `summary` and whose text
        /// is ASCII alone when `isASCII` says so, unless the list has a field of that name; `false`
        /// then.
        mutating func append(_ name: String, summary: UInt32, isASCII: Bool, _ value: RecordValue) -> Bool {
            assert(summary == ReadFields.summary(of: name) && isASCII == ReadFields.isASCII(name), "the name's facts")
            guard
                ReadFields.place(
                    of: name, summary: summary, isASCII: isASCII, in: fields, hasUnicodeNames: hasUnicodeNames) == nil
            else { return false }
            fields.append(Field(name: name, summary: summary, value: value))
            hasUnicodeNames = hasUnicodeNames || !isASCII
            return true
        }
    }
}
