import Foundation
import RecordCodable

/// What a device knows about a record that CloudKit's JSON leaves out, kept beside the JSON so
/// that a record reads back exactly as it was saved.
///
/// - A local asset's file: CloudKit's JSON carries an asset's checksum and download address,
///   never the file on this device.
/// - Dates beyond the millisecond: CloudKit's JSON counts whole milliseconds, so `Date()` would
///   read back a fraction of a millisecond off, and a model would not equal itself.
///
/// Each fact names its place: the field, and the element's index when the field is a list. Most
/// records have none, and cost eight bytes.
struct LocalFacts: Hashable {
    /// Where a fact belongs: a field, or an element of a list field.
    struct Place: Hashable {
        var field: String
        var element: Int?
    }

    /// The file URLs of local assets.
    var assetFiles: [Place: URL] = [:]

    /// The exact dates that CloudKit's JSON would round: a date value, or a location's
    /// timestamp.
    var exactDates: [Place: Date] = [:]

    init() {}

    /// What `record` holds that its JSON leaves out.
    init(of record: Record) {
        for (name, value) in record.fields {
            switch value {
            case .asset, .date, .location:
                note(value, at: Place(field: name, element: nil))
            case .list(let elements):
                guard let first = elements.first, first.mayHoldFacts else { continue }
                for (index, element) in elements.enumerated() {
                    note(element, at: Place(field: name, element: index))
                }
            default:
                break
            }
        }
    }

    private mutating func note(_ value: RecordValue, at place: Place) {
        switch value {
        case .asset(let asset):
            if let url = asset.fileURL { assetFiles[place] = url }
        case .date(let date):
            if !Self.survivesJSON(date) { exactDates[place] = date }
        case .location(let location):
            if let date = location.timestamp, !Self.survivesJSON(date) { exactDates[place] = date }
        default:
            break
        }
    }

    /// Whether CloudKit's JSON gives `date` back exactly: whole milliseconds since 1970,
    /// rounded to the nearest, read back as `Double(ms) / 1000`.
    static func survivesJSON(_ date: Date) -> Bool {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        return Date(timeIntervalSince1970: milliseconds / 1000) == date
    }

    var isEmpty: Bool { assetFiles.isEmpty && exactDates.isEmpty }

    /// `record`, as read from its JSON, with these facts put back.
    func restore(into record: inout Record) {
        // Taking the fields inout, even to change nothing, would turn a record read from JSON,
        // whose fields are kept as read, into a dictionary.
        guard !isEmpty else { return }
        restore(into: &record.fields)
    }

    /// Fields read from a record's JSON, some or all of them, with the facts of those fields put
    /// back.
    func restore(into fields: inout [String: RecordValue]) {
        guard !isEmpty else { return }
        for (place, url) in assetFiles {
            fields.change(at: place) { value in
                guard case .asset(var asset) = value else { return }
                asset.fileURL = url
                value = .asset(asset)
            }
        }
        for (place, date) in exactDates {
            fields.change(at: place) { value in
                switch value {
                case .date: value = .date(date)
                case .location(var location):
                    location.timestamp = date
                    value = .location(location)
                default: break
                }
            }
        }
    }

    // MARK: Bytes

    func write(to writer: inout ByteWriter) {
        writer.append(UInt32(truncatingIfNeeded: assetFiles.count))
        for (place, url) in assetFiles {
            Self.write(place, to: &writer)
            writer.appendString(Self.text(of: url))
        }
        writer.append(UInt32(truncatingIfNeeded: exactDates.count))
        for (place, date) in exactDates {
            Self.write(place, to: &writer)
            writer.append(date.timeIntervalSinceReferenceDate.bitPattern)
        }
    }

    init(from reader: inout ByteReader) throws {
        for _ in 0..<(try reader.uint32()) {
            let place = try Self.place(from: &reader)
            assetFiles[place] = try Self.url(from: reader.string())
        }
        for _ in 0..<(try reader.uint32()) {
            let place = try Self.place(from: &reader)
            exactDates[place] = Date(timeIntervalSinceReferenceDate: Double(bitPattern: try reader.uint64()))
        }
    }

    /// A file URL as text: its own text, and, for a URL relative to another (a path made into a
    /// URL without a leading `/` has the working directory as its base), a NUL — which no URL's
    /// text holds — and the base's, so that the URL reads back equal to itself.
    private static func text(of url: URL) -> String {
        guard let base = url.baseURL else { return url.absoluteString }
        return url.relativeString + "\0" + base.absoluteString
    }

    private static func url(from text: String) throws -> URL {
        let parts = text.split(separator: "\0", maxSplits: 1, omittingEmptySubsequences: false)
        let base = parts.count == 2 ? URL(string: String(parts[1])) : nil
        guard parts.count == 1 || base != nil, let url = URL(string: String(parts[0]), relativeTo: base) else {
            throw ByteReader.Malformed(description: "a file URL is not a URL")
        }
        return url
    }

    private static func write(_ place: Place, to writer: inout ByteWriter) {
        writer.appendString(place.field)
        // 0 for the field itself, else the element's index plus one.
        writer.append(UInt32(truncatingIfNeeded: place.element.map { $0 + 1 } ?? 0))
    }

    private static func place(from reader: inout ByteReader) throws -> Place {
        let field = try reader.string()
        let element = try reader.uint32()
        return Place(field: field, element: element == 0 ? nil : Int(element) - 1)
    }
}

extension RecordValue {
    /// Whether a list of values like this one may hold local facts: assets, dates, locations.
    fileprivate var mayHoldFacts: Bool {
        switch self {
        case .asset, .date, .location: true
        default: false
        }
    }
}

extension [String: RecordValue] {
    /// Changes the value at `place`, if there is one.
    fileprivate mutating func change(at place: LocalFacts.Place, _ body: (inout RecordValue) -> Void) {
        guard var value = self[place.field] else { return }
        if let index = place.element {
            guard case .list(var elements) = value, elements.indices.contains(index) else { return }
            body(&elements[index])
            value = .list(elements)
        } else {
            body(&value)
        }
        self[place.field] = value
    }
}
