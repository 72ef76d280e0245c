import CloudKitWebServices
import Testing

@Suite("CloudKitRetryPolicy: how long to wait, and when to give up")
struct RetryPolicyTests {
    @Test("Without a delay from the server the wait doubles from the initial delay up to the maximum")
    func exponentialBackoff() {
        let policy = CloudKitRetryPolicy(maximumRetries: 10, random: { 0 })
        let waits = (0..<10).map { policy.delay(beforeRetry: $0, serverDelay: nil) }
        #expect(waits == [1, 2, 4, 8, 16, 32, 60, 60, 60, 60].map { Duration.seconds($0) })
        #expect(policy.delay(beforeRetry: 10, serverDelay: nil) == nil)
    }

    @Test("The jitter takes off a random share of at most `jitter` of the wait")
    func jitter() {
        let most = CloudKitRetryPolicy(jitter: 0.5, random: { 0.999_999 })
        let none = CloudKitRetryPolicy(jitter: 0.5, random: { 0 })
        let half = CloudKitRetryPolicy(jitter: 0.5, random: { 0.5 })
        #expect(none.delay(beforeRetry: 2, serverDelay: nil) == .seconds(4))
        #expect(half.delay(beforeRetry: 2, serverDelay: nil) == .seconds(3))
        let shortest = most.delay(beforeRetry: 2, serverDelay: nil) ?? .zero
        #expect(shortest > .seconds(2) && shortest < .milliseconds(2001))
    }

    @Test("The server's delay is obeyed as it is, unless longer than the longest the policy waits")
    func serverDelay() {
        let policy = CloudKitRetryPolicy(maximumServerDelay: .seconds(120), random: { 0.9 })
        #expect(policy.delay(beforeRetry: 0, serverDelay: 30) == .seconds(30))
        #expect(policy.delay(beforeRetry: 3, serverDelay: 0.25) == .milliseconds(250))
        #expect(policy.delay(beforeRetry: 0, serverDelay: 120) == .seconds(120))
        #expect(policy.delay(beforeRetry: 0, serverDelay: 121) == nil)
        #expect(policy.delay(beforeRetry: 0, serverDelay: .infinity) == nil)
        #expect(policy.delay(beforeRetry: 0, serverDelay: -1) == nil)
        #expect(policy.delay(beforeRetry: 5, serverDelay: 1) == nil)
    }

    @Test("A jitter or a random number that is NaN takes nothing off, rather than trap in Duration")
    func notANumber() {
        let nanJitter = CloudKitRetryPolicy(jitter: .nan, random: { 0.5 })
        let nanRandom = CloudKitRetryPolicy(jitter: 0.5, random: { .nan })
        #expect(nanJitter.delay(beforeRetry: 2, serverDelay: nil) == .seconds(4))
        #expect(nanRandom.delay(beforeRetry: 2, serverDelay: nil) == .seconds(4))
        let outOfRange = CloudKitRetryPolicy(jitter: 7, random: { -3 })
        #expect(outOfRange.delay(beforeRetry: 2, serverDelay: nil) == .seconds(4))
    }

    @Test("No retries at all, and a retry count far past any limit, give up without trapping")
    func bounds() {
        #expect(CloudKitRetryPolicy.never.delay(beforeRetry: 0, serverDelay: nil) == nil)
        let many = CloudKitRetryPolicy(maximumRetries: .max, initialDelay: .seconds(1_000_000), random: { 0 })
        #expect(many.delay(beforeRetry: .max - 1, serverDelay: nil) == .seconds(60))
        #expect(many.delay(beforeRetry: -1, serverDelay: nil) == nil)
    }
}
