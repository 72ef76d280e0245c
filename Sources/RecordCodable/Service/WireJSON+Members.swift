extension Array {
    /// The JSON array of the elements, the member `key` of the object at `path`: each element
    /// written by `write` at its own path: `path`, `key`, then the element's index as Foundation's
    /// coders name it (`Index 2`), so that an error names the element.
    func wireJSON(
        member key: String, at path: [any CodingKey], _ write: (Element, [any CodingKey]) throws -> WireJSON
    ) rethrows -> WireJSON {
        let listPath = path + [AnyCodingKey(stringValue: key)]
        return .array(
            try enumerated().map { index, element in try write(element, listPath + [AnyCodingKey(index: index)]) })
    }
}
