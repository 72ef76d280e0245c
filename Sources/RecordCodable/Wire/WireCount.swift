import Foundation

/// A count in a body, such as `resultsLimit`: an integer that an `Int` holds.
enum WireCount {
    static func count(from reader: WireReader) throws -> Int {
        let number = try reader.int64()
        guard let count = Int(exactly: number) else {
            throw reader.corrupted("Number \(number) does not fit in Int.")
        }
        return count
    }
}
