import Foundation

/// What reading one request off a connection gave.
enum HTTPReadOutcome {
    /// A whole request.
    case request(StandInRequest)
    /// A request the server will not serve: answer this status with this reason, then close.
    case refused(status: Int, reason: String)
    /// Nothing to answer: the client closed, the connection failed, or it was silent too long.
    case closed
}

/// HTTP/1.1 as the loopback server speaks it: one request per connection, its body framed by
/// `Content-Length`, and every answer framed by `Content-Length` with `Connection: close`.
///
/// One request per connection keeps faults exact. On a kept-alive connection, a client whose
/// request meets a closed connection cannot tell whether the server read it, and libcurl (under
/// `URLSession` on Linux) may send it again on a new connection by itself when a connection it
/// reused closes before any answer ("Connection died, retrying a fresh connect"): a dropped
/// answer could become a duplicate request that the test did not script. With `Connection: close`, every
/// request has a connection of its own, and a drop reaches the client as the error it is.
enum HTTPWire {
    /// The most bytes a request's line and headers may take.
    static let maxHeadBytes = 64 * 1024

    /// Reads one request: its head up to the blank line, then `Content-Length` bytes of body.
    /// Answers `100 Continue` to a client that waits for it before sending the body.
    static func readRequest(from descriptor: Int32, maxBodyBytes: Int) -> HTTPReadOutcome {
        var buffer: [UInt8] = []
        var headEnd: Int?
        while headEnd == nil, buffer.count <= maxHeadBytes {
            guard let chunk = LoopbackSocket.read(descriptor, limit: 16 * 1024), !chunk.isEmpty else {
                return .closed
            }
            buffer += chunk
            headEnd = endOfHead(in: buffer)
        }
        guard let headEnd, headEnd <= maxHeadBytes else {
            return .refused(status: 431, reason: "The request's head is longer than \(maxHeadBytes) bytes.")
        }
        let head: Head
        switch parseHead(buffer[..<headEnd]) {
        case .success(let parsed): head = parsed
        case .failure(let refusal): return .refused(status: 400, reason: refusal.reason)
        }
        var request = StandInRequest(method: head.method, path: head.target, headers: head.headers)
        if request.header("Transfer-Encoding") != nil {
            return .refused(status: 501, reason: "This server reads bodies framed by Content-Length only.")
        }
        let lengthText = request.header("Content-Length") ?? "0"
        guard let length = Int(lengthText.trimmingCharacters(in: .whitespaces)), length >= 0 else {
            return .refused(status: 400, reason: "Content-Length \(lengthText) is not a count of bytes.")
        }
        guard length <= maxBodyBytes else {
            return .refused(status: 413, reason: "The body of \(length) bytes is over this server's \(maxBodyBytes).")
        }
        if request.header("Expect")?.lowercased() == "100-continue" {
            guard LoopbackSocket.write(descriptor, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return .closed }
        }
        var body = Array(buffer[(headEnd + 4)...])
        while body.count < length {
            guard let chunk = LoopbackSocket.read(descriptor, limit: min(length - body.count, 256 * 1024)),
                !chunk.isEmpty
            else { return .closed }
            body += chunk
        }
        guard body.count == length else {
            return .refused(status: 400, reason: "The client sent more bytes than its Content-Length of \(length).")
        }
        request.body = Data(body)
        return .request(request)
    }

    /// Reads and drops what the client sends until it closes, the read times out, or `limit`
    /// bytes have come.
    static func discardUntilClosed(_ descriptor: Int32, atMost limit: Int) {
        var discarded = 0
        while discarded < limit, let chunk = LoopbackSocket.read(descriptor, limit: 64 * 1024), !chunk.isEmpty {
            discarded += chunk.count
        }
    }

    /// An answer's head, with the framing headers this server owns (`Content-Length`,
    /// `Connection`) set by it and any the handler gave left out.
    static func head(of response: StandInResponse, announcingLength length: Int) -> [UInt8] {
        var text = "HTTP/1.1 \(response.status) \(reasonPhrase(response.status))\r\n"
        for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) {
            let lowered = name.lowercased()
            if lowered == "content-length" || lowered == "connection" || lowered == "transfer-encoding" { continue }
            text += "\(name): \(value)\r\n"
        }
        text += "Content-Length: \(length)\r\nConnection: close\r\n\r\n"
        return Array(text.utf8)
    }

    /// A plain-text answer for a request the server refused.
    static func refusal(status: Int, reason: String) -> StandInResponse {
        StandInResponse(status: status, headers: ["Content-Type": "text/plain; charset=UTF-8"], body: Data(reason.utf8))
    }

    private struct Head {
        var method: String
        var target: String
        var headers: [String: String]
    }

    private struct Refusal: Error {
        var reason: String
    }

    private static func endOfHead(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    private static func parseHead(_ bytes: ArraySlice<UInt8>) -> Result<Head, Refusal> {
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines.first?.split(separator: " ", omittingEmptySubsequences: true) ?? []
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else {
            return .failure(Refusal(reason: "The request line \"\(lines.first ?? "")\" is not METHOD TARGET HTTP/1.x."))
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else {
                return .failure(Refusal(reason: "The header line \"\(line)\" has no colon."))
            }
            let name = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
            let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            // A repeated header's values join with commas, as HTTP allows.
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        return .success(Head(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers))
    }

    private static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 409: "Conflict"
        case 412: "Precondition Failed"
        case 413: "Payload Too Large"
        case 421: "Misdirected Request"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        default: "Status \(status)"
        }
    }
}
