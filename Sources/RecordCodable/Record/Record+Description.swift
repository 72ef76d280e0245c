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
            guard date.timeIntervalSinceReferenceDate.isFinite else { return "date \(date.timeIntervalSince1970)" }
            // The formatter cuts the milliseconds off rather than rounding them: half of one more
            // makes the cut a rounding, so that 0.123, held as 0.12299…, shows as .123.
            return Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date.addingTimeInterval(0.000_5))
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
