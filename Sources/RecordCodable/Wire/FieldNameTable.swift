import Foundation

/// The field names ``RecordBytesReader`` has made, kept so that a name read again, in the next
/// record of the same model, is found rather than made again.
///
/// Records of one model name the same fields record after record, and making a `String` of a name
/// (checking its bytes, then copying them) costs a few hundred instructions, a twentieth of a
/// flat record's read. A name kept here is found by its bytes alone: a name of up to 16 bytes of
/// plain text (ASCII without escapes, whose bytes equal another's exactly when the strings do) is
/// two words of bytes and a length, compared at once.
///
/// Rules:
/// - The table is a fixed number of places, each found from a name's words by a multiplicative
///   hash. A place, once taken, keeps its name for the program's life: a name whose place another
///   holds is made each time, as it was before this table. So the table never grows, never
///   churns, and what it holds depends only on the names read first.
/// - A reader takes the table's current contents at most once per record, at its first look-up
///   (``contents``: a reference to an array, copied under the lock), looks names up without the
///   lock, and gives back the names it made (``keep(_:)``), which fill only places still empty.
final class FieldNameTable: @unchecked Sendable {
    /// A kept name: its bytes as two words (the first byte lowest, zeros past its end), its length
    /// and the string.
    struct Entry {
        let head: UInt64
        let tail: UInt64
        let count: Int
        let name: String
    }

    /// The table every reader shares.
    static let shared = FieldNameTable()

    /// An empty table; readers share ``shared``.
    init() {}

    /// How many places the table has: a power of two, for the hash's shift.
    static let capacity = 256

    private let lock = NSLock()
    // Only touched while `lock` is held, which already keeps accesses from overlapping: the
    // run-time exclusivity checks are turned off.
    @exclusivity(unchecked) private var places = [Entry?](repeating: nil, count: FieldNameTable.capacity)

    /// The table as it is now, to look names up in without the lock.
    var contents: [Entry?] {
        lock.lock()
        defer { lock.unlock() }
        return places
    }

    /// Keeps `made` in their places, each where no name is yet.
    func keep(_ made: [Entry]) {
        lock.lock()
        defer { lock.unlock() }
        for entry in made {
            let place = Self.place(head: entry.head, tail: entry.tail)
            if places[place] == nil { places[place] = entry }
        }
    }

    /// The place of the name whose words are `head` and `tail`.
    @inline(__always)
    static func place(head: UInt64, tail: UInt64) -> Int {
        // Fibonacci hashing of the two words mixed: the top bits of the product.
        Int(truncatingIfNeeded: ((head &+ tail &* 0x9E37_79B9_7F4A_7C15) &* 0x9E37_79B9_7F4A_7C15) >> 56)
    }
}

/// One record's look-ups in the ``FieldNameTable``: the table as it was when the record first
/// looked a name up there, and the names made for it that the table had no place taken for, given
/// back at the end. A record whose type and field names all come from records read before it in
/// its page (see ``ReadFields/List``) never takes the table's lock.
struct FieldNameLookup {
    private let table: FieldNameTable
    private var contents: [FieldNameTable.Entry?]?
    private var made: [FieldNameTable.Entry] = []

    init(table: FieldNameTable = .shared) {
        self.table = table
    }

    /// The name whose plain text is `range` of `bytes`: the kept one, or one made now.
    @inline(__always)
    mutating func name(_ bytes: Span<UInt8>, _ range: Range<Int>) -> String {
        guard let (head, tail) = ByteScan.words(bytes, range) else {
            return JSONTape.string(in: bytes, range, isPlain: true)
        }
        let place = FieldNameTable.place(head: head, tail: tail)
        let contents = self.contents ?? table.contents
        self.contents = contents
        if let kept = contents[place] {
            if kept.head == head, kept.tail == tail, kept.count == range.count { return kept.name }
            return JSONTape.string(in: bytes, range, isPlain: true)
        }
        let name = JSONTape.string(in: bytes, range, isPlain: true)
        made.append(FieldNameTable.Entry(head: head, tail: tail, count: range.count, name: name))
        return name
    }

    /// Gives the names made for this record to the table.
    func finish() {
        guard !made.isEmpty else { return }
        table.keep(made)
    }
}
