/// A value kept in one object that never changes, so that copies of whatever holds it share it by
/// reference instead of copying it.
///
/// Holders that change the value box the new value anew: a coder whose option is set gets new
/// options, a record whose metadata is set gets new metadata. Copying a holder then costs one
/// reference, however large the value.
final class Shared<Value: Sendable>: Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// A new box with the value as `change` leaves it; this box keeps its value.
    func changed(_ change: (inout Value) -> Void) -> Shared<Value> {
        var value = self.value
        change(&value)
        return Shared(value)
    }
}
