/// One word, name or mark of schema text, with where it starts.
struct SchemaToken: Equatable {
    enum Kind: Equatable {
        /// A bare word: a keyword, or a name made of letters, digits and underscores.
        case word(String)
        /// A name in double quotes, without them.
        case quoted(String)
        /// One of `( ) , ; < >`.
        case symbol(Unicode.Scalar)
        /// The end of the text.
        case end
    }

    var kind: Kind
    var line: Int
    var column: Int

    /// The token as an error message shows what was found.
    var quotedForMessage: String {
        switch kind {
        case .word(let word): "'\(word)'"
        case .quoted(let name): "\"\(name)\""
        case .symbol(let symbol): "'\(symbol)'"
        case .end: "the end of the schema"
        }
    }
}

/// Splits schema text into tokens, leaving out white space and the three kinds of comments:
/// `// …` and `-- …` to the end of the line, and `/* … */`.
///
/// It reads each character once and keeps nothing but the tokens, so any text, however long or
/// strange, ends in tokens or in a ``RecordSchema/ParseError`` at the first character that no
/// token can start with.
struct SchemaLexer {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var column = 1

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// Every token of the text, the last one ``SchemaToken/Kind/end``.
    static func tokens(of text: String) throws -> [SchemaToken] {
        var lexer = SchemaLexer(text)
        var tokens: [SchemaToken] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private mutating func next() throws -> SchemaToken {
        try skipSpaceAndComments()
        let startLine = line
        let startColumn = column
        func token(_ kind: SchemaToken.Kind) -> SchemaToken {
            SchemaToken(kind: kind, line: startLine, column: startColumn)
        }
        guard let scalar = peek() else { return token(.end) }
        if Self.isLetter(scalar) {
            var word = String.UnicodeScalarView()
            while let next = peek(), Self.isLetter(next) || Self.isDigit(next) || next == "_" {
                word.append(next)
                advance()
            }
            return token(.word(String(word)))
        }
        switch scalar {
        case "\"":
            return token(.quoted(try quotedName()))
        case "(", ")", ",", ";", "<", ">":
            advance()
            return token(.symbol(scalar))
        case "_":
            throw error("a name that starts with an underscore is written in double quotes, as \"_name\"")
        default:
            throw error("unexpected character \(Self.described(scalar))")
        }
    }

    /// A name in double quotes: any characters but a double quote or a line break, at least one.
    private mutating func quotedName() throws -> String {
        let openingLine = line
        let openingColumn = column
        advance()
        var name = String.UnicodeScalarView()
        while let scalar = peek(), scalar != "\"", scalar != "\n", scalar != "\r" {
            name.append(scalar)
            advance()
        }
        guard peek() == "\"" else {
            throw RecordSchema.ParseError(
                line: openingLine, column: openingColumn, message: "a quoted name is not closed on its line")
        }
        advance()
        guard !name.isEmpty else {
            throw RecordSchema.ParseError(line: openingLine, column: openingColumn, message: "a quoted name is empty")
        }
        return String(name)
    }

    private mutating func skipSpaceAndComments() throws {
        while let scalar = peek() {
            switch scalar {
            case " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{FEFF}":
                advance()
            case "/" where peek(1) == "/", "-" where peek(1) == "-":
                while let next = peek(), next != "\n", next != "\r" { advance() }
            case "/" where peek(1) == "*":
                let openingLine = line
                let openingColumn = column
                advance(2)
                while peek() != nil, !(peek() == "*" && peek(1) == "/") { advance() }
                guard peek() != nil else {
                    throw RecordSchema.ParseError(
                        line: openingLine, column: openingColumn, message: "a comment that starts with /* has no */")
                }
                advance(2)
            default:
                return
            }
        }
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        let position = index + offset
        return position < scalars.count ? scalars[position] : nil
    }

    /// Moves on by `count` characters, counting lines as they end: at a line feed, a carriage
    /// return and line feed, or a carriage return alone (old Mac files).
    private mutating func advance(_ count: Int = 1) {
        for _ in 0..<count where index < scalars.count {
            if scalars[index] == "\n" || (scalars[index] == "\r" && peek(1) != "\n") {
                line &+= 1
                column = 1
            } else {
                column &+= 1
            }
            index &+= 1
        }
    }

    private func error(_ message: String) -> RecordSchema.ParseError {
        RecordSchema.ParseError(line: line, column: column, message: message)
    }

    /// A character as an error shows it: `'='`, or `'é' (U+00E9)` beyond ASCII.
    private static func described(_ scalar: Unicode.Scalar) -> String {
        let shown = "'\(scalar.escaped(asASCII: false))'"
        guard !scalar.isASCII else { return shown }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return shown + " (U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ")"
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }
}
