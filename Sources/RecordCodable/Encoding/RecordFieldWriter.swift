import Foundation

/// The fields of one record as the model writes them, with their cost against the size limit.
///
/// A model writes its properties in the same order record after record, so the writer learns the
/// order from a type's records and keeps it as the type's ``FieldLayout``: each key's field name,
/// converted and checked once, and a dictionary that already holds every field. A record that
/// follows the layout starts from a copy of that dictionary and puts each value straight into its
/// place, so no key is hashed, converted or checked again.
///
/// The rules of the writer and its layout, together:
/// - **Template.** A layout's `template` holds a placeholder under every field name of the layout.
///   A record copies it once, at its first write, and each value replaces its placeholder through
///   the place's `Dictionary.Index` (a ``FieldLayout/Slot``), which stays valid because the copy
///   never grows or shrinks while the record follows the layout.
/// - **Order.** Keys are matched in order: the next key is looked for from `nextPlace` on. Places
///   passed over, and places whose value is `nil`, are noted in `skippedPlaces`; their
///   placeholders are removed when the record is done, so no placeholder ever reaches a record.
/// - **Leaving the layout.** A key the layout does not hold from `nextPlace` on — a new key, or keys
///   in another order — ends the layout's use for the rest of the record: the placeholders not
///   written are removed, and the rest is written key by key, by hashing, as a hand-written mapping
///   does. The longer key order it wrote becomes the type's next layout.
/// - **Sparseness.** When a record leaves more than half of its layout empty, copying the template
///   costs more than it saves: the type keeps its field names but loses its template, and its
///   records are written key by key from then on. So does a type whose records write their keys in
///   another order than the layout.
/// - **Shortcut.** While `takesShortcut` is true, a key that ``expects(_:)`` accepts — the one the
///   layout expects next, at `nextPlace`, with a slot there — may be written with
///   ``writeExpected(_:size:at:)``, which is not generic and does nothing but fill the slot
///   (``expectedSlot()``): the common write, which the engine makes through one small function
///   that every property shares. Should there be no slot after all, the engine writes the value by
///   name instead, so that no value is lost. Any other write goes through ``write(_:size:keyName:forKey:)``. `takesShortcut` is true only
///   while the record follows a layout with a template and the record's owner allows it
///   (``clear(startingFrom:allowsShortcut:)``), and turns false for the rest of the record once
///   the record leaves its layout or its owner closes it (``closeShortcut()``).
/// - **Size.** `size` is the record's ``Record/encodedSize`` at every moment (checked in debug
///   builds when the record is finished), so that the size guard needs no pass of its own.
/// - A custom key strategy gets no layout: its closure may answer differently from record to
///   record.
/// - **Kept.** A writer kept with its engine for the type's next record is cleared in place
///   (``clear(startingFrom:allowsShortcut:)``): every stored property but the strategy as a new
///   writer has it.
///   A new stored property must be cleared there too (the kept-engine tests find one that is not).
/// - **One key a field.** A key strategy that converts names may store two keys in one field,
///   which would lose the first key's value: a record that does so is an error. The layout cannot
///   hold such a record, as it is learned from records written whole, so only keys written key by
///   key are checked.
/// - **One class a field.** A class and its superclass, written into one record through
///   `superEncoder()`, may not write the same field: once a superclass's encoder is asked for, the
///   record leaves its layout, and each field notes the type of the key that wrote it. Classes
///   that share one type of key cannot be told apart this way, and a later write replaces an
///   earlier one, as in one container. Other records pay nothing for this.
struct RecordFieldWriter {
    private(set) var fields: [String: RecordValue]
    /// The record's ``Record/encodedSize``, kept up to date as fields are written, so that the
    /// size guard needs no pass of its own.
    private(set) var size = 0

    private let strategy: RecordEncoder.KeyEncodingStrategy
    /// The layout the record starts from: the type's for this key strategy, or an empty one.
    private var layout = FieldLayout.empty
    /// Whether every key so far matched the layout, so `fields` holds the layout's placeholders.
    private var followsLayout = false
    /// Whether the key the layout expects next may be written by ``writeExpected(_:size:at:)``.
    private var takesShortcut = false
    /// The place in the layout where the next key is looked for.
    private var nextPlace = 0
    /// The places the record passed over without a value, in order, while it followed the layout.
    private var skippedPlaces: [Int] = []
    /// The keys written so far, kept once the record left its layout (or had none), to become the
    /// type's next layout.
    private var writtenKeys: [KnownField] = []
    /// For a key strategy that converts names, the key that wrote each field since the record
    /// left its layout (or had none), layout fields written before included.
    private var keyNamesByField: [String: String] = [:]
    /// For a record that a superclass writes too: the type of the key that wrote each field, since
    /// the superclass's encoder was asked for. `nil` for other records.
    private var keyTypesByField: [String: ObjectIdentifier]?

    init(layout: FieldLayout?, strategy: RecordEncoder.KeyEncodingStrategy, allowsShortcut: Bool) {
        self.strategy = strategy
        fields = [:]
        clear(startingFrom: layout, allowsShortcut: allowsShortcut)
    }

    /// Makes the writer ready for a record that starts from `layout`, as if it were new. What the
    /// last record left as it was is not written again, so that a writer kept for the next record of
    /// its type starts it at little cost.
    mutating func clear(startingFrom layout: FieldLayout?, allowsShortcut: Bool) {
        let layout = (strategy.isCustom ? nil : layout) ?? .empty
        if layout !== self.layout { self.layout = layout }
        followsLayout = !layout.fields.isEmpty
        takesShortcut = allowsShortcut && layout.template != nil
        // Without a template, the dictionary is made large enough for the fields the type's
        // records had so far, so that it grows no more than once.
        fields = layout.template ?? Dictionary(minimumCapacity: layout.fields.count)
        size = 0
        nextPlace = 0
        if !skippedPlaces.isEmpty { skippedPlaces.removeAll(keepingCapacity: true) }
        if !writtenKeys.isEmpty { writtenKeys = [] }
        if !keyNamesByField.isEmpty { keyNamesByField = [:] }
        if keyTypesByField != nil { keyTypesByField = nil }
    }

    /// Writes `value` as the field for `key`, whose name is `keyName`; `nil` removes the field.
    ///
    /// The way of every write that does not take the shortcut (``writeExpected(_:size:at:)``): a key
    /// the layout holds further on, after places the record left out, is written at its place; any
    /// other key by name.
    @inline(__always)
    mutating func write(
        _ value: consuming RecordValue?, size valueSize: Int, keyName: String, forKey key: some CodingKey
    )
        throws
    {
        if followsLayout, let place = layout.place(of: keyName, from: nextPlace) {
            return write(value, size: valueSize, at: place)
        }
        try write(value, size: valueSize, byName: keyName, forKey: key)
    }

    /// Whether `keyName` may be written by ``writeExpected(_:size:at:)``: the record takes the shortcut,
    /// and the layout expects `keyName` next.
    @inline(__always)
    func expects(_ keyName: String) -> Bool {
        takesShortcut && layout.expects(keyName, at: nextPlace)
    }

    /// The entry of the key that the layout expects next, where ``writeExpected(_:size:at:)``
    /// writes; `nil` when the layout has none there, which ``expects(_:)`` rules out.
    @inline(__always)
    func expectedSlot() -> FieldLayout.Slot? {
        layout.slot(at: nextPlace)
    }

    /// Writes `value` as the field of the key that the layout expects next, at its entry `slot`
    /// (``expectedSlot()``).
    @inline(__always)
    mutating func writeExpected(_ value: __owned RecordValue, size valueSize: Int, at slot: FieldLayout.Slot) {
        nextPlace &+= 1
        fields.values[slot.index] = value
        size &+= slot.nameSize &+ valueSize
    }

    /// Stops the shortcut for the rest of the record: every key is then written by
    /// ``write(_:size:keyName:forKey:)``.
    mutating func closeShortcut() {
        takesShortcut = false
    }

    /// Writes `value` at `place` in the layout, which is at or after `nextPlace`.
    private mutating func write(_ value: consuming RecordValue?, size valueSize: Int, at place: Int) {
        if place > nextPlace { skippedPlaces.append(contentsOf: nextPlace..<place) }
        nextPlace = place &+ 1
        guard let slot = layout.slot(at: place) else {
            return replace(value, size: valueSize, name: layout.fields[place].fieldName)
        }
        guard let value = consume value else {
            return skippedPlaces.append(place)
        }
        fields.values[slot.index] = consume value
        size &+= slot.nameSize &+ valueSize
    }

    /// Writes `value` as the field for `key` by hashing its name, once the record has left its
    /// layout or has none.
    private mutating func write(
        _ value: consuming RecordValue?, size valueSize: Int, byName keyName: String, forKey key: some CodingKey
    ) throws {
        if followsLayout { leaveLayout() }
        let name = try fieldName(for: keyName, key)
        if strategy.mayJoinKeys { try claim(name, forKeyNamed: keyName, key) }
        if keyTypesByField != nil { try claim(name, forKeyOfType: key) }
        replace(value, size: valueSize, name: name)
        if !strategy.isCustom { writtenKeys.append(KnownField(keyName: keyName, fieldName: name)) }
    }

    /// Whether a value is written under `key`, whose name is `keyName`. (Asked only when a model
    /// asks for a nested container, so it may cost a search.)
    func hasValue(forKeyNamed keyName: String, _ key: some CodingKey) -> Bool {
        guard let name = try? fieldName(for: keyName, key) else { return false }
        // Asked of the field, not the key: another key may have written it (a key strategy may
        // make two keys one field).
        guard followsLayout, layout.template != nil else { return fields[name] != nil }
        // `fields` holds a placeholder at every place of the layout not written yet: the places
        // before the next one hold values, but for those skipped. A layout with a template holds
        // each field at one place.
        guard let place = layout.fields[..<nextPlace].firstIndex(where: { $0.fieldName == name }) else {
            return false
        }
        return !skippedPlaces.contains(place)
    }

    /// Notes that the key named `keyName` writes field `name`, which no other key may write.
    private mutating func claim(_ name: String, forKeyNamed keyName: String, _ key: some CodingKey) throws {
        guard let other = keyNamesByField.updateValue(keyName, forKey: name), other != keyName else { return }
        throw EncodingError.invalid(
            name, at: .field(key),
            "Keys '\(other)' and '\(keyName)' are both stored in field '\(name)' by the key strategy, so one "
                + "would overwrite the other: give one of them another CodingKey.")
    }

    /// Starts telling a class's fields from its superclass's, which `superEncoder()` writes into
    /// the same record: the fields written so far are the class's, written with keys of
    /// `keyType`, and the rest of the record is written key by key.
    mutating func separateSuperclassFields(writtenWith keyType: ObjectIdentifier) {
        guard keyTypesByField == nil else { return }
        if followsLayout { leaveLayout() }
        keyTypesByField = Dictionary(uniqueKeysWithValues: fields.keys.map { ($0, keyType) })
    }

    /// Notes that `key`'s type writes field `name`, which a key of another type — a superclass's
    /// or a subclass's — may not write.
    private mutating func claim(_ name: String, forKeyOfType key: some CodingKey) throws {
        let keyType = ObjectIdentifier(type(of: key))
        guard let other = keyTypesByField?.updateValue(keyType, forKey: name), other != keyType else { return }
        throw EncodingError.invalid(
            name, at: .field(key),
            "A class and its superclass both write field '\(name)' into the record, through superEncoder(), with "
                + "keys of two types, so one would overwrite the other: give one of them another CodingKey.")
    }

    /// Sets or removes the field `name` by hashing its name, the way a dictionary is filled by hand.
    private mutating func replace(_ value: __owned RecordValue?, size valueSize: Int, name: String) {
        let previous: RecordValue?
        if let value {
            previous = fields.updateValue(value, forKey: name)
            size &+= name.utf8.count &+ valueSize
        } else {
            previous = fields.removeValue(forKey: name)
        }
        if let previous {
            size &-= name.utf8.count &+ previous.encodedSize
        }
    }

    /// The field name for `key`, whose name is `keyName`, after the key strategy, checked against
    /// the record format.
    func fieldName(for keyName: String, _ key: some CodingKey) throws -> String {
        try strategy.fieldName(for: keyName, key)
    }

    /// Stops following the layout: the placeholders of places not written are removed, and the keys
    /// written so far are kept, in order, for the type's next layout.
    private mutating func leaveLayout() {
        followsLayout = false
        takesShortcut = false
        removePlaceholders()
        writtenKeys = writtenPlaces.map { layout.fields[$0] }
        if strategy.mayJoinKeys {
            for field in writtenKeys { keyNamesByField[field.fieldName] = field.keyName }
        }
    }

    /// The places before `nextPlace` that the record wrote a value to, in order: all but the
    /// skipped ones.
    private var writtenPlaces: [Int] {
        var skipped = skippedPlaces.makeIterator()
        var nextSkipped = skipped.next()
        var places: [Int] = []
        for place in 0..<nextPlace {
            if place == nextSkipped {
                nextSkipped = skipped.next()
            } else {
                places.append(place)
            }
        }
        return places
    }

    /// Removes from `fields` the placeholder of every place of the layout that holds no value: the
    /// places skipped and those not reached. When they are most of the record, the written values
    /// are moved to a new dictionary instead, and the method returns `true`: the record was sparse.
    @discardableResult
    private mutating func removePlaceholders() -> Bool {
        guard layout.template != nil else { return false }
        let unreached = nextPlace..<layout.fields.count
        let emptyCount = skippedPlaces.count &+ unreached.count
        guard emptyCount > 0 else { return false }
        if emptyCount &* 2 <= layout.fields.count {
            for place in skippedPlaces { fields.removeValue(forKey: layout.fields[place].fieldName) }
            for place in unreached { fields.removeValue(forKey: layout.fields[place].fieldName) }
            return false
        }
        var kept = [String: RecordValue](minimumCapacity: layout.fields.count &- emptyCount)
        for place in writtenPlaces {
            if let slot = layout.slot(at: place) {
                kept[layout.fields[place].fieldName] = fields.values[slot.index]
            }
        }
        fields = kept
        return true
    }

    /// The record's fields, once the model has written them all, and the layout that the type's
    /// next records should start from, when this record taught a better one.
    ///
    /// The fields move out: the writer holds no part of the record afterwards, so that an engine
    /// kept for the type's next record does not make the record's first change copy its fields.
    mutating func finish() -> (fields: [String: RecordValue], newLayout: FieldLayout?) {
        let newLayout = finishLayout()
        assert(size == Record(recordType: "", recordName: "", fields: fields).encodedSize, "size is encodedSize")
        var finished = [String: RecordValue]()
        swap(&finished, &fields)
        return (finished, newLayout)
    }

    /// Removes the placeholders the record did not fill, and returns the layout that the type's
    /// next records should start from, when this record taught a better one.
    private mutating func finishLayout() -> FieldLayout? {
        if strategy.isCustom { return nil }
        guard !layout.fields.isEmpty else {
            return writtenKeys.isEmpty ? nil : FieldLayout(fields: writtenKeys)
        }
        if followsLayout {
            // Most records write every field of their layout, and leave no placeholder.
            if skippedPlaces.isEmpty && nextPlace == layout.fields.count { return nil }
            let wasSparse = removePlaceholders()
            return wasSparse ? layout.withoutTemplate() : nil
        }
        if writtenKeys.count > layout.fields.count {
            return FieldLayout(fields: writtenKeys, prepared: layout.template != nil)
        }
        // The record wrote no more keys than the layout holds, but not in its order: the type's
        // order varies, and a prepared dictionary would cost more than it saves.
        return layout.template == nil ? nil : layout.withoutTemplate()
    }
}
