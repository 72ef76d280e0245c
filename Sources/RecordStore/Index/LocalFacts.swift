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
/// Most records have neither, and cost one byte each.
struct LocalFacts: Hashable {
    /// A file URL of an asset: the field, the element's index in a list or `nil`, the URL.
    struct AssetFile: Hashable {
        var field: String
        var element: Int?
        var url: URL
    }

    var assetFiles: [AssetFile] = []
    /// Every date of the record, in ``DateWalk`` order, when one of them has digits that its
    /// JSON loses; empty otherwise.
    var exactDates: [Date] = []

    /// What `record` holds that its JSON leaves out.
    init(of record: Record) {
        let dates = DateWalk.dates(in: record)
        exactDates = dates.allSatisfy(DateWalk.survivesJSON) ? [] : dates
        for (name, value) in record.fields {
            switch value {
            case .asset(let asset):
                if let url = asset.fileURL { assetFiles.append(AssetFile(field: name, element: nil, url: url)) }
            case .list(let elements):
                for (index, element) in elements.enumerated() {
                    if case .asset(let asset) = element, let url = asset.fileURL {
                        assetFiles.append(AssetFile(field: name, element: index, url: url))
                    }
                }
            default:
                break
            }
        }
    }

    init() {}

    var isEmpty: Bool { assetFiles.isEmpty && exactDates.isEmpty }

    /// `record`, as read from its JSON, with these facts put back.
    func restore(into record: inout Record) {
        for file in assetFiles {
            switch (record.fields[file.field], file.element) {
            case (.asset(var asset), nil):
                asset.fileURL = file.url
                record.fields[file.field] = .asset(asset)
            case (.list(var elements), let index?) where elements.indices.contains(index):
                if case .asset(var asset) = elements[index] {
                    asset.fileURL = file.url
                    elements[index] = .asset(asset)
                    record.fields[file.field] = .list(elements)
                }
            default:
                break
            }
        }
        guard !exactDates.isEmpty else { return }
        var next = exactDates.makeIterator()
        DateWalk.visit(&record) { date in next.next() ?? date }
    }

    // MARK: Bytes

    func write(to writer: inout ByteWriter) {
        writer.append(UInt32(truncatingIfNeeded: assetFiles.count))
        for file in assetFiles {
            writer.appendString(file.field)
            writer.append(UInt32(truncatingIfNeeded: file.element.map { $0 + 1 } ?? 0))
            writer.appendString(file.url.absoluteString)
        }
        writer.append(UInt32(truncatingIfNeeded: exactDates.count))
        for date in exactDates {
            writer.append(date.timeIntervalSinceReferenceDate.bitPattern)
        }
    }

    init(from reader: inout ByteReader) throws {
        let fileCount = try reader.uint32()
        for _ in 0..<fileCount {
            let field = try reader.string()
            let element = try reader.uint32()
            let text = try reader.string()
            guard let url = URL(string: text) else {
                throw ByteReader.Malformed(description: "a file URL is not a URL")
            }
            assetFiles.append(AssetFile(field: field, element: element == 0 ? nil : Int(element) - 1, url: url))
        }
        let dateCount = try reader.uint32()
        guard Int(dateCount) <= reader.remaining / 8 else {
            throw ByteReader.Malformed(description: "more dates than bytes")
        }
        exactDates.reserveCapacity(Int(dateCount))
        for _ in 0..<dateCount {
            exactDates.append(Date(timeIntervalSinceReferenceDate: Double(bitPattern: try reader.uint64())))
        }
    }
}

/// Visits every date of a record's fields — dates, locations' timestamps, in lists too — in one
/// fixed order (fields by name), so that dates read back are matched with the dates written.
enum DateWalk {
    /// The record's dates, in order.
    static func dates(in record: Record) -> [Date] {
        guard record.fields.values.contains(where: \.holdsDates) else { return [] }
        var dates: [Date] = []
        func collect(_ value: RecordValue) {
            switch value {
            case .date(let date): dates.append(date)
            case .location(let location): if let timestamp = location.timestamp { dates.append(timestamp) }
            case .list(let elements): elements.forEach(collect)
            default: break
            }
        }
        for name in record.fields.keys.sorted() {
            if let value = record.fields[name], value.holdsDates { collect(value) }
        }
        return dates
    }

    /// Replaces each date with what `replace` returns for it, in order.
    static func visit(_ record: inout Record, _ replace: (Date) -> Date) {
        for name in record.fields.keys.sorted() {
            guard let value = record.fields[name], value.holdsDates else { continue }
            record.fields[name] = replacingDates(in: value, replace)
        }
    }

    private static func replacingDates(in value: RecordValue, _ replace: (Date) -> Date) -> RecordValue {
        switch value {
        case .date(let date):
            return .date(replace(date))
        case .location(var location):
            location.timestamp = location.timestamp.map(replace)
            return .location(location)
        case .list(let elements):
            return .list(elements.map { replacingDates(in: $0, replace) })
        default:
            return value
        }
    }

    /// Whether CloudKit's JSON gives `date` back exactly: whole milliseconds since 1970,
    /// rounded to the nearest, read back as `Double(ms) / 1000`.
    static func survivesJSON(_ date: Date) -> Bool {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        return Date(timeIntervalSince1970: milliseconds / 1000) == date
    }
}

extension RecordValue {
    /// Whether the value is or holds a date.
    fileprivate var holdsDates: Bool {
        switch self {
        case .date: true
        case .location(let location): location.timestamp != nil
        case .list(let elements):
            // Lists are of one kind: only lists of dates and of locations can hold dates.
            switch elements.first {
            case .date: true
            case .location: elements.contains(where: \.holdsDates)
            default: false
            }
        default: false
        }
    }
}
