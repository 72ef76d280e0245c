import Foundation
import RecordCodable

extension RecordStore {
    /// How ``RecordStore/sync(with:options:)`` runs: its conflict policy, the zones it follows
    /// beyond those the store knows, and its bounds.
    public struct SyncOptions: Sendable {
        /// What to do with a record in conflict: ``ConflictPolicy/keepBoth`` by default.
        public var conflicts: ConflictPolicy

        /// Zones whose changes to fetch even when the store has nothing of them yet: those a new
        /// device starts following. The sync fetches the changes of every zone the store holds a
        /// record or a sync token of, and of these; a zone named here is asked for with its whole
        /// ID (its owner, for a zone shared with the user). The default zone is not followed unless it is
        /// here: CloudKit keeps no change history for it, and answers its changes with an error
        /// (see ``SyncReport/zoneFailures``).
        public var zones: [RecordZoneID]

        /// The most records the server may put in one page of a zone's changes; the server's
        /// own limit when `nil`.
        public var changesPageLimit: Int?

        /// The most rounds of sending, fetching and resolving: a round follows when the one before
        /// left records to send (a conflict resolved, a retryable refusal). 4 by default.
        public var maximumRounds: Int

        /// The most pages of changes fetched in one sync, over all rounds: a bound against a
        /// server that never stops saying `moreComing`. 100,000 by default. The next sync goes on
        /// from the last page applied.
        public var maximumPages: Int

        /// The longest wait, in seconds, before sending again records the server refused for now
        /// (`THROTTLED`, `ZONE_BUSY`…), which asks for a delay. A record whose delay is longer calls
        /// for no other round: it is left for the next sync, and listed in ``SyncReport/failures``.
        /// 30 by default. Whatever it says, a delay past `Int64.max` seconds is too long.
        public var maximumRetryDelay: Double

        /// Options with the given conflict policy and zones, and the default bounds.
        public init(conflicts: ConflictPolicy = .keepBoth, zones: [RecordZoneID] = []) {
            self.conflicts = conflicts
            self.zones = zones
            changesPageLimit = nil
            maximumRounds = 4
            maximumPages = 100_000
            maximumRetryDelay = 30
        }
    }
}
