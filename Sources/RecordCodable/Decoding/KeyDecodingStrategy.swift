extension RecordDecoder {
    /// How ``RecordDecoder`` finds the field that holds a property's value.
    public enum KeyDecodingStrategy: Sendable {
        /// The field is named exactly as the coding key. This is the default.
        case useDefaultKeys

        /// The field is named in snake case, as ``RecordEncoder/KeyEncodingStrategy/convertToSnakeCase``
        /// writes it.
        ///
        /// The decoder looks a key up under its snake-case form (`imageURL` under `image_url`),
        /// then, if there is no such field, under the key itself, and last among the fields whose
        /// camel-case form is the key, as Foundation's decoder does (`fieldName0` finds
        /// `field_name_0`). Every model that `convertToSnakeCase` encodes therefore decodes back,
        /// acronyms included, and a dictionary reads every field of a record written elsewhere.
        case convertFromSnakeCase

        /// The closure turns each of the record's field names into the coding key it matches.
        ///
        /// The closure receives a coding path that ends with the field's name.
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }
}
