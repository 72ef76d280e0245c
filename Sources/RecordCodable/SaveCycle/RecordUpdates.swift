import Foundation

extension RecordEncoder {
    /// Encodes an edited model as an update of the record it was decoded from: a record that
    /// holds only what the edit changed.
    ///
    /// The update carries the fields whose value differs from what the model, as decoded from
    /// `original`, would write, and names in ``Record/clearedFields`` each field that the model no
    /// longer writes — a property set to `nil`, a list emptied into `nil`. Its name, type and
    /// metadata (the change tag the server checks) are the original's. Saved with
    /// ``RecordOperation/init(saving:)``, it is an `update` that changes those fields and leaves
    /// every other field of the server's record as it is:
    ///
    /// ```swift
    /// var note = try RecordDecoder().decode(Note.self, from: fetched)
    /// note.title = "Renamed"
    /// note.dueDate = nil
    /// let update = try RecordEncoder().encode(note, updating: fetched)
    /// // update.fields == ["title": .string("Renamed")], update.clearedFields == ["dueDate"]
    /// let body = try JSONEncoder().encode(RecordsModifyRequest(savingRecords: [update]))
    /// ```
    ///
    /// So what the model cannot represent stays on the server untouched: a field the model does
    /// not know (added by a newer version of the app), an enum value newer than the model that it
    /// read as its ``RecordEnum/fallbackCase``, a server asset that a `URL` property holds as its
    /// download address, the sub-millisecond digits of a `Date` that the server never had. In a
    /// changed list, each element the edit left as the model read it is sent as the server has
    /// it, so such values stay when another element changes. A field that the original lacks
    /// because it was fetched with `desiredKeys` is not cleared.
    ///
    /// An edit that changes nothing gives an update with no fields and nothing cleared; skip
    /// saving it:
    ///
    /// ```swift
    /// if update.fields.isEmpty && update.clearedFields.isEmpty { return }
    /// ```
    ///
    /// An optional ``LinkedRecord`` property reads the original without the record it links to,
    /// as `nil`. While the edited model still links to the same record, the field is no change,
    /// and the server's reference (its action, its zone) stays as it is; a link to another record
    /// is sent. A model that links to nothing there is an error: it may have been decoded without
    /// the linked record, or had its link removed, and only
    /// ``encodeGraph(_:updating:linkedOriginals:)``, given the records the model was decoded with,
    /// can tell which.
    ///
    /// - Parameters:
    ///   - value: The edited model.
    ///   - original: The record the model was decoded from, as the server sent it.
    /// - Returns: The update: the original's name, type and metadata, the changed fields, and the
    ///   cleared ones.
    /// - Throws: What ``encode(_:)`` throws; `EncodingError.invalidValue` when `original` is the
    ///   server's report of its deletion (`deleted`; encode the model whole to create it anew),
    ///   when the model cannot read `original` (its `DecodingError` is the underlying error), when
    ///   the model's identifier names another record; at the field, when it writes no
    ///   link where the original links to a record it was not given (see above), or anything but
    ///   assets where the original holds assets, such as a web address (which the server refuses).
    public func encode<T: Codable>(_ value: T, updating original: Record) throws -> Record {
        let edited = try encode(value)
        let graph = GraphDecoding(records: LinkedRecordSet([]))
        let baseline = try encode(readBack(type(of: value), from: original, in: graph))
        return try RecordUpdate(original: original, baseline: baseline, graph: graph).update(to: edited, of: value)
    }

    /// Encodes an edited model and the models it links to as updates of the records they were
    /// decoded from.
    ///
    /// Each record of the graph (see ``encodeGraph(_:)``) is compared with its own original, as
    /// ``encode(_:updating:)`` compares one: a record whose original is among `original` and
    /// `linkedOriginals` becomes an update of the fields that changed, and a record of a model
    /// the edit added, which has none, is the whole new record. A model the edit newly links to
    /// that the server already has — its record is among `linkedOriginals`, but the original
    /// model did not link to it — is an update of every field it writes, with that record's
    /// change tag.
    ///
    /// ```swift
    /// var post = try RecordDecoder().decode(Post.self, from: postRecord, linkedRecords: fetched)
    /// post.author.name = "Mei Chen"
    /// let records = try RecordEncoder().encodeGraph(post, updating: postRecord, linkedOriginals: fetched)
    /// ```
    ///
    /// - Parameters:
    ///   - value: The edited model.
    ///   - original: The model's own record, as the server sent it.
    ///   - linkedOriginals: The records of the models it links to, as the server sent them.
    /// - Returns: The model's update first, then one record for each model it links to.
    /// - Throws: What ``encode(_:updating:)`` throws, for the model or any model it links to.
    public func encodeGraph<T: Codable>(
        _ value: T, updating original: Record, linkedOriginals: some Sequence<Record>
    ) throws -> [Record] {
        try encodeGraph(value, updating: original, linkedOriginals: linkedOriginals, keepingUnreadLinks: false)
    }

    /// ``encodeGraph(_:updating:linkedOriginals:)`` for a caller that read the model with no more
    /// linked records than `linkedOriginals` (RecordStore, whose reader finds the same records):
    /// a link of an original whose record is not among them, which the model read as `nil` too,
    /// is left as the server has it when the model writes none, instead of an error.
    ///
    /// `linkedOriginalsNamed`, when given, is asked by name, as the original model reads its links,
    /// for the records that `linkedOriginals` lacks, so that a caller need not gather first every
    /// record that the originals reach. The records it finds serve only to read the original
    /// model: the original of a record the edited model writes must be in `linkedOriginals`.
    package func encodeGraph<T: Codable>(
        _ value: T, updating original: Record, linkedOriginals: some Sequence<Record>, keepingUnreadLinks: Bool,
        linkedOriginalsNamed: ((_ name: String) -> [Record])? = nil
    ) throws -> [Record] {
        // By type and name: records of two types may share a name.
        let originals = Dictionary(
            ([original] + Array(linkedOriginals)).map { (GraphDecoding.Link(of: $0), $0) },
            uniquingKeysWith: { first, _ in first })
        // An original kept without its type (as a deletion's is sent) is the original of its name.
        func originalOfLink(_ record: Record) -> Record? {
            originals[GraphDecoding.Link(of: record)]
                ?? originals[GraphDecoding.Link(recordType: "", name: record.recordName)]
        }
        let edited = try encodeGraph(value)
        let graph = GraphDecoding(records: LinkedRecordSet(originals.values), lookingUp: linkedOriginalsNamed)
        let baselines = try encodeGraph(readBack(type(of: value), from: original, in: graph))
        let baselineByLink = Dictionary(
            baselines.dropFirst().map { (GraphDecoding.Link(of: $0), $0) }, uniquingKeysWith: { first, _ in first })
        func update(_ record: Record, of original: Record, baseline: Record) throws -> Record {
            try RecordUpdate(original: original, baseline: baseline, graph: graph, keepsUnreadLinks: keepingUnreadLinks)
                .update(to: record, of: value)
        }
        var records: [Record] = []
        for (index, record) in edited.enumerated() {
            // The model's own record updates the original given for it; a linked record, the
            // original of its name, if it has one.
            if index == 0, let baseline = baselines.first {
                records.append(try update(record, of: original, baseline: baseline))
            } else if let original = originalOfLink(record) {
                try refuseDeletion(original, "Leave it out of linkedOriginals to create it anew.")
                if let baseline = baselineByLink[GraphDecoding.Link(of: record)] {
                    records.append(try update(record, of: original, baseline: baseline))
                } else if original.metadata?.changeTag != nil {
                    // Newly linked, but the server has it: an update of every field the model
                    // writes, with the original's change tag, since a create of it would be refused.
                    var whole = record
                    whole.metadata = original.metadata
                    records.append(whole)
                } else {
                    records.append(record)
                }
            } else {
                records.append(record)
            }
        }
        return records
    }

    /// The model as it reads `original`, through a decoder that finds fields where this encoder
    /// writes them. The type is the model's own, which may be a subclass of the static type.
    private func readBack<T: Decodable>(_ type: T.Type, from original: Record, in graph: GraphDecoding) throws -> T {
        try refuseDeletion(original, "Encode the model whole with encode(_:) to create it anew.")
        do {
            return try matchingDecoder.decode(type, from: original, in: graph)
        } catch {
            throw EncodingError.invalid(
                original, at: [] as [any CodingKey],
                "\(T.self) cannot read the original record '\(original.recordName)', so what changed cannot be "
                    + "told: \(error)",
                underlyingError: error)
        }
    }

    /// Throws when `original` is the server's report of its record's deletion: an update of it
    /// would be answered `NOT_FOUND`. `advice` says what to do instead.
    private func refuseDeletion(_ original: Record, _ advice: String) throws {
        guard original.metadata?.deleted == true else { return }
        throw EncodingError.invalid(
            original, at: [] as [any CodingKey],
            "The original record '\(original.recordName)' was deleted on the server, so there is nothing to "
                + "update. \(advice)")
    }

    /// A decoder with this encoder's identifier key and user info, that finds each key's field
    /// under the name this encoder's key strategy gives it.
    var matchingDecoder: RecordDecoder {
        var decoder = RecordDecoder()
        decoder.identifierKey = identifierKey
        decoder.userInfo = userInfo
        switch keyEncodingStrategy {
        case .useDefaultKeys: decoder.keyDecodingStrategy = .useDefaultKeys
        case .convertToSnakeCase: decoder.keyDecodingStrategy = .convertFromSnakeCase
        case .custom(let convert): decoder.fieldNaming = convert
        }
        return decoder
    }
}

/// The update of one record: the edited record's fields compared with what the model wrote for
/// the original.
///
/// An optional linked model whose record the baseline was not given reads as `nil`, so the
/// baseline lacks its field though the original links to a record there. Such a field is
/// compared with the original's link instead: a link to the same record is unchanged (whatever
/// the reference's action and zone), and one to another record is a change. A model that writes
/// no link there is an error, not a field cleared or left alone: it may have been decoded without
/// the linked record, or have had its link removed, and only the caller knows which. A caller
/// that knows the model could not have read the link either (`keepsUnreadLinks`) leaves it alone.
struct RecordUpdate {
    /// The record as the server sent it.
    let original: Record
    /// What the model decoded from `original` writes: the fields to compare with.
    let baseline: Record
    /// The fields whose links the baseline's model read as `nil`, as the records they name were
    /// not given.
    let unreadLinks: Set<String>
    /// Whether a link the baseline could not read, which the edited model no longer writes, is
    /// left as the server has it rather than an error: for a caller that knows the model could
    /// not have read it either.
    let keepsUnreadLinks: Bool

    /// - Parameter graph: What decoding the baseline's model found, if it was decoded.
    init(original: Record, baseline: Record, graph: GraphDecoding? = nil, keepsUnreadLinks: Bool = false) {
        self.original = original
        self.baseline = baseline
        unreadLinks = graph?.unreadLinks[original.recordName] ?? []
        self.keepsUnreadLinks = keepsUnreadLinks
    }

    /// The update that turns the original into `edited`, the record of the edited `model`.
    func update(to edited: Record, of model: Any) throws -> Record {
        // A model with an identifier writes the original's name back; one that writes another
        // name now has had its identifier changed, and would save over another record.
        if baseline.recordName == original.recordName, edited.recordName != original.recordName {
            throw EncodingError.invalid(
                model, at: [] as [any CodingKey],
                "The model's identifier names record '\(edited.recordName)', but it updates record "
                    + "'\(original.recordName)'. Encode it with encode(_:) to save it as a record of its own.")
        }
        var update = Record(
            recordType: original.recordType, recordName: original.recordName, metadata: original.metadata)
        update.isUpdate = true
        try checkUnreadLinks(in: edited, of: model)
        var typeHints: [String: String] = [:]
        for (name, value) in edited.fields {
            if let before = baseline[name], before.isSameOnTheWire(as: value) { continue }
            if keepsUnreadLink(value, inField: name) { continue }
            let value = try serverForm(of: value, inField: name, of: model)
            update.fields[name] = value
            // An emptied list keeps the type the server has for the field.
            if value.isEmptyList, let typeName = original.typeName(ofField: name) { typeHints[name] = typeName }
        }
        var cleared: Set<String> = []
        for name in baseline.fields.keys where edited[name] == nil {
            cleared.insert(name)
            if let typeName = original.typeName(ofField: name) ?? baseline.typeName(ofField: name) {
                typeHints[name] = typeName
            }
        }
        update.clearedFields = cleared
        update.fieldTypeHints = typeHints
        // A new parent is sent; an update cannot take one away (CloudKit has no null parent).
        if edited.parent != baseline.parent { update.parent = edited.parent }
        let encrypted = edited.encryptedFields.union(original.encryptedFields).union(baseline.encryptedFields)
        update.encryptedFields = encrypted.filter { update[$0] != nil || cleared.contains($0) }
        return update
    }

    /// `value`, the changed field `name`, with what the edit kept of the original's field as the
    /// server has it.
    ///
    /// A model reads some values as less than they are: an enum value newer than the model as
    /// its fallback case, a server asset as the `URL` to download it from. In a list that the
    /// model read as less than the server's, each element the edit left as the model read it is
    /// sent as the server's element in its place (see `KeptListElements`), so an edit of one
    /// element loses none of the others. Any other value is sent as the model wrote it.
    ///
    /// - Throws: `EncodingError.invalidValue` at the field when the value would put anything but
    ///   assets where the server keeps assets, which the server refuses.
    private func serverForm(of value: RecordValue, inField name: String, of model: Any) throws -> RecordValue {
        var value = value
        if case .list(let elements) = value, case .list(let stored)? = original[name],
            case .list(let written)? = baseline[name], stored.count == written.count,
            zip(stored, written).contains(where: { !$0.isSameOnTheWire(as: $1) })
        {
            let kept = KeptListElements(written: written, stored: stored).list(keptFrom: elements)
            // Only a list of one type can be sent: a model that reads the server's numbers as
            // another kind of number sends its own.
            if Set(kept.map(\.typeName)).count <= 1 { value = .list(kept) }
        }
        try refuseAllButAssets(value, inField: name, of: model)
        return value
    }

    /// Throws when `value` puts anything but assets where the original's field `name` holds
    /// assets: a web address, or a list of `URL`s that mixes web addresses with a new local file,
    /// which the model writes as JSON.
    private func refuseAllButAssets(_ value: RecordValue, inField name: String, of model: Any) throws {
        guard original.typeName(ofField: name)?.hasPrefix("ASSETID") == true else { return }
        let elements: [RecordValue] = if case .list(let elements) = value { elements } else { [value] }
        guard elements.contains(where: { if case .asset = $0 { false } else { true } }) else { return }
        throw EncodingError.invalid(
            model, at: [AnyCodingKey(stringValue: name)],
            "Field '\(name)' holds assets on the server, and the edit writes \(value.typeName) there, which the "
                + "server refuses in an asset field: a web address cannot replace an asset. Keep the URLs the model "
                + "read, set local files' URLs for new assets, or read the field as RecordAsset.")
    }

    /// Whether `value`, written in field `name`, keeps the original's link there that the
    /// baseline could not read. Links are compared by the record they name: the encoder writes
    /// its own action and zone, and the server's stay as they are.
    private func keepsUnreadLink(_ value: RecordValue, inField name: String) -> Bool {
        guard unreadLinks.contains(name), case .reference(let link) = original[name],
            case .reference(let written) = value
        else { return false }
        return written.recordName == link.recordName
    }

    /// Throws for a link of the original that the baseline could not read and the edited model
    /// does not write: whether it was removed cannot be told.
    private func checkUnreadLinks(in edited: Record, of model: Any) throws {
        guard !keepsUnreadLinks else { return }
        for name in unreadLinks where edited[name] == nil {
            guard case .reference(let link) = original[name] else { continue }
            throw EncodingError.invalid(
                model, at: [AnyCodingKey(stringValue: name)],
                "The record being updated links field '\(name)' to record '\(link.recordName)', which was not given, "
                    + "so the model read it as nil, and it writes no link there now: whether the link was removed "
                    + "cannot be told. Pass the records the model was decoded with to "
                    + "encodeGraph(_:updating:linkedOriginals:), or decode the property as a RecordReference.")
        }
    }
}

extension RecordValue {
    /// Whether the two values are the same once written to CloudKit: dates to the millisecond,
    /// the server's precision, and doubles with their sign (`-0.0` is written apart from `0.0`).
    func isSameOnTheWire(as other: RecordValue) -> Bool {
        switch (self, other) {
        case (.date(let first), .date(let second)):
            return (first.timeIntervalSince1970 * 1000).rounded() == (second.timeIntervalSince1970 * 1000).rounded()
        case (.double(let first), .double(let second)):
            return first == second && first.sign == second.sign
        case (.list(let first), .list(let second)):
            return first.count == second.count && zip(first, second).allSatisfy { $0.isSameOnTheWire(as: $1) }
        case (.location(let first), .location(let second)):
            return first.isSameOnTheWire(as: second)
        case (.asset(let first), .asset(let second)):
            // The local file is not part of CloudKit's JSON: two assets the server knows are the
            // same when what is written of them is. Without the server's keys, the file is all
            // there is to compare.
            guard first.isKnownToServer, second.isKnownToServer else { return first == second }
            // The same file's content, as the upload's answer (with its receipt) and as the server
            // sends it back (with a download address instead) describe it.
            if let checksum = first.fileChecksum, checksum == second.fileChecksum, first.size == second.size {
                return true
            }
            var first = first
            var second = second
            first.fileURL = nil
            second.fileURL = nil
            return first == second
        default:
            return self == other
        }
    }
}

extension RecordLocation {
    /// Whether CloudKit's JSON writes the two locations alike: their numbers with their signs,
    /// their timestamps to the millisecond, as fields of those types are compared.
    fileprivate func isSameOnTheWire(as other: RecordLocation) -> Bool {
        func same<Value>(_ first: Value?, _ second: Value?, as field: (Value) -> RecordValue) -> Bool {
            switch (first, second) {
            case (nil, nil): true
            case (let first?, let second?): field(first).isSameOnTheWire(as: field(second))
            default: false
            }
        }
        return same(latitude, other.latitude, as: RecordValue.double)
            && same(longitude, other.longitude, as: RecordValue.double)
            && same(altitude, other.altitude, as: RecordValue.double)
            && same(horizontalAccuracy, other.horizontalAccuracy, as: RecordValue.double)
            && same(verticalAccuracy, other.verticalAccuracy, as: RecordValue.double)
            && same(speed, other.speed, as: RecordValue.double)
            && same(course, other.course, as: RecordValue.double)
            && same(timestamp, other.timestamp, as: RecordValue.date)
    }
}

/// Matches the elements of an edited list with those of the list the model wrote for the
/// server's, so that each element the edit left as the model read it is sent as the server has it.
///
/// The model wrote `written[i]` for the server's `stored[i]`. An element of the edited list
/// equal to one of `written` stands for the server's element in that place. Elements are matched
/// in order: the edited list's common start with `written`, then its common end, then each
/// element between to the first place not yet matched that holds an equal value — so one element
/// removed, added or changed anywhere leaves every other matched with its own place. An element
/// left over, equal to a place already taken, stands for that place's server element only when
/// the model wrote that element as another type (a server asset read as its `URL`, so a photo
/// listed twice is the same asset twice); otherwise it is what the user chose (a fallback case
/// added to the list), and is sent as written.
struct KeptListElements {
    /// What the model wrote for each of the server's elements.
    let written: [RecordValue]
    /// The server's elements.
    let stored: [RecordValue]

    /// `elements`, each matched element replaced with the server's.
    func list(keptFrom elements: [RecordValue]) -> [RecordValue] {
        var kept = elements
        var start = 0
        while start < elements.count, start < written.count, elements[start] == written[start] {
            kept[start] = stored[start]
            start += 1
        }
        var end = elements.count
        var writtenEnd = written.count
        while end > start, writtenEnd > start, elements[end - 1] == written[writtenEnd - 1] {
            end -= 1
            writtenEnd -= 1
            kept[end] = stored[writtenEnd]
        }
        // The places between, by value, first place last, so that popLast takes the first.
        var openPlaces: [RecordValue: [Int]] = [:]
        for place in (start..<writtenEnd).reversed() { openPlaces[written[place], default: []].append(place) }
        var firstPlaces: [RecordValue: Int] = [:]
        for place in written.indices.reversed() { firstPlaces[written[place]] = place }
        for index in start..<end {
            if let place = openPlaces[elements[index]]?.popLast() {
                kept[index] = stored[place]
            } else if let place = firstPlaces[elements[index]], stored[place].typeName != written[place].typeName {
                kept[index] = stored[place]
            }
        }
        return kept
    }
}
