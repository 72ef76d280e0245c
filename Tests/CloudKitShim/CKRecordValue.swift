// The shim is empty unless the CloudKitShim trait is on, and never where Apple's CloudKit exists.
#if CloudKitShim && !canImport(CloudKit)
    import Foundation

    // swiftinterface: `@objc public protocol __CKRecordObjCValue : ObjectiveC.NSObjectProtocol`, the Swift name
    // of the Objective-C protocol `CKRecordValue` (CKRecord.h: `@protocol CKRecordValue <NSObject>`).
    /// A value a record can hold: `NSString`, `NSNumber`, `NSArray`, `NSDate`, `NSData`, `CKRecord.Reference`,
    /// `CKAsset` and `CLLocation` adopt it.
    public protocol __CKRecordObjCValue: NSObjectProtocol {}

    // swiftinterface: `public typealias CKRecordValue = __CKRecordObjCValue`.
    /// The Objective-C protocol's Swift name.
    public typealias CKRecordValue = __CKRecordObjCValue

    // CKRecord.h: `@interface NSString (CKRecordValue) <CKRecordValue>`.
    extension NSString: __CKRecordObjCValue {}
    // CKRecord.h: `@interface NSNumber (CKRecordValue) <CKRecordValue>`.
    extension NSNumber: __CKRecordObjCValue {}
    // CKRecord.h: `@interface NSArray (CKRecordValue) <CKRecordValue>`.
    extension NSArray: __CKRecordObjCValue {}
    // CKRecord.h: `@interface NSDate (CKRecordValue) <CKRecordValue>`.
    extension NSDate: __CKRecordObjCValue {}
    // CKRecord.h: `@interface NSData (CKRecordValue) <CKRecordValue>`.
    extension NSData: __CKRecordObjCValue {}
#endif
