import Foundation
import Testing

@testable import RecordCodable

/// The tape parser's three outcomes: the tokens, text beyond its fast path, and malformed text.
@Suite("JSON tape parser")
struct JSONTapeParserTests {
    /// The outcome of parsing `text`, as a word to compare.
    private func outcome(_ text: String, maximumDepth: Int = 4) -> String {
        outcome(Data(text.utf8), maximumDepth: maximumDepth)
    }

    private func outcome(_ data: Data, maximumDepth: Int = 4) -> String {
        switch JSONTapeParser.tokens(of: ContiguousArray(data), maximumDepth: maximumDepth) {
        case .parsed(let tokens): "parsed \(tokens.count)"
        case .beyondFastPath: "beyondFastPath"
        case .malformed: "malformed"
        }
    }

    @Test("Strict JSON is parsed into its tokens, however little room its text gives them")
    func parsed() {
        #expect(outcome(#"{"a":[1,"x"]}"#) == "parsed 5")
        #expect(outcome("[1,]") == "parsed 2")
        // Tokens of a byte or two each: more than the first room made for them.
        #expect(outcome("[" + Array(repeating: "0", count: 200).joined(separator: ",") + "]") == "parsed 201")
    }

    @Test(
        "JSON beyond the fast path is left to Foundation's decoder",
        arguments: [
            #"[[[[[[1]]]]]]"#, "[123456789012345678901234]", "[1e400]", "[1e-400]", "[1.5e-320]",
        ])
    func beyondFastPath(_ text: String) {
        #expect(outcome(text) == "beyondFastPath")
    }

    @Test(
        "Malformed text is left to Foundation's decoder, which reports it",
        arguments: ["", "{", "[1,,2]", "[01]", "[-]", "[1.]", "[1e]", "[tru]", "{\"a\":\"\u{1}\"}", #"["\x"]"#])
    func malformed(_ text: String) {
        #expect(outcome(text) == "malformed")
        #expect(throws: (any Error).self) { _ = try JSONSerialization.jsonObject(with: Data(text.utf8)) }
    }

    @Test("Text in another encoding than UTF-8 is malformed to the parser; Foundation's decoder reads it")
    func otherEncodings() throws {
        let data = try #require(#"{"a":1}"#.data(using: .utf16LittleEndian))
        #expect(outcome(data) == "malformed")
        #expect(try JSONDecoder().decode([String: Int].self, from: data) == ["a": 1])
    }

    @Test("The first reason to stop is the outcome")
    func firstReason() {
        #expect(outcome(#"[[[[[[1]]]]]],"#) == "beyondFastPath")
        #expect(outcome(#"[1,,[[[[[1]]]]]]"#) == "malformed")
    }
}
