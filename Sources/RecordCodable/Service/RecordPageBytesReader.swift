import Foundation

/// A response body that holds a page of records, such as ``RecordsQueryResponse``, which
/// ``RecordJSONDecoder`` first tries to read straight from its bytes, each record as
/// ``RecordBytesReader`` reads a record alone.
protocol RecordPageBody: StraightReadable {
    /// The members, besides `records`, that the body reads; a body with any other member is read
    /// the general way.
    static var pageKeys: Set<RecordPageBytesReader.PageKey> { get }

    /// The body of the page read straight from its bytes.
    init(page: RecordPageBytesReader.Page)
}

extension RecordPageBody {
    static func straight(from data: Data) -> Self? {
        RecordPageBytesReader.page(from: data, keys: pageKeys).map(Self.init(page:))
    }
}

/// Reads a response body that holds a page of records — `{"records":[…],"continuationMarker":"…"}`
/// and the like — straight from its bytes in one pass, each record as ``RecordBytesReader`` reads a
/// record alone, when every part of it is of that shape; otherwise it says so, and
/// ``RecordJSONDecoder`` reads the whole document the general way, from its start.
///
/// Like ``RecordBytesReader``, it decides only how a page is read, never what: it takes a body only
/// when each entry of `records` is a record that reader reads, so an entry that is a server's
/// error, or a record that the general way would keep as unreadable, sends the whole body to the
/// general way, which gives each entry's result as it always has.
enum RecordPageBytesReader {
    private typealias Reader = RecordBytesReader
    private typealias Bytes = RecordBytesReader.Bytes

    /// A member of a page's body that ``page(from:keys:)`` reads.
    enum PageKey: Hashable {
        case continuationMarker, syncToken, moreComing, zoneID
    }

    /// A page's members, as read straight from its bytes: each `nil` when the body does not have it.
    struct Page {
        /// Every entry of `records`, each a record: a body with anything else is the general way's.
        var records: [RecordResult] = []
        var continuationMarker: String?
        var syncToken: String?
        var moreComing: Bool?
        var zoneID: RecordZoneID?
    }

    /// The page that `data` holds, each record read as ``RecordBytesReader/record(_:_:)`` reads a
    /// record alone; `nil` for the general way to read the document from its start: for a member
    /// other than `records` and `keys`, a key given twice, `null`, an entry that is not a record
    /// of the shape that reader reads (a server's error for one record among them), an empty body,
    /// and any text that is not JSON. Then the general way gives the values, and each entry's
    /// result or error, exactly as it would have; what this reader reads, that way reads the same.
    static func page(from data: Data, keys: Set<PageKey>) -> Page? {
        let bytes = data.span
        var index = 0
        guard let page = page(bytes, &index, keys: keys),
            JSONTapeParser.skipWhitespace(bytes, from: index) == bytes.count
        else { return nil }
        return page
    }

    /// The page object at `index`, read up to its closing brace, as ``page(from:keys:)`` reads a
    /// document.
    private static func page(_ bytes: Bytes, _ index: inout Int, keys: Set<PageKey>) -> Page? {
        var page = Page()
        var hasRecords = false
        let read = Reader.readMembers(bytes, &index) { bytes, key, index in
            let name = bytes.extracting(key)
            if name.isText("records") {
                guard !hasRecords else { return false }
                hasRecords = true
                return records(bytes, &index, into: &page.records)
            }
            if name.isText("continuationMarker") {
                return keys.contains(.continuationMarker)
                    && Reader.fill(&page.continuationMarker, with: Reader.string(bytes, &index))
            }
            if name.isText("syncToken") {
                return keys.contains(.syncToken) && Reader.fill(&page.syncToken, with: Reader.string(bytes, &index))
            }
            if name.isText("moreComing") {
                return keys.contains(.moreComing) && Reader.fill(&page.moreComing, with: Reader.bool(bytes, &index))
            }
            return name.isText("zoneID") && keys.contains(.zoneID)
                && Reader.fill(&page.zoneID, with: Reader.zoneID(bytes, &index))
        }
        return read ? page : nil
    }

    /// The pages of a `zones/changes` body, `{"zones":[…]}`, each zone's read as
    /// ``page(_:_:keys:)`` reads a records-changes body; `nil` for the general way to read the
    /// document, as for a page: a zone's error among them, or anything ``page(from:keys:)`` leaves.
    static func zonePages(from data: Data, keys: Set<PageKey>) -> [Page]? {
        let bytes = data.span
        var index = 0
        var pages: [Page]?
        let read = Reader.readMembers(bytes, &index) { bytes, key, index in
            guard bytes.extracting(key).isText("zones"), pages == nil else { return false }
            pages = zones(bytes, &index, keys: keys)
            return pages != nil
        }
        guard read, JSONTapeParser.skipWhitespace(bytes, from: index) == bytes.count else { return nil }
        return pages
    }

    /// The pages of the array of zones at `index`.
    private static func zones(_ bytes: Bytes, _ index: inout Int, keys: Set<PageKey>) -> [Page]? {
        guard Reader.consume(UInt8(ascii: "["), bytes, &index) else { return nil }
        var pages: [Page] = []
        if Reader.closes(UInt8(ascii: "]"), bytes, &index) { return pages }
        repeat {
            guard let page = page(bytes, &index, keys: keys) else { return nil }
            pages.append(page)
            guard let more = Reader.readsOn(bytes, &index, before: UInt8(ascii: "]")) else { return nil }
            if !more { return pages }
        } while true
    }

    /// The most records room is made for before they are read: a page of CloudKit's holds at
    /// most a few hundred.
    private static let maximumReserved = 1_024

    /// Appends to `records` each record of the array at `index`; `false` when an entry does not
    /// read as a record alone does.
    private static func records(_ bytes: Bytes, _ index: inout Int, into records: inout [RecordResult]) -> Bool {
        guard Reader.consume(UInt8(ascii: "["), bytes, &index) else { return false }
        if Reader.closes(UInt8(ascii: "]"), bytes, &index) { return true }
        // The records of a page most often have one type and name the same fields in the same
        // order: each shares the names of the one before while they match.
        var precedent = Reader.Precedent(follows: true)
        repeat {
            let start = index
            guard let record = Reader.record(bytes, &index, after: &precedent) else { return false }
            if records.isEmpty {
                // Room at once for as many records as the rest of the bytes hold at the first's
                // length, up to a bound that no short first record can stretch: growing by
                // doubling copies the records read so far each time.
                let estimate = (bytes.count - index) / max(index - start, 1)
                records.reserveCapacity(1 + min(estimate, maximumReserved))
            }
            records.append(.success(record))
            guard let more = Reader.readsOn(bytes, &index, before: UInt8(ascii: "]")) else { return false }
            if !more { return true }
        } while true
    }
}
