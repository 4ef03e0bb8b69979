import Testing
@testable import WayfinderServe

@Suite("access token")
struct AccessTokenTests {
    @Test func aNewTokenIs64HexDigitsAndDiffersEachTime() {
        let first = AccessToken()
        let second = AccessToken()
        #expect(first.text.count == 64)
        #expect(first.text.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(first != second)
    }

    @Test func onlyTheExactTokenMatches() {
        let token = AccessToken(text: "abc123")
        #expect(token.matches("abc123"))
        #expect(!token.matches(nil))
        #expect(!token.matches(""))
        #expect(!token.matches("abc12"))
        #expect(!token.matches("abc1234"))
        #expect(!token.matches("ABC123"))
        #expect(!token.matches("abc124"))
    }
}
