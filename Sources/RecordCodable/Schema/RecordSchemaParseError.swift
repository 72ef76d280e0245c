import Foundation

extension RecordSchema {
    /// Text that is not CloudKit's schema language, and where: thrown by ``RecordSchema/init(parsing:)``.
    ///
    /// ```swift
    /// do {
    ///     _ = try RecordSchema(parsing: text)
    /// } catch let error as RecordSchema.ParseError {
    ///     print(error)   // line 4, column 15: expected a field type (ASSET, BYTES, …), found 'STRNG'
    /// }
    /// ```
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
        /// The line of the text where the problem is, from 1.
        public var line: Int

        /// The column where the problem is, from 1, counted in Unicode scalars.
        public var column: Int

        /// What is wrong, and what was expected.
        public var message: String

        /// Creates a parse error.
        public init(line: Int, column: Int, message: String) {
            self.line = line
            self.column = column
            self.message = message
        }

        /// The place and the message: `line 4, column 15: expected a field type (ASSET, BYTES, …), found 'STRNG'`.
        public var description: String { "line \(line), column \(column): \(message)" }

        /// The same as ``description``.
        public var errorDescription: String? { description }
    }
}
