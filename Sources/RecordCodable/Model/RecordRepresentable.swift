/// A model that names its own record type.
///
/// Without this conformance a record's type is the model's type name, without module or generic
/// arguments (`Box<Int>` is stored as `"Box"`). Conform when the schema uses another name, or to
/// keep records stable across a rename of the Swift type:
///
/// ```swift
/// struct Article: Codable, RecordRepresentable {
///     static var recordType: String { "Post" }
///     var id: String
///     var title: String
/// }
/// ```
public protocol RecordRepresentable {
    /// The type of the records that hold values of this model.
    static var recordType: String { get }
}
