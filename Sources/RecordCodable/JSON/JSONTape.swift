import Foundation

/// A JSON document as a flat list of tokens, one per value and one per key, in document order:
/// what ``WireReader`` reads every record and body from.
///
/// Reading JSON into a tree of dictionaries costs an allocation and a hash for every value, and a
/// reader of a tree carries the coding path it got there by; a tape costs a token a value, and a
/// reader is the tape and an index. A container's token says how many members or elements it has
/// and where the value after it starts, so that a reader steps over a whole value at once; the
/// path of a value is worked out from the tape, only for an error.
///
/// A tape comes from one of two places, and reads the same either way:
///
/// - ``RecordJSONDecoder`` parses JSON text into one (``JSONTapeParser``): its strings stay in the
///   text, made into `String`s only when asked for;
/// - the `Codable` path lays out the ``WireJSON`` tree that Foundation's `JSONDecoder` read
///   (``init(_:path:)``, beside ``WireJSON``): its strings are held whole.
///
/// For example, `{"a":[1,"x"]}` is the tape
///
/// ```
/// 0 object  members: 1  end: 5
/// 1 string  "a"         (a member's key comes right before its value)
/// 2 array   elements: 2 end: 5
/// 3 integer 1
/// 4 string  "x"
/// ```
final class JSONTape {
    /// The JSON text that strings are read from, when the tape was parsed.
    private let text: ContiguousArray<UInt8>
    /// The strings held whole, when the tape was laid out from a tree.
    private let heldStrings: [String]
    private let tokens: ContiguousArray<JSONToken>
    /// The coding path of the tape's first value.
    private let basePath: [any CodingKey]
    /// Whether no object holds a key twice, as in a tree, whose objects are dictionaries.
    private let keysAreUnique: Bool

    /// A tape of JSON text, whose tokens ``JSONTapeParser`` read from it.
    init(text: ContiguousArray<UInt8>, tokens: ContiguousArray<JSONToken>) {
        self.text = text
        self.tokens = tokens
        heldStrings = []
        basePath = []
        keysAreUnique = false
    }

    /// The tape of the JSON text `data`, or why Foundation's decoder must read it (see
    /// ``JSONTapeParser``).
    ///
    /// - Parameter maximumDepth: The deepest a value may nest; the document's own value is at 0.
    static func parsing(_ data: Data, maximumDepth: Int) -> JSONParseOutcome<JSONTape> {
        parsing(text: ContiguousArray(data), maximumDepth: maximumDepth)
    }

    /// The tape of the JSON text `text`, kept as the tape's own; see ``parsing(_:maximumDepth:)``.
    static func parsing(text: ContiguousArray<UInt8>, maximumDepth: Int) -> JSONParseOutcome<JSONTape> {
        JSONTapeParser.tokens(of: text, maximumDepth: maximumDepth).map { JSONTape(text: text, tokens: $0) }
    }

    /// A tape of tokens whose strings are held whole (`heldStrings`, which a `.held` token's
    /// number indexes), such as the layout of a tree, whose first value has the coding path
    /// `basePath`.
    ///
    /// - Parameter keysAreUnique: Whether no object holds a key twice, as in a tree of dictionaries.
    init(
        heldStrings: [String], tokens: ContiguousArray<JSONToken>, basePath: [any CodingKey], keysAreUnique: Bool
    ) {
        text = []
        self.tokens = tokens
        self.heldStrings = heldStrings
        self.basePath = basePath
        self.keysAreUnique = keysAreUnique
    }

    // MARK: Values

    func kind(at index: Int) -> JSONToken.Kind { tokens[index].kind }

    /// The string at `index`, a key or a value.
    func string(at index: Int) -> String {
        let token = tokens[index]
        switch token.storage {
        case .held: return heldStrings[Int(token.number)]
        case .plain:
            let text = self.text
            return Self.string(in: text.span, token.textRange, isPlain: true)
        case .escaped:
            let text = self.text
            return Self.string(in: text.span, token.textRange, isPlain: false)
        }
    }

    /// The string whose content, found valid by ``JSONTapeParser/stringEnd(_:from:)``, is
    /// `range` of `text`; `isPlain` as that function says.
    @inline(__always)
    static func string(in text: Span<UInt8>, _ range: Range<Int>, isPlain: Bool) -> String {
        guard isPlain else { return String(decoding: JSONTapeParser.unescaped(text, range), as: UTF8.self) }
        // Made from a span of bytes checked as UTF-8 at once: a fraction of the cost of
        // `String(decoding:as:)`, which repairs as it goes. Plain text is ASCII, so the check
        // cannot fail; if it did, the repairing way would still read it.
        let bytes = text.extracting(range)
        if let checked = try? UTF8Span(validating: bytes) { return String(copying: checked) }
        return String(decoding: JSONTapeParser.unescaped(text, range), as: UTF8.self)
    }

    /// Reads the bytes of the string at `index` when it is plain text: ASCII, without escapes in
    /// the parsed text; `nil` for any other string, which only ``string(at:)`` reads.
    ///
    /// Plain text is the one form whose bytes equal a name's exactly when the `String` does (of
    /// two strings that differ in their bytes, `String` finds some equal, such as `"K"` and the
    /// Kelvin sign, but never two of ASCII): so a reader can recognise a key or a type name
    /// without making a `String` of it.
    func plainText<Result>(ofStringAt index: Int, _ read: (Span<UInt8>) -> Result) -> Result? {
        let token = tokens[index]
        guard token.kind == .string else { return nil }
        switch token.storage {
        case .plain:
            let text = self.text
            return read(text.span.extracting(token.textRange))
        case .held:
            // Reading a string's bytes through a span needs the OS of 2026 on Apple's platforms;
            // before it, held strings take the general route.
            guard #available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *) else { return nil }
            let string = heldStrings[Int(token.number)]
            let bytes = string.utf8.span
            for offset in 0..<bytes.count where bytes[offset] >= 0x80 {
                return nil
            }
            return read(bytes)
        case .escaped:
            return nil
        }
    }

    /// The integer at `index`, a token of kind `integer`.
    func integer(at index: Int) -> Int64 { Int64(bitPattern: tokens[index].number) }

    /// The double at `index`, a token of kind `double`.
    func double(at index: Int) -> Double { Double(bitPattern: tokens[index].number) }

    // MARK: Containers

    /// The index of the value of the first member of the object at `index` whose key is `key`.
    ///
    /// Keys compare as `String`s do, so the member found is the one Foundation's decoder keeps,
    /// the first of equal keys. `key` must be ASCII, as every key the wire types read is: an ASCII
    /// key equals a key of plain ASCII text exactly when their bytes are equal, and is compared
    /// as a `String` with any other.
    func member(_ key: String, ofObjectAt index: Int) -> Int? {
        let keyLength = key.utf8.count
        var keyIndex = index + 1
        for _ in 0..<tokens[index].count {
            let token = tokens[keyIndex]
            if token.storage == .plain {
                if Int(token.count) == keyLength, textEquals(key, at: Int(token.start)) { return keyIndex + 1 }
            } else if string(at: keyIndex) == key {
                return keyIndex + 1
            }
            keyIndex = Int(tokens[keyIndex + 1].end)
        }
        return nil
    }

    /// Calls `visit` with the bytes of each member's key of the object at `index`, and the index
    /// of its value, in document order, and returns `true`; or stops at the first key that is not
    /// plain text (see ``plainText(ofStringAt:_:)``) and returns `false`.
    ///
    /// One pass over an object, for a reader that wants several of its members: each lookup by
    /// key (``member(_:ofObjectAt:)``) is a pass of its own.
    func forEachPlainMember(ofObjectAt index: Int, _ visit: (Span<UInt8>, Int) -> Void) -> Bool {
        let text = self.text
        let bytes = text.span
        var keyIndex = index + 1
        for _ in 0..<tokens[index].count {
            let key = tokens[keyIndex]
            let valueIndex = keyIndex + 1
            switch key.storage {
            case .plain:
                // The usual key, read in place.
                visit(bytes.extracting(key.textRange), valueIndex)
            case .held:
                guard plainText(ofStringAt: keyIndex, { visit($0, valueIndex) }) != nil else { return false }
            case .escaped:
                return false
            }
            keyIndex = Int(tokens[valueIndex].end)
        }
        return true
    }

    /// Whether the text at `start` begins with the bytes of `key`.
    private func textEquals(_ key: String, at start: Int) -> Bool {
        guard start + key.utf8.count <= text.count else { return false }
        if #available(macOS 26, iOS 26, watchOS 26, tvOS 26, visionOS 26, *) {
            // Reading a string's bytes through a span costs a tenth of stepping through its
            // UTF-8 view.
            let keyBytes = key.utf8.span
            for offset in 0..<keyBytes.count where text[start + offset] != keyBytes[offset] {
                return false
            }
            return true
        }
        return text[start...].starts(with: key.utf8)
    }

    /// How many members or elements the object or array at `index` has.
    func count(ofContainerAt index: Int) -> Int { Int(tokens[index].count) }

    /// The members of the object at `index`, each made by `make` from its key and the index of
    /// its value: the first of each key, as `String`s compare, in the order of the keys' UTF-8
    /// bytes.
    func members<Member>(ofObjectAt index: Int, _ make: (String, Int) -> Member) -> [Member] {
        var members: [Member] = []
        members.reserveCapacity(Int(tokens[index].count))
        forEachMember(ofObjectAt: index) { members.append(make($0, $1)) }
        return members
    }

    /// Calls `visit` with the key of each member of the object at `index` and the index of its
    /// value: the first of each key, as `String`s compare, in the order of the keys' UTF-8 bytes.
    func forEachMember(ofObjectAt index: Int, _ visit: (String, Int) throws -> Void) rethrows {
        guard keysAreInOrder(ofObjectAt: index) else {
            for member in sortedMembers(ofObjectAt: index) { try visit(member.key, member.value) }
            return
        }
        var keyIndex = index + 1
        for _ in 0..<tokens[index].count {
            try visit(string(at: keyIndex), keyIndex + 1)
            keyIndex = Int(tokens[keyIndex + 1].end)
        }
    }

    /// Whether the keys of the object at `index` are plain text, each after the one before by
    /// their bytes, as JSONEncoder with sorted keys and this package write them: then they are in
    /// order and none is there twice, which costs less to find out than sorting them.
    private func keysAreInOrder(ofObjectAt index: Int) -> Bool {
        var previous: Range<Int> = 0..<0
        var keyIndex = index + 1
        for position in 0..<tokens[index].count {
            let key = tokens[keyIndex]
            guard key.storage == .plain, position == 0 || textPrecedes(previous, key.textRange) else { return false }
            previous = key.textRange
            keyIndex = Int(tokens[keyIndex + 1].end)
        }
        return true
    }

    /// The members of an object whose keys are not in order, or not plain: each key the first
    /// time, as `String`s compare, sorted by their UTF-8 bytes.
    private func sortedMembers(ofObjectAt index: Int) -> [JSONKeyOrder.Member<Int>] {
        var members: [(key: String, value: Int)] = []
        var keyIndex = index + 1
        for _ in 0..<tokens[index].count {
            members.append((string(at: keyIndex), keyIndex + 1))
            keyIndex = Int(tokens[keyIndex + 1].end)
        }
        if !keysAreUnique {
            var seen = Set<String>()
            members.removeAll { !seen.insert($0.key).inserted }
        }
        return JSONKeyOrder.sorted(members)
    }

    /// Whether the text at `first` comes before the text at `second`, byte by byte.
    private func textPrecedes(_ first: Range<Int>, _ second: Range<Int>) -> Bool {
        let text = self.text
        let bytes = text.span
        for offset in 0..<min(first.count, second.count) {
            let firstByte = bytes[first.lowerBound + offset]
            let secondByte = bytes[second.lowerBound + offset]
            if firstByte != secondByte { return firstByte < secondByte }
        }
        return first.count < second.count
    }

    /// The elements of the array at `index`, each made by `make` from its index.
    func elements<Element>(ofArrayAt index: Int, _ make: (Int) throws -> Element) rethrows -> [Element] {
        let count = Int(tokens[index].count)
        var elements: [Element] = []
        elements.reserveCapacity(count)
        var element = index + 1
        for _ in 0..<count {
            elements.append(try make(element))
            element = Int(tokens[element].end)
        }
        return elements
    }

    // MARK: Paths

    /// The coding path of the value at `index`: the keys and element indices that lead to it.
    /// Worked out from ``places``, so that it costs the value's depth, however many values come
    /// before it: a page of a thousand unreadable records reports each at its own path in time that
    /// grows with the page, not with its square.
    func path(of index: Int) -> [any CodingKey] {
        var reversed: [any CodingKey] = []
        var value = index
        while value > 0, value < places.count {
            let place = places[value]
            let container = Int(place.container)
            reversed.append(
                tokens[container].kind == .object
                    ? AnyCodingKey(stringValue: string(at: Int(place.position)))
                    : AnyCodingKey(index: Int(place.position)))
            value = container
        }
        return basePath + reversed.reversed()
    }

    /// Where each value is: the index of its container's token, and its place in it, the index of
    /// its key's token in an object or its position in an array. Worked out, in one walk over the
    /// tape, the first time an error needs a path; a tape that reads without error never has it.
    /// (The first value is in no container; keys have their values' places.)
    private lazy var places: ContiguousArray<(container: Int32, position: Int32)> = {
        var places = ContiguousArray(repeating: (container: Int32(0), position: Int32(0)), count: tokens.count)
        for container in tokens.indices where tokens[container].kind == .object || tokens[container].kind == .array {
            let isObject = tokens[container].kind == .object
            let count = Int(tokens[container].count)
            var child = container + 1
            for position in 0..<count {
                if isObject {
                    // The key, then its value.
                    places[child] = (Int32(truncatingIfNeeded: container), Int32(truncatingIfNeeded: child))
                    child += 1
                }
                places[child] = (
                    Int32(truncatingIfNeeded: container),
                    Int32(truncatingIfNeeded: isObject ? child - 1 : position)
                )
                child = Int(tokens[child].end)
            }
        }
        return places
    }()
}

/// One value or key of a ``JSONTape``.
struct JSONToken {
    enum Kind: UInt8 {
        case object, array, string, integer, double, `true`, `false`, null
    }

    /// Where a string's characters are.
    enum Storage: UInt8 {
        /// In the text, as plain ASCII: its bytes are its characters.
        case plain
        /// In the text, as UTF-8 with escapes or other than ASCII.
        case escaped
        /// In the tape's held strings, at `number`.
        case held
    }

    var kind: Kind
    var storage = Storage.plain
    /// The index of the token after this value and everything in it.
    var end: Int32 = 0
    /// What the value holds, read as its kind says: ``start`` and ``count``, or ``number`` as the
    /// two together. Two halves rather than three fields, so that a token takes 16 bytes: a page of
    /// thousands of records is a tape of millions of tokens, read faster the fewer caches it fills.
    private var low: UInt32 = 0
    private var high: UInt32 = 0

    init(kind: Kind) {
        self.kind = kind
    }

    /// For a string in the text, the offset of its first byte after the quote.
    var start: Int32 {
        get { Int32(bitPattern: low) }
        set { low = UInt32(bitPattern: newValue) }
    }

    /// For a string in the text, its length in bytes; for an object, its members; for an array,
    /// its elements.
    var count: Int32 {
        get { Int32(bitPattern: high) }
        set { high = UInt32(bitPattern: newValue) }
    }

    /// For a number, the bits of its `Int64` or `Double`; for a held string, its index.
    var number: UInt64 {
        get { UInt64(high) << 32 | UInt64(low) }
        set {
            low = UInt32(truncatingIfNeeded: newValue)
            high = UInt32(truncatingIfNeeded: newValue >> 32)
        }
    }

    /// The bytes of a string in the text.
    var textRange: Range<Int> { Int(start)..<Int(start) + Int(count) }
}
