import Testing
@testable import Wayfinder

@Suite("Reading URLs")
struct URLReadingTests {
    @Test func splitsAndDecodes() throws {
        let url = try NavigationURL("TT://Menu//a%2Fb/c%20d/?x=1&y&x=2;z=a%3Db#frag%20ment")
        #expect(url.scheme == "tt")
        #expect(url.host == "Menu")
        #expect(url.hostKey == "menu")
        #expect(url.segments == ["a/b", "c d"])
        #expect(Value.map(url.query) == ["x": ["1", "2"], "y": true, "z": "a=b"])
        #expect(url.fragment == "frag ment")
    }

    @Test func opaqueURLsHaveNoHost() throws {
        let url = try NavigationURL("tel:5551234")
        #expect(url.scheme == "tel")
        #expect(url.host == nil)
        #expect(url.segments == ["5551234"])
    }

    @Test(arguments: [
        ("tt://menu/%ZZ", "invalid percent escape in the path at byte 10"),
        ("tt://menu/50%", "invalid percent escape in the path at byte 12"),
        ("tt://menu/%E0%A4", "invalid UTF-8 after decoding the path"),
        ("tt://menu?q=%FF", "invalid UTF-8 after decoding the query"),
        ("tt://menu?q=%G1", "invalid percent escape in the query at byte 12"),
        ("tt://menu#%", "invalid percent escape in the fragment at byte 10"),
        ("tt://m%zzenu", "invalid percent escape in the host at byte 6"),
        ("tt://menu/a\nb", "control character at byte 11"),
        ("tt://menu/\u{7F}", "control character at byte 10"),
        ("menu/1", "no scheme (a URL starts with a scheme such as 'tt:')"),
        ("", "no scheme (a URL starts with a scheme such as 'tt:')"),
        ("1tt://menu", "no scheme (a URL starts with a scheme such as 'tt:')"),
        ("://menu", "no scheme (a URL starts with a scheme such as 'tt:')"),
    ])
    func malformedURLsMatchNothingAndSayWhy(url: String, reason: String) throws {
        let routes = try table(["tt://menu/(x)", "*"])
        guard case .noMatch(let why) = try routes.match(url) else {
            Issue.record("\(url) should not match")
            return
        }
        #expect(why == reason)
    }

    @Test func overlongURLsAreRejected() throws {
        let routes = try table(["tt://menu/(x)", "*"])
        let long = "tt://menu/" + String(repeating: "a", count: NavigationURL.maximumLength)
        guard case .noMatch(let why) = try routes.match(long) else {
            Issue.record("an overlong URL should not match")
            return
        }
        #expect(why.contains("longer than the 8 KiB limit"))
        let justFits = "tt://menu/" + String(repeating: "a", count: NavigationURL.maximumLength - 10)
        #expect(try winner(routes, justFits) == "tt://menu/(x)")
    }

    @Test func percentEncodedSlashStaysInItsSegment() throws {
        let routes = try table(["tt://web/(url)", "tt://web/(a)/(b)"])
        let match = try #require(try routes.match("tt://web/http%3A%2F%2Fexample.com").match)
        #expect(match.route.pattern.text == "tt://web/(url)")
        #expect(match.params["url"] == "http://example.com")
    }

    @Test func schemeAndHostIgnoreCasePathDoesNot() throws {
        let routes = try table(["tt://Menu/Lunch"])
        #expect(try winner(routes, "TT://MENU/Lunch") == "tt://Menu/Lunch")
        #expect(try winner(routes, "tt://menu/lunch") == nil)
    }

    @Test func plusIsALiteralPlus() throws {
        let routes = try table(["tt://search/(term)"])
        let match = try #require(try routes.match("tt://search/a+b?q=c+d").match)
        #expect(match.params["term"] == "a+b")
        #expect(match.query["q"] == "c+d")
    }
}
