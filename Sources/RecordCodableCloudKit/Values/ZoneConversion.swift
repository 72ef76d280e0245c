#if canImport(CloudKit)
    import CloudKit
#elseif CloudKitShim && os(Linux)
    import CloudKitAPIShim
#endif

#if canImport(CloudKit) || (CloudKitShim && os(Linux))
    import Foundation
    import RecordCodable

    /// Zones and references between ``RecordZoneID``/``RecordReference`` and CloudKit's identifiers.
    ///
    /// A `RecordZoneID` whose owner is `nil` is the current user's: CloudKit's `CKCurrentUserDefaultName`. A
    /// record's own zone, when its metadata names none, is CloudKit's default zone; a reference's zone, when
    /// it names none, is the zone of the record that holds it. Reading goes the other way, so each `nil` comes
    /// back as `nil`.
    enum ZoneConversion {
        /// CloudKit's identifier of `zone`, or of `fallback` when `zone` is `nil`.
        ///
        /// CloudKit raises an exception for an empty zone name or owner name: both are errors here.
        static func ckZoneID(
            _ zone: RecordZoneID?, orElse fallback: CKRecordZone.ID, at path: [any CodingKey]
        ) throws -> CKRecordZone.ID {
            guard let zone else { return fallback }
            guard !zone.zoneName.isEmpty else {
                throw BridgeError.encoding(zone, at: path, "A zone's name cannot be empty.")
            }
            if let owner = zone.ownerRecordName, owner.isEmpty {
                throw BridgeError.encoding(
                    zone, at: path, "A zone's owner cannot be empty: leave it nil for the current user.")
            }
            return CKRecordZone.ID(zoneName: zone.zoneName, ownerName: zone.ownerRecordName ?? CKCurrentUserDefaultName)
        }

        /// The zone of `zoneID`, or `nil` when it is `relativeTo` (the default zone, for a record's own zone;
        /// the holder's zone, for a reference).
        static func recordZoneID(_ zoneID: CKRecordZone.ID, relativeTo base: CKRecordZone.ID) -> RecordZoneID? {
            if same(zoneID, base) { return nil }
            let owner = zoneID.ownerName == CKCurrentUserDefaultName ? nil : zoneID.ownerName
            return RecordZoneID(zoneName: zoneID.zoneName, ownerRecordName: owner)
        }

        /// Whether two identifiers name the same zone, by their names.
        static func same(_ first: CKRecordZone.ID, _ second: CKRecordZone.ID) -> Bool {
            first.zoneName == second.zoneName && first.ownerName == second.ownerName
        }

        /// CloudKit's reference for `reference`, checked first for what CloudKit raises an exception for.
        ///
        /// CloudKit has no `validate` action (the Web Services' check that the target exists when the holder is
        /// saved): such a reference is refused rather than saved unchecked.
        static func ckReference(
            _ reference: RecordReference, holderZone: CKRecordZone.ID, at path: [any CodingKey]
        ) throws -> CKRecord.Reference {
            let action: CKRecord.ReferenceAction
            switch reference.action {
            case .none: action = .none
            case .deleteSelf: action = .deleteSelf
            case .validate:
                throw BridgeError.encoding(
                    reference, at: path,
                    "CloudKit's framework has no 'validate' reference action: make the reference's action .none to "
                        + "save it unchecked, or save it through CloudKit Web Services.")
            }
            if let problem = RecordName.problem(with: reference.recordName) {
                throw BridgeError.encoding(reference, at: path, "The referenced record's name is invalid: \(problem).")
            }
            let zone = try ckZoneID(reference.zoneID, orElse: holderZone, at: path)
            return CKRecord.Reference(
                recordID: CKRecord.ID(recordName: reference.recordName, zoneID: zone), action: action)
        }

        /// The reference `reference` holds, its zone `nil` when it is the holder's.
        static func recordReference(
            _ reference: CKRecord.Reference, holderZone: CKRecordZone.ID, at path: [any CodingKey]
        ) throws -> RecordReference {
            // Compared, not switched over: Swift imports CloudKit's enum as non-frozen.
            let action: RecordReference.Action
            if reference.action == .deleteSelf {
                action = .deleteSelf
            } else if reference.action == .none {
                action = .none
            } else {
                throw BridgeError.decoding(
                    at: path,
                    "The reference's action (raw value \(reference.action.rawValue)) is not one a record holds.")
            }
            return RecordReference(
                recordName: reference.recordID.recordName, action: action,
                zoneID: recordZoneID(reference.recordID.zoneID, relativeTo: holderZone))
        }
    }
#endif
