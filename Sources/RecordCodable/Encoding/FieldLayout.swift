import Foundation

/// The fields that a model type's records hold, in the order the model writes them, and a
/// dictionary prepared with all of them (see ``RecordFieldWriter`` for the rules they follow).
///
/// A layout never changes once made, and every record of its type refers to it: a class, so that a
/// record takes one reference rather than copying three.
final class FieldLayout: Sendable {
    /// The layout of a type with no records yet.
    static let empty = FieldLayout(fields: [], prepared: false)

    /// Each key in the order the model writes it, and its field name, already checked.
    let fields: [KnownField]

    /// The key names of `fields`, apart, for matching keys without copying field names.
    private let keyNames: [String]

    /// A dictionary with a placeholder value for each field, which a record copies and fills in;
    /// `nil` when the layout is only a list of names (see ``RecordFieldWriter``).
    let template: [String: RecordValue]?

    /// Where each field's entry is in `template`, by place in `fields`.
    private let slots: [Slot]

    /// A field's entry in the template: its index, and what its name adds to a record's size.
    struct Slot {
        var index: Dictionary<String, RecordValue>.Index
        var nameSize: Int
    }

    /// A layout of `fields`, with a template when `prepared` is true. Two keys that become one
    /// field name, which a dictionary cannot hold apart, get no template.
    init(fields: [KnownField], prepared: Bool = true) {
        self.fields = fields
        keyNames = fields.map(\.keyName)
        guard prepared else {
            template = nil
            slots = []
            return
        }
        var template = [String: RecordValue](minimumCapacity: fields.count)
        for field in fields { template[field.fieldName] = .int64(0) }
        let slots = fields.compactMap { field in
            template.index(forKey: field.fieldName).map { Slot(index: $0, nameSize: field.fieldName.utf8.count) }
        }
        if template.count == fields.count, slots.count == fields.count {
            self.template = template
            self.slots = slots
        } else {
            self.template = nil
            self.slots = []
        }
    }

    /// The same field names, without a prepared dictionary.
    func withoutTemplate() -> FieldLayout {
        FieldLayout(fields: fields, prepared: false)
    }

    /// Whether the key at `place` is named `keyName` and has a slot.
    @inline(__always)
    func expects(_ keyName: String, at place: Int) -> Bool {
        place < slots.count && keyNames[place] == keyName
    }

    /// The entry in a copy of `template` of the field at `place`, or `nil` without a template.
    @inline(__always)
    func slot(at place: Int) -> Slot? {
        place < slots.count ? slots[place] : nil
    }

    /// The place of `keyName` at or after `start`. A key whose name is a literal compares equal to
    /// the one kept here without its bytes being read.
    @inline(__always)
    func place(of keyName: String, from start: Int) -> Int? {
        // Most often the key is the one expected next.
        if start < keyNames.count, keyNames[start] == keyName { return start }
        var place = start
        while place < keyNames.count {
            if keyNames[place] == keyName { return place }
            place &+= 1
        }
        return nil
    }
}

/// A key of a model and the checked field name it becomes.
struct KnownField: Sendable, Equatable {
    var keyName: String
    var fieldName: String
}
