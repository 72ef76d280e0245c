import Foundation

/// A geographic location, the record form of Core Location's `CLLocation`.
///
/// Only the coordinates are required; the other measurements are stored when present:
///
/// ```swift
/// let office = RecordLocation(latitude: 37.3349, longitude: -122.0090, horizontalAccuracy: 5)
/// ```
public struct RecordLocation: Hashable, Sendable, Codable {
    /// The latitude in degrees.
    public var latitude: Double
    /// The longitude in degrees.
    public var longitude: Double
    /// The altitude in meters.
    public var altitude: Double?
    /// The radius of uncertainty of the coordinates, in meters.
    public var horizontalAccuracy: Double?
    /// The uncertainty of the altitude, in meters.
    public var verticalAccuracy: Double?
    /// The speed in meters per second.
    public var speed: Double?
    /// The direction of travel in degrees from true north.
    public var course: Double?
    /// When the location was measured.
    public var timestamp: Date?

    /// Creates a location.
    ///
    /// - Parameters:
    ///   - latitude: The latitude in degrees.
    ///   - longitude: The longitude in degrees.
    ///   - altitude: The altitude in meters.
    ///   - horizontalAccuracy: The radius of uncertainty of the coordinates, in meters.
    ///   - verticalAccuracy: The uncertainty of the altitude, in meters.
    ///   - speed: The speed in meters per second.
    ///   - course: The direction of travel in degrees from true north.
    ///   - timestamp: When the location was measured.
    public init(
        latitude: Double,
        longitude: Double,
        altitude: Double? = nil,
        horizontalAccuracy: Double? = nil,
        verticalAccuracy: Double? = nil,
        speed: Double? = nil,
        course: Double? = nil,
        timestamp: Date? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.speed = speed
        self.course = course
        self.timestamp = timestamp
    }

    /// The location's cost against a record's size limit: 8 bytes for each number present.
    var encodedSize: Int {
        let optionals: [Double?] = [altitude, horizontalAccuracy, verticalAccuracy, speed, course]
        let present = optionals.reduce(0) { $1 == nil ? $0 : $0 + 1 } + (timestamp == nil ? 0 : 1)
        return 8 * (2 + present)
    }
}
