extension Record {
    /// The update that turns this record, as the server has it, into `edited`: a record that
    /// holds only what changed.
    ///
    /// It is ``RecordEncoder/encode(_:updating:)`` for records rather than models: the update
    /// carries the fields of `edited` whose value differs from this record's (dates compared to
    /// the millisecond, the server's precision), and names in ``clearedFields`` each field that
    /// `edited` no longer has. Its name, type and metadata — the change tag the server checks —
    /// are this record's. A new ``parent`` is carried too; an update cannot remove one.
    ///
    /// ```swift
    /// var edited = fetched
    /// edited["title"] = .string("Renamed")
    /// edited["dueDate"] = nil
    /// let update = try fetched.update(to: edited)
    /// // update.fields == ["title": .string("Renamed")], update.clearedFields == ["dueDate"]
    /// ```
    ///
    /// Unlike a model's update, a field that `edited` lacks is cleared: compare records that hold
    /// the same fields, or encode a model with ``RecordEncoder/encode(_:updating:)``, which leaves
    /// the fields the model does not know as they are.
    ///
    /// - Parameter edited: The record after the edit.
    /// - Returns: The update: this record's name, type and metadata, the changed fields and the
    ///   cleared ones.
    /// - Throws: `EncodingError.invalidValue` when `edited` has another name: it would save
    ///   over another record.
    public func update(to edited: Record) throws -> Record {
        try RecordUpdate(original: self, baseline: self).update(to: edited, of: edited)
    }
}
