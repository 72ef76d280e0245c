/// What encoding one value showed it to be: the outcome of a property, which the engine turns into
/// a field in one `switch` (see ``RecordEncodingEngine/encodeField(_:at:)``).
///
/// A value tells its form by the containers it asks a ``ValueEncoder`` for, as GRDB tells a
/// column's: a single value is a native field, an unkeyed container of single values a list, a
/// keyed container a linked model, an asset value or JSON. For example, a `String`-backed enum
/// writes one string and becomes `.single(.string(rawValue))`; a nested struct asks for a keyed
/// container and becomes `.keyed`.
enum ValueForm {
    /// The value wrote nothing. Foundation's JSON encoder writes such a value as an empty object,
    /// and so does the record.
    case nothing
    /// `nil`: the property stores no field.
    case null
    /// One single value: a native field, such as a string or a number.
    case single(EncodedValue)
    /// Single values of one kind through an unkeyed container: a list field.
    case list(EncodedValue)
    /// A keyed container, asked for before anything else: a linked model, an asset value, or a
    /// nested value stored as JSON.
    case keyed
    /// Anything else, which has no native form: a `nil` element, a list of lists, elements of
    /// mixed kinds, a second value through one container. Stored as JSON.
    case json
}

/// The form a value has shown so far, while its `encode(to:)` runs: the state of a
/// ``ValueEncoder``, which only it changes.
///
/// Rules:
/// - It starts at `nothing`. The first write decides: `null`, `single`, `list` or `keyed`.
/// - Any write that the form cannot take — a second single value, a keyed container after a
///   value, an element of another kind than the first, a `nil` or a list as an element — makes it
///   `noNativeForm`.
/// - `keyed` and `noNativeForm` are settled: the value will be stored by another route that runs
///   its `encode(to:)` again (see ``ValueEncoder``), so every later write is ignored, and nothing
///   of it is encoded.
/// - `elements` and `elementsSize` hold the list while the form is `list`, and nothing otherwise;
///   `elementsSize` is the sum of the elements' ``RecordValue/encodedSize`` (checked in debug
///   builds).
struct ValueFormFinder {
    private enum Stage {
        case nothing
        case null
        case single(EncodedValue)
        case list
        case keyed
        case noNativeForm
    }

    /// Whether the value is an element of a list, which must be a single value.
    private(set) var isElement: Bool
    private var stage = Stage.nothing
    private var elements: [RecordValue] = []
    private var elementsSize = 0

    init(isElement: Bool) {
        self.isElement = isElement
    }

    /// Whether the value has shown that it has no native form of its own, so that its later writes
    /// change nothing.
    var isSettled: Bool {
        switch stage {
        case .keyed, .noNativeForm: true
        case .nothing, .null, .single, .list: false
        }
    }

    /// Whether the form is a list so far.
    private var isListStage: Bool {
        if case .list = stage { return true }
        return false
    }

    /// Whether the value has written nothing yet.
    var isUnwritten: Bool {
        if case .nothing = stage { return true }
        return false
    }

    /// How many elements the list holds so far.
    var elementCount: Int { elements.count }

    /// The value wrote one single value.
    mutating func setSingle(_ value: EncodedValue) {
        guard case .nothing = stage else { return giveUp() }
        stage = .single(value)
    }

    /// The value wrote `nil`, which an element cannot be.
    mutating func setNull() {
        guard case .nothing = stage, !isElement else { return giveUp() }
        stage = .null
    }

    /// The value asked for an unkeyed container: a list, unless it is an element or wrote
    /// something else first.
    mutating func beginList() {
        switch stage {
        case .nothing where !isElement: stage = .list
        case .list, .keyed, .noNativeForm: break
        case .nothing, .null, .single: giveUp()
        }
    }

    /// The value asked for a keyed container.
    mutating func beginKeyed() {
        switch stage {
        case .nothing: stage = .keyed
        case .keyed, .noNativeForm: break
        // A list's elements go with it (see `giveUp()`).
        case .null, .single, .list: giveUp()
        }
    }

    /// Adds an element to the list; an element of another kind than the first has no native form.
    mutating func append(_ element: EncodedValue) {
        guard case .list = stage else { return giveUp() }
        if let first = elements.first, !first.isSameKind(as: element.value) { return giveUp() }
        elements.append(element.value)
        elementsSize &+= element.size
    }

    /// Notes that the value has no native form: it is stored as JSON.
    mutating func giveUp() {
        guard !isSettled else { return }
        stage = .noNativeForm
        elements = []
        elementsSize = 0
    }

    /// Starts again, for a new value: nothing written.
    mutating func restart(isElement: Bool) {
        self.isElement = isElement
        if !isUnwritten { stage = .nothing }
        if !elements.isEmpty { elements = [] }
        elementsSize = 0
    }

    /// The form the value has shown, once its `encode(to:)` has returned. The list moves out, and
    /// the finder is left as it started, with nothing written.
    mutating func finish() -> ValueForm {
        assert(elements.isEmpty || isListStage, "only a list holds elements")
        // Swapped out, not copied: a single value or a list moves to the form without a retain.
        var finished = Stage.nothing
        swap(&finished, &stage)
        switch finished {
        case .nothing: return .nothing
        case .null: return .null
        case .single(let value): return .single(value)
        case .list:
            var list: [RecordValue] = []
            swap(&list, &elements)
            defer { elementsSize = 0 }
            return .list(EncodedValue(.list(list), size: elementsSize))
        case .keyed: return .keyed
        case .noNativeForm: return .json
        }
    }
}

extension RecordValue {
    /// Whether both values are the same case, whatever their payloads.
    func isSameKind(as other: RecordValue) -> Bool {
        switch (self, other) {
        case (.string, .string), (.int64, .int64), (.double, .double), (.bytes, .bytes), (.date, .date),
            (.asset, .asset), (.reference, .reference), (.location, .location), (.list, .list):
            true
        default:
            false
        }
    }
}
