extension RecordEncoder {
    /// The record type that models of `type` are stored under: `T.recordType` for a
    /// ``RecordRepresentable`` model, else the type's name without module or generic arguments.
    ///
    /// It is the type ``encode(_:)`` gives a model's records, found without a model to encode:
    /// what a local store needs to look up a model by its identifier alone.
    ///
    /// ```swift
    /// RecordEncoder.recordType(of: Note.self)        // "Note"
    /// RecordEncoder.recordType(of: Box<Int>.self)    // "Box"
    /// ```
    public static func recordType<T>(of type: T.Type) -> String {
        ModelTypes.info(of: type).recordType
    }
}
