import Foundation

/// When the client sends a request again after the server refused it for now, or after the
/// connection failed, and how long it waits first.
///
/// The client retries only what is safe to repeat (see ``CloudKitDatabase``): a read, or a write
/// the server said it did not apply. Before each retry it waits:
///
/// - the delay the server asked for, when it asks — the error's `retryAfter`, or the HTTP
///   `Retry-After` header of a `429` or `503` answer — unless that is longer than
///   ``maximumServerDelay``, when the client gives up and throws rather than wait;
/// - otherwise ``initialDelay`` doubled at each retry, up to ``maximumDelay``, less a random
///   share of up to ``jitter`` of it, so that many clients refused together do not come back
///   together.
///
/// After ``maximumRetries`` retries the client throws the last error. A cancelled task stops
/// waiting at once and throws `CancellationError`.
///
/// ```swift
/// var policy = CloudKitRetryPolicy()
/// policy.maximumRetries = 8
/// let database = CloudKitDatabase(
///     container: "iCloud.com.example.Notes", environment: .production, scope: .public,
///     credentials: credentials, retryPolicy: policy)
/// ```
public struct CloudKitRetryPolicy: Sendable {
    /// The most times one request is sent again: 5 by default. `0` never retries.
    public var maximumRetries: Int

    /// The wait before the first retry when the server does not say: 1 second by default.
    public var initialDelay: Duration

    /// The longest wait between two attempts when the server does not say: 60 seconds by
    /// default.
    public var maximumDelay: Duration

    /// The longest wait the server may ask for: 300 seconds by default. A request the server
    /// asks to repeat later than that is not retried: its error is thrown, with the server's
    /// `retryAfter`, for the caller to schedule.
    public var maximumServerDelay: Duration

    /// The share of each backoff delay taken off at random, from 0 (none) to 1: 0.5 by default,
    /// so that a delay of 4 seconds is between 2 and 4. A value outside `0...1` counts as the
    /// nearest end of it, and NaN as 0.
    public var jitter: Double

    /// Waits for the given time; throws `CancellationError` when the task is cancelled. By
    /// default `Task.sleep(for:)`; tests inject a closure that does not wait.
    public var sleep: @Sendable (Duration) async throws -> Void

    /// A random number in `0..<1` for the jitter; `Double.random(in: 0..<1)` by default.
    public var random: @Sendable () -> Double

    /// A policy that never retries.
    public static var never: CloudKitRetryPolicy {
        var policy = CloudKitRetryPolicy()
        policy.maximumRetries = 0
        return policy
    }

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - maximumRetries: The most times one request is sent again.
    ///   - initialDelay: The wait before the first retry when the server does not say.
    ///   - maximumDelay: The longest backoff wait.
    ///   - maximumServerDelay: The longest wait the server may ask for.
    ///   - jitter: The share of each backoff delay taken off at random, from 0 to 1.
    ///   - sleep: Waits for a time, throwing `CancellationError` when the task is cancelled.
    ///   - random: A random number in `0..<1`.
    public init(
        maximumRetries: Int = 5,
        initialDelay: Duration = .seconds(1),
        maximumDelay: Duration = .seconds(60),
        maximumServerDelay: Duration = .seconds(300),
        jitter: Double = 0.5,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.maximumRetries = maximumRetries
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.maximumServerDelay = maximumServerDelay
        self.jitter = jitter
        self.sleep = sleep
        self.random = random
    }

    /// The wait before retry number `retry` (0 for the first), or `nil` to give up.
    ///
    /// - Parameters:
    ///   - retry: How many retries were made already.
    ///   - serverDelay: The seconds the server asked to wait, or `nil` when it did not say.
    public func delay(beforeRetry retry: Int, serverDelay: Double?) -> Duration? {
        guard retry >= 0, retry < maximumRetries else { return nil }
        if let serverDelay {
            guard serverDelay.isFinite, serverDelay >= 0, serverDelay <= maximumServerDelay.seconds else { return nil }
            return .seconds(serverDelay)
        }
        // In seconds as a Double: doubling a Duration could overflow; 2^64 is past any maximum.
        let doubled = initialDelay.seconds * Double(sign: .plus, exponent: min(retry, 64), significand: 1)
        let capped = max(min(doubled, maximumDelay.seconds), 0)
        let share = Self.share(jitter) * Self.share(random())
        return .seconds(capped * (1 - share))
    }

    /// `value` within `0...1`, and 0 for NaN: `min` and `max` pass a NaN on, and
    /// `Duration.seconds(_:)` traps on one.
    private static func share(_ value: Double) -> Double {
        value.isNaN ? 0 : min(max(value, 0), 1)
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
