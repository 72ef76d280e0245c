import Foundation

/// The body of the server's answer to an `assets/upload` request: where to upload each file.
///
/// ```json
/// {"tokens": [{"recordName": "4c016e24-…", "fieldName": "image", "url": "https://…"}]}
/// ```
///
/// `POST` each file's bytes to its token's ``Token/url`` within 15 minutes; the answer to that
/// upload is an ``AssetUploadResult``.
public struct AssetsUploadResponse: Hashable, Sendable, Codable, WireCodable {
    /// Where to upload the file of one asset field.
    public struct Token: Hashable, Sendable {
        /// The address to `POST` the file's bytes to.
        public var url: String

        /// The name of the record that will hold the asset; the server leaves it out when the
        /// request named none.
        public var recordName: String?

        /// The name of the asset field.
        public var fieldName: String

        /// Creates a token.
        ///
        /// - Parameters:
        ///   - url: The address to upload the file to.
        ///   - recordName: The name of the record that will hold the asset.
        ///   - fieldName: The name of the asset field.
        public init(url: String, recordName: String? = nil, fieldName: String) {
            self.url = url
            self.recordName = recordName
            self.fieldName = fieldName
        }
    }

    /// The upload addresses, one per token asked for, in the order asked.
    public var tokens: [Token]

    /// Creates a response.
    ///
    /// - Parameter tokens: The upload addresses.
    public init(tokens: [Token]) {
        self.tokens = tokens
    }

    /// Writes the response body as CloudKit Web Services sends it.
    public func encode(to encoder: any Encoder) throws {
        try WireCoding.encode(self, to: encoder)
    }

    /// Reads a response body.
    public init(from decoder: any Decoder) throws {
        self = try WireCoding.decode(Self.self, from: decoder)
    }

    func wireJSON(at path: [any CodingKey]) -> WireJSON {
        .object([
            "tokens": .array(
                tokens.map { token in
                    var entry: [String: WireJSON] = ["url": .string(token.url), "fieldName": .string(token.fieldName)]
                    entry.set("recordName", token.recordName.map(WireJSON.string))
                    return .object(entry)
                })
        ])
    }

    init(wire reader: WireReader) throws {
        tokens = try reader.member("tokens").mapElements { entry in
            Token(
                url: try entry.member("url").string(),
                recordName: try entry.optionalMember("recordName")?.string(),
                fieldName: try entry.member("fieldName").string())
        }
    }
}
