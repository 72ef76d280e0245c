import Foundation
import Testing

@testable import RecordCodable

/// What a `RecordServerError` tells a client to do next.
@Suite("Server bodies: server errors")
struct ServerBodiesErrorTests {
    private func error(_ code: RecordServerError.Code, retryAfter: Double? = nil) -> RecordServerError {
        RecordServerError(serverErrorCode: code, retryAfter: retryAfter)
    }

    /// The codes of Apple's CloudKit Web Services reference ("Error Codes").
    static let documentedCodes = [
        "ACCESS_DENIED", "ATOMIC_ERROR", "AUTHENTICATION_FAILED", "AUTHENTICATION_REQUIRED", "BAD_REQUEST", "CONFLICT",
        "EXISTS", "INTERNAL_ERROR", "NOT_FOUND", "QUOTA_EXCEEDED", "THROTTLED", "TRY_AGAIN_LATER",
        "VALIDATING_REFERENCE_ERROR", "ZONE_NOT_FOUND",
    ]

    @Test("Every documented code has a constant, as have the codes real traffic adds")
    func codeConstants() {
        let known = Set(RecordServerError.Code.known.map(\.rawValue))
        #expect(known.isSuperset(of: Self.documentedCodes))
        #expect(
            known.subtracting(Self.documentedCodes)
                == [
                    "SERVER_RECORD_CHANGED", "INVALID_ARGUMENTS", "LIMIT_EXCEEDED", "SERVICE_UNAVAILABLE",
                    "UNIQUE_FIELD_ERROR", "ZONE_BUSY",
                ])
        #expect(known.count == RecordServerError.Code.known.count)
    }

    @Test("A conflict is recognised under both codes the server uses")
    func conflicts() {
        #expect(error(.conflict).isConflict)
        #expect(error(.serverRecordChanged).isConflict)
        #expect(error(.init(rawValue: "SERVER_RECORD_CHANGED")).isConflict)
        #expect(!error(.exists).isConflict)
        #expect(!error(.conflict).isRetryable)
    }

    @Test(
        "Which errors are worth retrying",
        arguments: [
            ("THROTTLED", true), ("TRY_AGAIN_LATER", true), ("SERVICE_UNAVAILABLE", true), ("ZONE_BUSY", true),
            ("INTERNAL_ERROR", false), ("CONFLICT", false), ("SERVER_RECORD_CHANGED", false), ("BAD_REQUEST", false),
            ("QUOTA_EXCEEDED", false), ("ATOMIC_ERROR", false), ("NOT_FOUND", false), ("SOMETHING_NEW", false),
        ])
    func retryable(code: String, retryable: Bool) {
        #expect(error(.init(rawValue: code)).isRetryable == retryable)
        // The server's retryAfter says that a retry will help, whatever the code.
        #expect(error(.init(rawValue: code), retryAfter: 3).isRetryable)
    }

    @Test("When to retry: after the server's retryAfter, else after a delay that doubles, up to 64 seconds")
    func retryDelays() {
        #expect(error(.throttled, retryAfter: 2.5).retryDelay(attempt: 0) == 2.5)
        #expect(error(.throttled, retryAfter: 2.5).retryDelay(attempt: 4) == 2.5)
        #expect(error(.internalError, retryAfter: 10).retryDelay() == 10)
        #expect((0...8).map { error(.zoneBusy).retryDelay(attempt: $0) } == [1, 2, 4, 8, 16, 32, 64, 64, 64])
        #expect(error(.zoneBusy).retryDelay(attempt: -3) == 1)
        #expect(error(.zoneBusy).retryDelay(attempt: .max) == 64)
        #expect(error(.tryAgainLater, retryAfter: -1).retryDelay() == 1)
        #expect(error(.badRequest).retryDelay() == nil)
        #expect(error(.conflict).retryDelay(attempt: 2) == nil)
    }

    @Test("Each known code has a recovery suggestion of its own; any other code a general one")
    func recoverySuggestions() throws {
        let general = try #require(error(.init(rawValue: "SOMETHING_NEW")).recoverySuggestion)
        for code in RecordServerError.Code.known {
            let suggestion = try #require(error(code).recoverySuggestion, "\(code)")
            #expect(suggestion != general, "\(code)")
        }
        #expect(error(.conflict).recoverySuggestion == error(.serverRecordChanged).recoverySuggestion)
        #expect(error(.conflict).recoverySuggestion?.contains("fetch it again") == true)
        let localized: any LocalizedError = error(.zoneNotFound)
        #expect(localized.recoverySuggestion?.contains("zones/modify") == true)
    }

    @Test("An error body as the server sends it, and the keys of a zone error")
    func errorBodies() throws {
        let body = try ServerBodyCoding.decode(
            RecordServerError.self,
            #"{"uuid":"6F9619FF-8B86-D011-B42D-00C04FC964FF","serverErrorCode":"BAD_REQUEST","reason":"Queried type is not marked indexable"}"#
        )
        #expect(body.serverErrorCode == .badRequest)
        #expect(body.uuid == "6F9619FF-8B86-D011-B42D-00C04FC964FF")
        #expect(body.description == "The record failed with BAD_REQUEST: Queried type is not marked indexable")
        try ServerBodyCoding.roundTrip(body)

        let everything = RecordServerError(
            recordName: "r", reason: "busy", serverErrorCode: .zoneBusy, retryAfter: 2, uuid: "u",
            redirectURL: "https://idmsa.apple.com/x", zoneID: RecordZoneID(zoneName: "Z", ownerRecordName: "_o"))
        #expect(
            try ServerBodyCoding.roundTrip(everything)
                == #"{"reason":"busy","recordName":"r","redirectURL":"https:\/\/idmsa.apple.com\/x","retryAfter":2,"#
                + #""serverErrorCode":"ZONE_BUSY","uuid":"u","zoneID":{"ownerRecordName":"_o","zoneName":"Z"}}"#)
    }

    @Test("A retryAfter that JSON cannot carry is an EncodingError at its path, on both JSON paths")
    func nonFiniteRetryAfter() throws {
        for seconds in [Double.infinity, -.infinity, .nan] {
            let response = RecordsModifyResponse(records: [
                .failure(RecordServerError(serverErrorCode: .throttled, retryAfter: seconds))
            ])
            for encode in [{ try JSONEncoder().encode(response) }, { try RecordJSONEncoder().encode(response) }] {
                let error = expectEncodingError(at: "records.Index 0.retryAfter") { _ = try encode() }
                #expect(error?.context?.debugDescription == "Unable to encode Double.\(seconds) directly in JSON.")
            }
        }
    }

    @Test("A malformed error body is refused at the value at fault; unknown keys are not")
    func errorBodyErrors() throws {
        expectDecodingError("keyNotFound", at: "serverErrorCode") {
            _ = try ServerBodyCoding.decode(RecordServerError.self, #"{"reason":"r"}"#)
        }
        expectDecodingError("typeMismatch", at: "retryAfter") {
            _ = try ServerBodyCoding.decode(
                RecordServerError.self, #"{"serverErrorCode":"THROTTLED","retryAfter":"soon"}"#)
        }
        expectDecodingError("keyNotFound", at: "zoneID.zoneName") {
            _ = try ServerBodyCoding.decode(RecordServerError.self, #"{"serverErrorCode":"EXISTS","zoneID":{}}"#)
        }
        let withNewKeys = try ServerBodyCoding.decode(
            RecordServerError.self, #"{"serverErrorCode":"THROTTLED","subscriptionID":"s","new":{}}"#)
        #expect(withNewKeys.serverErrorCode == .throttled)
    }
}
