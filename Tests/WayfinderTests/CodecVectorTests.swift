import Testing
@testable import Wayfinder

@Suite("Codec vectors (Tests/Fixtures/codec-id.json, query.json)")
struct CodecVectorTests {
    @Test func encodeAndDecodeIDs() throws {
        let vectors = try Fixtures.load("codec-id.json")
        let encode = try #require(vectors["encode"]?.arrayValue)
        #expect(encode.count > 5)
        for vector in encode {
            let text = try #require(vector["text"]?.stringValue)
            let token = try #require(vector["token"]?.stringValue)
            #expect(ObjectID.encode(text) == token)
            #expect(try ObjectID.decode(token) == text)
        }
    }

    @Test func rejectMalformedTokens() throws {
        let vectors = try Fixtures.load("codec-id.json")
        let reject = try #require(vectors["reject"]?.arrayValue)
        #expect(reject.count > 5)
        for vector in reject {
            let token = try #require(vector["token"]?.stringValue)
            #expect(throws: CodecError.self, "\(token): \(vector["why"]?.stringValue ?? "")") {
                try ObjectID.decode(token)
            }
        }
    }

    @Test func tokensThatAreNotUTF8AreRejected() throws {
        // 0xFF 0xFE is valid base64url but not UTF-8 once decoded.
        #expect(throws: CodecError.malformedToken("the decoded bytes are not valid UTF-8")) { try ObjectID.decode("__4") }
        #expect(try ObjectID.decode(bytes: "__4") == [0xFF, 0xFE], "as bytes, the same token decodes")
    }

    @Test func parseQueries() throws {
        let vectors = try Fixtures.load("query.json")
        let parse = try #require(vectors["parse"]?.arrayValue)
        #expect(parse.count > 10)
        for pair in parse {
            let input = try #require(pair.arrayValue?[0].stringValue)
            let expected = try #require(pair.arrayValue?[1])
            #expect(Value.map(try QueryString.parse(input)) == expected, "\(input)")
        }
    }

    @Test func rejectBadQueries() throws {
        let vectors = try Fixtures.load("query.json")
        let reject = try #require(vectors["reject"]?.arrayValue)
        #expect(!reject.isEmpty)
        for pair in reject {
            let input = try #require(pair.arrayValue?[0].stringValue)
            let why = try #require(pair.arrayValue?[1].stringValue)
            do {
                _ = try QueryString.parse(input)
                Issue.record("\(input) should be rejected: \(why)")
            } catch {
                #expect(error.description.hasPrefix(why), "\(input): \(error)")
            }
        }
    }

    @Test func escapeVectors() throws {
        let vectors = try Fixtures.load("query.json")
        let escape = try #require(vectors["escape"]?.arrayValue)
        for pair in escape {
            let input = try #require(pair.arrayValue?[0].stringValue)
            let expected = try #require(pair.arrayValue?[1].stringValue)
            #expect(PercentEncoding.escape(input) == expected)
            #expect(try PercentEncoding.unescape(expected) == input)
        }
    }
}
