import Foundation

extension Record: CustomStringConvertible {
    /// The record as a person reads it: its type and name, then one field per line in name order,
    /// each value short.
    ///
    /// ```text
    /// Note "N1" (change tag e1, zone Notes)
    ///   due: 2023-11-14T22:13:20.123Z
    ///   tags: ["home", "weekly"]
    ///   title: "Groceries"
    ///   encrypted: title
    /// ```
    ///
    /// `dump(record)` shows every part in full.
    public var description: String {
        var facts: [String] = []
        if let metadata {
            if let changeTag = metadata.changeTag { facts.append("change tag \(changeTag)") }
            if let zoneID = metadata.zoneID { facts.append("zone \(zoneID.zoneName)") }
            if metadata.deleted { facts.append("deleted") }
        }
        let name = recordName.isEmpty ? "(unnamed)" : "\"\(recordName)\""
        var lines = ["\(recordType.isEmpty ? "Record" : recordType) \(name)"]
        if !facts.isEmpty { lines[0] += " (\(facts.joined(separator: ", ")))" }
        for (field, value) in fields.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(field): \(value)")
        }
        if let parent { lines.append("  parent: \(RecordValue.reference(parent))") }
        if !encryptedFields.isEmpty { lines.append("  encrypted: \(encryptedFields.sorted().joined(separator: ", "))") }
        if !clearedFields.isEmpty { lines.append("  cleared: \(clearedFields.sorted().joined(separator: ", "))") }
        return lines.joined(separator: "\n")
    }
}

extension RecordValue: CustomStringConvertible {
    /// The value, short: text quoted and cut after 60 characters, numbers as they are, dates in
    /// ISO 8601 with milliseconds, bytes by their count, a reference by the name it points to, a
    /// list's first elements.
    public var description: String {
        switch self {
        case .string(let string):
            let shown = string.count > 60 ? string.prefix(60) + "…" : Substring(string)
            return "\"\(shown)\""
        case .int64(let number):
            return String(number)
        case .double(let number):
            return String(number)
        case .bytes(let data):
            return data.count == 1 ? "1 byte" : "\(data.count) bytes"
        case .date(let date):
            return Self.iso8601(date)
        case .asset(let asset):
            let what = asset.fileURL?.lastPathComponent ?? asset.fileChecksum ?? asset.downloadURL ?? "empty"
            return "asset \(what)" + (asset.size.map { " (\($0) bytes)" } ?? "")
        case .reference(let reference):
            let action = reference.action == .none ? "" : " (\(reference.action.rawValue))"
            return "→ \(reference.recordName)\(action)"
        case .location(let location):
            return "(\(location.latitude), \(location.longitude))"
        case .list(let elements):
            let shown = elements.prefix(5).map(\.description).joined(separator: ", ")
            let more = elements.count > 5 ? ", … \(elements.count - 5) more" : ""
            return "[\(shown)\(more)]"
        }
    }
}

extension RecordValue {
    /// A date as ISO 8601 writes it, to the millisecond, in the Gregorian calendar throughout (as
    /// the standard counts years before 1582, where Foundation's calendars turn Julian). ISO 8601
    /// names the years 1 to 9999 only: beyond, the date shows as seconds from 1970.
    fileprivate static func iso8601(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        // Rounded first, so that a date a hair before 10000 is not shown as that year.
        let milliseconds = (seconds * 1000).rounded()
        guard milliseconds >= -62_135_596_800_000, milliseconds < 253_402_300_800_000 else {
            return "date \(seconds) s from 1970"
        }
        // Within those bounds, no arithmetic below can overflow.
        let total = Int64(milliseconds)
        let dayLength: Int64 = 86_400_000
        let days = total >= 0 ? total / dayLength : (total - dayLength + 1) / dayLength
        let time = total - days * dayLength
        // Days since 1970 to a Gregorian date (after Howard Hinnant's civil-from-days).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func padded(_ number: Int64, _ width: Int) -> String {
            let digits = String(number)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T\(padded(time / 3_600_000, 2)):"
            + "\(padded(time / 60_000 % 60, 2)):\(padded(time / 1000 % 60, 2)).\(padded(time % 1000, 3))Z"
    }
}
