import Foundation
import Testing

@testable import RecordCodable

/// A failed HTTP response made into a `RecordServerError`: its status, its header fields and its
/// body, whatever the body is.
@Suite("Server bodies: errors of HTTP responses")
struct ServerBodiesHTTPErrorTests {
    @Test("A 503 whose body says TRY_AGAIN_LATER waits as long as its Retry-After header asks")
    func retryAfterHeaderSeconds() throws {
        let body = Data(#"{"uuid":"6F9619FF","serverErrorCode":"TRY_AGAIN_LATER","reason":"Service unavailable"}"#.utf8)
        let error = RecordServerError(httpStatus: 503, headers: ["Retry-After": "2"], body: body)
        #expect(error.serverErrorCode == .tryAgainLater)
        #expect(error.reason == "Service unavailable")
        #expect(error.uuid == "6F9619FF")
        #expect(error.httpStatus == 503)
        #expect(error.httpHeader("retry-after") == "2")
        #expect(error.retryDelay() == 2)
        #expect(error.retryDelay(attempt: 5) == 2)
        // The status and header fields are not part of the error's JSON.
        #expect(
            try ServerBodyCoding.json(error)
                == #"{"reason":"Service unavailable","serverErrorCode":"TRY_AGAIN_LATER","uuid":"6F9619FF"}"#)
        // The longer of the body's retryAfter and the header's delay.
        var both = error
        both.retryAfter = 5
        #expect(both.retryDelay() == 5)
        both.retryAfter = 1
        #expect(both.retryDelay() == 2)
    }

    @Test("A plain-text 429 is a THROTTLED RecordServerError with its status, not a DecodingError")
    func plainTextThrottled() throws {
        let error = RecordServerError(
            httpStatus: 429, headers: ["retry-after": "7"], body: Data("Too Many Requests\n".utf8))
        #expect(error.serverErrorCode == .throttled)
        #expect(error.reason == "Too Many Requests")
        #expect(error.httpStatus == 429)
        #expect(error.isRetryable)
        #expect(error.retryDelay() == 7)
        // Without a header, the delay doubles from one second, as for any throttled request.
        let bare = RecordServerError(httpStatus: 429, body: Data("slow down".utf8))
        #expect(bare.retryDelay(attempt: 2) == 4)
        // A body that is JSON but not an error dictionary, or nothing, is read the same way.
        let html = RecordServerError(httpStatus: 502, body: Data("<html>Bad Gateway</html>".utf8))
        #expect(html.serverErrorCode == .tryAgainLater)
        let empty = RecordServerError(httpStatus: 500, body: Data())
        #expect(empty.serverErrorCode == .internalError)
        #expect(empty.reason == nil)
        let notAnError = RecordServerError(httpStatus: 404, body: Data(#"{"serverErrorCode":5}"#.utf8))
        #expect(notAnError.serverErrorCode == .notFound)
        #expect(notAnError.reason == #"{"serverErrorCode":5}"#)
    }

    @Test("Retry-After as an HTTP date, in each form HTTP allows, counted from now")
    func retryAfterHeaderDate() throws {
        let now = Date(timeIntervalSince1970: 784_111_747)  // Sun, 06 Nov 1994 08:49:07 GMT
        for date in ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"] {
            let error = RecordServerError(httpStatus: 503, headers: ["Retry-After": date], body: Data())
            #expect(error.retryDelay(now: now) == 30, "\(date)")
        }
        // A date already past asks for no wait; a value that is neither is ignored.
        let past = RecordServerError(
            httpStatus: 503, headers: ["Retry-After": "Sun, 06 Nov 1994 08:49:37 GMT"], body: Data())
        #expect(past.retryDelay(now: now.addingTimeInterval(60)) == 0)
        let garbled = RecordServerError(httpStatus: 503, headers: ["Retry-After": "soon"], body: Data())
        #expect(garbled.retryDelay(attempt: 1) == 2)
        // A Retry-After makes any error worth retrying, as a retryAfter in the body does.
        let failing = RecordServerError(httpStatus: 500, headers: ["Retry-After": "3"], body: Data())
        #expect(failing.isRetryable)
        #expect(failing.retryDelay() == 3)
        #expect(RecordServerError(httpStatus: 500, body: Data()).retryDelay() == nil)
    }

    @Test(
        "The code an HTTP status stands for when the body does not say",
        arguments: [
            (400, "BAD_REQUEST"), (401, "AUTHENTICATION_FAILED"), (403, "ACCESS_DENIED"), (404, "NOT_FOUND"),
            (409, "CONFLICT"), (412, "VALIDATING_REFERENCE_ERROR"), (413, "QUOTA_EXCEEDED"),
            (421, "AUTHENTICATION_REQUIRED"), (429, "THROTTLED"), (500, "INTERNAL_ERROR"), (503, "TRY_AGAIN_LATER"),
            (502, "TRY_AGAIN_LATER"), (504, "TRY_AGAIN_LATER"), (501, "INTERNAL_ERROR"), (418, "BAD_REQUEST"),
            (302, "HTTP_302"),
        ])
    func codeOfStatus(status: Int, code: String) {
        #expect(RecordServerError.Code(httpStatus: status).rawValue == code)
    }
}
