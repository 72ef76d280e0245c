#if CloudKitShim && !canImport(CloudKit)
    import Foundation

    // CLLocation.h: `typedef double CLLocationDegrees`.
    /// Degrees of latitude or longitude.
    public typealias CLLocationDegrees = Double
    // CLLocation.h: `typedef double CLLocationDistance`.
    /// A distance in meters.
    public typealias CLLocationDistance = Double
    // CLLocation.h: `typedef double CLLocationAccuracy`.
    /// An accuracy in meters; negative means invalid.
    public typealias CLLocationAccuracy = Double
    // CLLocation.h: `typedef double CLLocationDirection`.
    /// A direction in degrees from true north; negative means unknown.
    public typealias CLLocationDirection = Double
    // CLLocation.h: `typedef double CLLocationSpeed`.
    /// A speed in meters per second; negative means unknown.
    public typealias CLLocationSpeed = Double

    // CLLocation.h: `typedef struct CLLocationCoordinate2D { CLLocationDegrees latitude; CLLocationDegrees
    // longitude; } CLLocationCoordinate2D`, imported with `init(latitude:longitude:)`.
    /// A latitude and a longitude.
    public struct CLLocationCoordinate2D: Sendable {
        /// The latitude in degrees.
        public var latitude: CLLocationDegrees
        /// The longitude in degrees.
        public var longitude: CLLocationDegrees

        /// Creates a coordinate.
        public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    // CLLocation.h: `@interface CLLocation : NSObject <NSCopying, NSSecureCoding>`; CloudKit adds
    // `@interface CLLocation (CKRecordValue) <CKRecordValue>` (CKRecord.h).
    /// A location as Core Location reports it.
    public class CLLocation: NSObject, __CKRecordObjCValue {
        // CLLocation.h: `@property (readonly, nonatomic) CLLocationCoordinate2D coordinate`.
        /// The latitude and longitude.
        public let coordinate: CLLocationCoordinate2D
        // CLLocation.h: `@property (readonly, nonatomic) CLLocationDistance altitude`.
        /// The altitude in meters; valid when `verticalAccuracy` is not negative.
        public let altitude: CLLocationDistance
        // CLLocation.h: `@property (readonly, nonatomic) CLLocationAccuracy horizontalAccuracy`.
        /// The radius of uncertainty of the coordinate; negative when the coordinate is invalid.
        public let horizontalAccuracy: CLLocationAccuracy
        // CLLocation.h: `@property (readonly, nonatomic) CLLocationAccuracy verticalAccuracy`.
        /// The uncertainty of the altitude; negative when the altitude is invalid.
        public let verticalAccuracy: CLLocationAccuracy
        // CLLocation.h: `@property (readonly, nonatomic) CLLocationDirection course`.
        /// The direction of travel; negative when unknown.
        public let course: CLLocationDirection
        // CLLocation.h: `@property (readonly, nonatomic) CLLocationSpeed speed`.
        /// The speed; negative when unknown.
        public let speed: CLLocationSpeed
        // CLLocation.h: `@property (readonly, nonatomic, copy) NSDate *timestamp`.
        /// When the location was measured.
        public let timestamp: Date

        // CLLocation.h: `- (instancetype)initWithCoordinate:(CLLocationCoordinate2D)coordinate
        // altitude:(CLLocationDistance)altitude horizontalAccuracy:(CLLocationAccuracy)hAccuracy
        // verticalAccuracy:(CLLocationAccuracy)vAccuracy course:(CLLocationDirection)course
        // speed:(CLLocationSpeed)speed timestamp:(NSDate *)timestamp`.
        /// Creates a location with every measurement.
        public init(
            coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
            horizontalAccuracy hAccuracy: CLLocationAccuracy, verticalAccuracy vAccuracy: CLLocationAccuracy,
            course: CLLocationDirection, speed: CLLocationSpeed, timestamp: Date
        ) {
            self.coordinate = coordinate
            self.altitude = altitude
            self.horizontalAccuracy = hAccuracy
            self.verticalAccuracy = vAccuracy
            self.course = course
            self.speed = speed
            self.timestamp = timestamp
        }
    }
#endif
