/// A coding key of any value: the keys of dictionaries, list indices, and keys carried in paths.
package struct AnyCodingKey: CodingKey, Hashable, Sendable {
    package let stringValue: String
    package let intValue: Int?

    package init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    package init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }

    /// The key of a list element, named as Foundation's coders name it ("Index 3").
    package init(index: Int) {
        self.stringValue = "Index \(index)"
        self.intValue = index
    }

    init(_ key: some CodingKey) {
        self.stringValue = key.stringValue
        self.intValue = key.intValue
    }
}
