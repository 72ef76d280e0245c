#if canImport(CloudKit)
    import CloudKit
    import CoreLocation
#elseif CloudKitShim && os(Linux)
    import CloudKitAPIShim
#endif

#if canImport(CloudKit) || (CloudKitShim && os(Linux))
    import Foundation
    import RecordCodable

    /// ``RecordLocation`` and Core Location's `CLLocation`, whose missing measurements are sentinel values.
    ///
    /// - A missing horizontal or vertical accuracy is written as `-1`, Core Location's "invalid"; a negative
    ///   accuracy reads as `nil`. The coordinates are always kept.
    /// - A missing speed or course is written as `-1`, Core Location's "unknown"; a negative one reads as `nil`
    ///   (so a negative speed or course given in a record also comes back as `nil`).
    /// - A missing altitude is written as `0` with a negative vertical accuracy; an altitude of exactly `0`
    ///   whose vertical accuracy is negative reads as `nil`. Any other altitude is kept.
    /// - A missing timestamp is written as the reference date (2001-01-01 00:00:00 UTC), which reads as `nil`:
    ///   a `CLLocation` always has one.
    enum LocationConversion {
        /// The timestamp that stands for none.
        static let noTimestamp = Date(timeIntervalSinceReferenceDate: 0)

        static func clLocation(_ location: RecordLocation) -> CLLocation {
            CLLocation(
                coordinate: CLLocationCoordinate2D(latitude: location.latitude, longitude: location.longitude),
                altitude: location.altitude ?? 0,
                horizontalAccuracy: location.horizontalAccuracy ?? -1,
                verticalAccuracy: location.verticalAccuracy ?? -1,
                course: location.course ?? -1,
                speed: location.speed ?? -1,
                timestamp: location.timestamp ?? noTimestamp)
        }

        static func recordLocation(_ location: CLLocation) -> RecordLocation {
            let altitudeInvalid = location.verticalAccuracy < 0
            return RecordLocation(
                latitude: location.coordinate.latitude,
                longitude: location.coordinate.longitude,
                altitude: altitudeInvalid && location.altitude == 0 ? nil : location.altitude,
                horizontalAccuracy: known(location.horizontalAccuracy),
                verticalAccuracy: known(location.verticalAccuracy),
                speed: known(location.speed),
                course: known(location.course),
                timestamp: location.timestamp == noTimestamp ? nil : location.timestamp)
        }

        /// `value`, unless it is Core Location's negative "invalid" or "unknown".
        private static func known(_ value: Double) -> Double? {
            value < 0 ? nil : value
        }
    }
#endif
