#if canImport(CloudKit)
    import CloudKit
    import CoreLocation
#elseif CloudKitShim && os(Linux)
    import CloudKitAPIShim
#endif

#if canImport(CloudKit) || (CloudKitShim && os(Linux))
    import Foundation

    // Compile-only: never called. Each line states the type of what the bridge uses, so that the shim cannot
    // drift from Apple's API without this file failing to compile against one or the other. Optionality is
    // spelled out, and initializers are called with every label the bridge uses.

    /// Initializers, their labels and whether they can fail.
    func probeInitializers(url: URL, coder: NSCoder) {
        let zone: CKRecordZone.ID = CKRecordZone.ID(zoneName: "Z", ownerName: CKCurrentUserDefaultName)
        let defaultZone: CKRecordZone.ID = CKRecordZone.ID.default
        let defaultZoneName: String = CKRecordZone.ID.defaultZoneName
        let recordID: CKRecord.ID = CKRecord.ID(recordName: "R", zoneID: zone)
        let record: CKRecord = CKRecord(recordType: "T", recordID: recordID)
        let decoded: CKRecord? = CKRecord(coder: coder)
        let reference: CKRecord.Reference = CKRecord.Reference(recordID: recordID, action: .deleteSelf)
        let asset: CKAsset = CKAsset(fileURL: url)
        let coordinate = CLLocationCoordinate2D(latitude: 1, longitude: 2)
        let location: CLLocation = CLLocation(
            coordinate: coordinate, altitude: 3, horizontalAccuracy: 4, verticalAccuracy: 5, course: 6, speed: 7,
            timestamp: Date())
        _ = (defaultZone, defaultZoneName, record, decoded, reference, asset, location)
    }

    /// Properties: their types and optionality.
    func probeProperties(record: CKRecord, reference: CKRecord.Reference, asset: CKAsset, location: CLLocation) {
        let type: CKRecord.RecordType = record.recordType
        let typeName: String = type
        let recordID: CKRecord.ID = record.recordID
        let name: String = recordID.recordName
        let zone: CKRecordZone.ID = recordID.zoneID
        let zoneName: String = zone.zoneName
        let owner: String = zone.ownerName
        let changeTag: String? = record.recordChangeTag
        let created: Date? = record.creationDate
        let creator: CKRecord.ID? = record.creatorUserRecordID
        let modified: Date? = record.modificationDate
        let modifier: CKRecord.ID? = record.lastModifiedUserRecordID
        let share: CKRecord.Reference? = record.share
        let parent: CKRecord.Reference? = record.parent
        record.parent = parent
        let referenced: CKRecord.ID = reference.recordID
        let action: CKRecord.ReferenceAction = reference.action
        let isNone: Bool = action == .none
        let rawAction: UInt = action.rawValue
        let fileURL: URL? = asset.fileURL
        let latitude: CLLocationDegrees = location.coordinate.latitude
        let longitude: Double = location.coordinate.longitude
        let measurements: [Double] = [
            location.altitude, location.horizontalAccuracy, location.verticalAccuracy, location.course, location.speed,
        ]
        let timestamp: Date = location.timestamp
        _ = (
            typeName, name, zoneName, owner, changeTag, created, creator, modified, modifier, share, referenced,
            isNone, rawAction, fileURL, latitude, longitude, measurements, timestamp
        )
    }

    /// The key-value API, on the record and on its encrypted values (an existential of the protocol).
    func probeFields(record: CKRecord, coder: NSCoder) {
        let value: (any CKRecordValue)? = record.object(forKey: "k")
        let objCValue: (any __CKRecordObjCValue)? = value
        record.setObject(objCValue, forKey: "k")
        record.setObject(nil, forKey: "k")
        record.setObject(NSString(string: "s"), forKey: "k")
        let keys: [CKRecord.FieldKey] = record.allKeys()
        let changed: [String] = record.changedKeys()
        let encryptedValues: any CKRecordKeyValueSetting & Sendable = record.encryptedValues
        let setting: any CKRecordKeyValueSetting = encryptedValues
        let encryptedValue: (any __CKRecordObjCValue)? = setting.object(forKey: "k")
        setting.setObject(encryptedValue, forKey: "k")
        let encryptedKeys: [CKRecord.FieldKey] = setting.allKeys()
        let encryptedChanged: [CKRecord.FieldKey] = setting.changedKeys()
        record.encodeSystemFields(with: coder)
        let values: [any CKRecordValue] = [
            NSString(string: "s"), NSNumber(value: 1), NSData(), NSDate(), NSArray(),
            CKRecord.Reference(recordID: record.recordID, action: .none),
        ]
        _ = (keys, changed, encryptedKeys, encryptedChanged, values)
    }
#endif
