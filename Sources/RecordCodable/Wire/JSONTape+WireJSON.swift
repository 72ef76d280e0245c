import Foundation

extension JSONTape {
    /// The tape of a tree, whose first value has the coding path `path`.
    convenience init(_ tree: WireJSON, path: [any CodingKey]) {
        var layout = TreeLayout()
        layout.append(tree)
        self.init(heldStrings: layout.strings, tokens: layout.tokens, basePath: path, keysAreUnique: true)
    }

    /// The value at `index` as a ``WireJSON``: the first of a key held twice, as Foundation's
    /// decoder keeps it.
    func json(at index: Int) -> WireJSON {
        switch kind(at: index) {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .integer: return .int64(integer(at: index))
        case .double: return .double(double(at: index))
        case .string: return .string(string(at: index))
        case .array: return .array(elements(ofArrayAt: index, json(at:)))
        case .object:
            let members = members(ofObjectAt: index) { ($0, json(at: $1)) }
            return .object(Dictionary(members, uniquingKeysWith: { first, _ in first }))
        }
    }
}

/// Lays out a ``WireJSON`` tree as the tokens of a tape.
private struct TreeLayout {
    var tokens: ContiguousArray<JSONToken> = []
    var strings: [String] = []

    /// Appends `value` and everything in it. A tree read by Foundation's decoder nests no deeper
    /// than that decoder allows, so this recursion is bounded.
    mutating func append(_ value: WireJSON) {
        let index = tokens.count
        switch value {
        case .null: tokens.append(JSONToken(kind: .null))
        case .bool(let bool): tokens.append(JSONToken(kind: bool ? .true : .false))
        case .int64(let number): appendNumber(.integer, UInt64(bitPattern: number))
        case .double(let number): appendNumber(.double, number.bitPattern)
        case .string(let string): appendString(string)
        case .array(let elements):
            var token = JSONToken(kind: .array)
            token.count = Int32(clamping: elements.count)
            tokens.append(token)
            for element in elements { append(element) }
        case .object(let members):
            var token = JSONToken(kind: .object)
            token.count = Int32(clamping: members.count)
            tokens.append(token)
            for (key, member) in members {
                appendString(key)
                append(member)
            }
        case .recordFields, .commonFields:
            append(.object(value.deferredFields?.object ?? [:]))
        }
        tokens[index].end = Int32(clamping: tokens.count)
    }

    private mutating func appendNumber(_ kind: JSONToken.Kind, _ bits: UInt64) {
        var token = JSONToken(kind: kind)
        token.number = bits
        tokens.append(token)
    }

    private mutating func appendString(_ string: String) {
        var token = JSONToken(kind: .string)
        token.storage = .held
        token.number = UInt64(strings.count)
        tokens.append(token)
        strings.append(string)
        tokens[tokens.count - 1].end = Int32(clamping: tokens.count)
    }
}
