import Foundation

/// The request-and-answer pairs recorded from the real CloudKit server that the fixtures in
/// `Tests/Fixtures/cloudkit-wire/` hold, found from their `MANIFEST.json`.
///
/// The fixtures keep bodies, one per file, and the manifest says where each body was recorded.
/// A request and an answer form a pair when the manifest places them at the same place of the
/// same recording: the same interaction of one of icloud_photos_downloader's vcrpy cassettes
/// (its locator, or one of its `alsoAt` places, reads `interactions[N] <scope> <operation>
/// request.body` and `… response.body.string`), or the same `curl` call of a blog post. A body
/// recorded at several places joins a pair at each, so one request can have several answers,
/// each from another session. The 24 pairs (request file -> response file, operation; paths
/// `/database/1/com.apple.photos.cloud/production/…` unless said):
///
/// | Request | Answer | Operation |
/// |---|---|---|
/// | `icloudpd/batchQueryRequest-autodelete_photos-4` | `icloudpd/batchQueryResponse-autodelete_photos-4` | `private/internal/records/query/batch` |
/// | same | `icloudpd/batchQueryResponse-download_autodelete_photos_part1-4` | same |
/// | same | `icloudpd/batchQueryResponse-download_autodelete_photos_part2-4` | same |
/// | same | `icloudpd/batchQueryResponse-listing_photos-7` | same |
/// | `icloudpd/batchQueryRequest-listing_photos-8` | `icloudpd/batchQueryResponse-listing_photos-8` | `shared/internal/records/query/batch` |
/// | `icloudpd/modifyRequest-download_autodelete_photos_part1-7` | `icloudpd/modifyResponse-download_autodelete_photos_part1-7` | `private/records/modify` |
/// | `icloudpd/modifyRequest-listing_photos-12` | `icloudpd/modifyResponse-listing_photos-12` (`{}`) | `private/records/modify` |
/// | `icloudpd/modifyRequest-listing_photos_keep_icloud_recent_days-8` | same | same |
/// | `icloudpd/modifyRequest-listing_photos_keep_icloud_recent_days-9` | same | same |
/// | `icloudpd/queryRequest-autodelete_photos-2` | `icloudpd/queryResponse-autodelete_photos-2` | `private/records/query` |
/// | same | `icloudpd/queryResponse-download_autodelete_photos_part1-1` | same |
/// | same | `icloudpd/queryResponse-download_autodelete_photos_part2-2` | same |
/// | same | `icloudpd/queryResponse-listing_albums-1` | same |
/// | same | `icloudpd/queryResponse-listing_albums-5` | same |
/// | same | `icloudpd/queryResponse-listing_photos-5` | same |
/// | `icloudpd/queryRequest-autodelete_photos-5` | `icloudpd/queryResponse-autodelete_photos-5` (32 records) | `private/records/query` |
/// | `icloudpd/queryRequest-autodelete_photos-6` | `icloudpd/queryResponse-autodelete_photos-6` (none) | `private/records/query` |
/// | `icloudpd/queryRequest-download_autodelete_photos_part1-5` | `icloudpd/queryResponse-listing_photos-9` (200 records) | `private/records/query` |
/// | `icloudpd/queryRequest-download_autodelete_photos_part2-6` | `icloudpd/queryResponse-download_autodelete_photos_part2-6` | `private/records/query` |
/// | `icloudpd/queryRequest-listing_albums-2` | `icloudpd/queryResponse-listing_albums-1` | `shared/records/query` |
/// | same | `icloudpd/queryResponse-listing_photos-6` | same |
/// | `icloudpd/queryRequest-listing_albums-6` | `icloudpd/queryResponse-listing_albums-6` (17 records) | `private/records/query` |
/// | `icloudpd/queryRequest-listing_photos-10` | `icloudpd/queryResponse-listing_photos-10` | `shared/records/query` |
/// | `knightsc/lookupRequest-ticket` | `knightsc/lookupResponse-ticket` | `public/records/lookup`, at `/database/1/com.apple.gk.ticket-delivery/production/` |
///
/// Not pairs: the real server's bodies with no other half in the fixtures (the two `zones/list`
/// answers, whose requests the fixtures do not keep; talktocloud's query answer and record, kept without
/// their requests), and every test stub and documentation example (`realServer: false`; Apple's
/// UploadAssets example has a request and an answer, but they were never sent).
///
/// Every answer paired here was a successful one; the fixtures keep no status, so each pair's is
/// `200`.
public enum RecordedTraffic {
    /// `Tests/Fixtures/cloudkit-wire`, found from this file.
    public static let fixturesDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Replay
        .deletingLastPathComponent()  // CloudKitStandIn
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures/cloudkit-wire")

    /// The container each source's requests went to: the blog post's curl call says so; the
    /// cassettes are of Apple's Photos container.
    private static let containers = [
        "icloud-photos-downloader/icloud_photos_downloader": "com.apple.photos.cloud",
        "knightsc/knightsc.github.io": "com.apple.gk.ticket-delivery",
    ]

    /// The knightsc post's curl call, whose locator names no operation: a lookup in the public
    /// database (its URL is `…/database/1/com.apple.gk.ticket-delivery/production/public/records/lookup`).
    private static let curlOperations = ["ticket-lookup": "public/records/lookup"]

    /// Why the pairs could not be read.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, with the file.
        public var description: String
    }

    /// Every recorded pair, in the order of the manifest's request files, then of their answers.
    ///
    /// - Throws: ``Failure`` when the manifest or a body it lists cannot be read.
    public static func pairs(in directory: URL = fixturesDirectory) throws -> [RecordedExchange] {
        let manifestFile = directory.appendingPathComponent("MANIFEST.json")
        let entries: [ManifestEntry]
        do {
            entries = try JSONDecoder().decode([ManifestEntry].self, from: Data(contentsOf: manifestFile))
        } catch {
            throw Failure(description: "\(manifestFile.path) cannot be read: \(error)")
        }
        // The request and the answer heard at each place of each recording.
        var places: [String: (requests: [Half], answers: [Half])] = [:]
        var order: [String] = []
        for entry in entries where entry.realServer {
            for place in entry.places {
                guard let half = Half(entry: entry, place: place) else { continue }
                if places[half.place] == nil { order.append(half.place) }
                if half.isRequest {
                    places[half.place, default: ([], [])].requests.append(half)
                } else {
                    places[half.place, default: ([], [])].answers.append(half)
                }
            }
        }
        var found: [(request: Half, answer: Half)] = []
        var seen: Set<String> = []
        for place in order {
            guard let heard = places[place], heard.requests.count == 1, heard.answers.count == 1,
                let request = heard.requests.first, let answer = heard.answers.first,
                request.path == answer.path, seen.insert("\(request.file) \(answer.file)").inserted
            else { continue }
            found.append((request, answer))
        }
        found.sort { ($0.request.file, $0.answer.file) < ($1.request.file, $1.answer.file) }
        return try found.map { pair in
            RecordedExchange(
                name: "\(pair.request.file) -> \(pair.answer.file)", path: pair.request.path,
                requestBody: try body(pair.request.file, in: directory),
                responseBody: try body(pair.answer.file, in: directory))
        }
    }

    private static func body(_ file: String, in directory: URL) throws -> Data {
        let url = directory.appendingPathComponent(file)
        do {
            return try Data(contentsOf: url)
        } catch {
            throw Failure(description: "\(url.path) cannot be read: \(error)")
        }
    }

    /// One entry of MANIFEST.json, as far as pairing needs it.
    private struct ManifestEntry: Decodable {
        struct Source: Decodable {
            var repo: String
            var path: String
            var locator: String
        }

        var file: String
        var realServer: Bool
        var source: Source
        var alsoAt: [String]

        /// Each place the body was recorded at: the repository, the recording's file, and the
        /// locator within it.
        var places: [(repo: String, recording: String, locator: String)] {
            var all = [(source.repo, source.path, source.locator)]
            for other in alsoAt {
                // "owner/name:path#locator"
                let (location, locator) = other.splitOnce("#")
                let (repo, recording) = location.splitOnce(":")
                all.append((repo, recording, locator))
            }
            return all
        }
    }

    /// A request or an answer at one place of a recording.
    private struct Half {
        var file: String
        var place: String
        var path: String
        var isRequest: Bool

        init?(entry: ManifestEntry, place: (repo: String, recording: String, locator: String)) {
            guard let container = RecordedTraffic.containers[place.repo] else { return nil }
            let words = place.locator.split(separator: " ").map(String.init)
            let operation: String
            let at: String
            if words.count == 4, words[0].hasPrefix("interactions["), words[3].hasPrefix("re") {
                // "interactions[N] <scope> <operation> request.body" / "… response.body.string"
                operation = "\(words[1])/\(words[2])"
                at = words[0]
                isRequest = words[3].hasPrefix("request.")
            } else if words.count >= 3, let known = RecordedTraffic.curlOperations[words[0]], words[1] == "curl" {
                // "ticket-lookup curl --data" / "ticket-lookup curl output"
                operation = known
                at = words[0]
                isRequest = words[2] == "--data"
            } else {
                return nil
            }
            file = entry.file
            self.place = "\(place.repo):\(place.recording)#\(at)"
            path = "/database/1/\(container)/production/\(operation)"
        }
    }
}

extension String {
    /// The parts before and after the first `separator`; the whole and nothing when there is none.
    fileprivate func splitOnce(_ separator: Character) -> (String, String) {
        guard let index = firstIndex(of: separator) else { return (self, "") }
        return (String(self[..<index]), String(self[index...].dropFirst()))
    }
}
