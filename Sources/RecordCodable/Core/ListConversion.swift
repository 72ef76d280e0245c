/// The one loop that converts a list's elements, for both coders' lists of strings, numbers and
/// dates, where most of a long list's time goes.
///
/// Its shape is chosen for speed, and each part matters (see "Fast lists" in the Performance
/// article):
/// - The elements are read through a span, which lends each one: a `for`-in loop over an array
///   copies each element out and releases it.
/// - They are written through an output span, whose count stays in a register: `append`, and so
///   `map`, stores the array's count in memory at every element, and a loop that loads it back at
///   the next one runs at a speed that depends on where its code falls in memory.
/// - The storage is made by `append(addingCapacity:initializingWith:)`, whose code is specialized
///   for the element type; `Array(capacity:initializingWith:)` looks the storage's type up at run
///   time, at every list.
/// - An empty list is returned as `[]`: `append(addingCapacity:)` on an empty array writes into the
///   one storage that every empty array shares, which other threads read.
enum ListConversion {
    /// The elements of `source`, each converted by `convert`, up to the first one that `convert`
    /// refuses by returning `nil`: the result is shorter than `source` when one was refused.
    @inline(__always)
    static func converted<Source, Element>(_ source: [Source], _ convert: (Source) -> Element?) -> [Element] {
        if source.isEmpty { return [] }
        var result: [Element] = []
        let slice = source[...]
        let sources = slice.span
        result.append(addingCapacity: source.count) { output in
            for index in sources.indices {
                guard let element = convert(sources[index]) else { return }
                output.append(element)
            }
        }
        return result
    }
}
