import Testing
@testable import Wayfinder

@Suite("URLs at the edges")
struct URLEdgeTests {
    @Test func theHostIsSplitFromUserinfoAndPort() throws {
        let url = try NavigationURL("https://Example.com:8443/a")
        #expect(url.host == "Example.com")
        #expect(url.port == 8443)
        let routes = try table(["https://(host)/a"])
        #expect(try routes.match("https://example.com:443/a").match?.params == ["host": "example.com"])
        // A URL with a port matches only a pattern that names that port.
        #expect(try winner(routes, "https://example.com:8443/a") == nil)
        let ported = try table(["https://example.com:8443/a", "https://example.com/a"])
        #expect(try winner(ported, "https://example.com:8443/a") == "https://example.com:8443/a")
        #expect(try winner(ported, "https://EXAMPLE.com/a") == "https://example.com/a")
        #expect(try winner(ported, "https://example.com:9000/a") == nil)
        #expect(ported.usesScheme("https"))
    }

    @Test func theDefaultPortIsNoPort() throws {
        #expect(try NavigationURL("http://x:80/").port == nil)
        #expect(try NavigationURL("https://x:443/").port == nil)
        #expect(try NavigationURL("https://x:/").port == nil)
        #expect(try NavigationURL("tt://x:80/").port == 80)
        let routes = try table(["https://example.com:443/a", "http://example.com/b"])
        #expect(try winner(routes, "https://example.com/a") == "https://example.com:443/a")
        #expect(try winner(routes, "http://example.com:80/b") == "http://example.com/b")
        // The default port written out is the same pattern as none: a conflict.
        #expect(throws: PatternError.self) { try routes.add("https://example.com/a", target: "") }
    }

    @Test(arguments: [
        ("https://me@example.com/a", "the URL has userinfo ('name@' before the host), which Wayfinder refuses"),
        ("https://a:b@example.com/a", "the URL has userinfo ('name@' before the host), which Wayfinder refuses"),
        ("https://example.com:44x/a", "the port is not a number from 0 to 65535"),
        ("https://example.com:65536/a", "the port is not a number from 0 to 65535"),
        ("tt://[::1/a", "invalid host: an IPv6 host needs its closing ']'"),
        ("tt://[::1]x/a", "invalid host: only a port may follow an IPv6 host's ']'"),
        ("tt://[::G]/a", "invalid host: '[::G]' is not an IPv6 address"),
        ("tt://[example.com]/a", "invalid host: '[example.com]' is not an IPv6 address"),
        ("tt://[1:2:3:4:5:6:7:8:9]/a", "invalid host: '[1:2:3:4:5:6:7:8:9]' is not an IPv6 address"),
        ("tt://[1::2::3]/a", "invalid host: '[1::2::3]' is not an IPv6 address"),
        ("tt://[]/a", "invalid host: '[]' is not an IPv6 address"),
    ])
    func badAuthoritiesAreRefused(url: String, reason: String) throws {
        let routes = try table(["https://(host)/a", "tt://(h)/a", "*"])
        guard case .noMatch(let why) = try routes.match(url) else {
            Issue.record("\(url) should not match")
            return
        }
        #expect(why == reason)
    }

    @Test func ipv6HostsKeepTheirBrackets() throws {
        let url = try NavigationURL("tt://[::1]:8080/x")
        #expect(url.host == "[::1]")
        #expect(url.port == 8080)
        let routes = try table(["tt://[::1]:8080/x", "tt://[FE80::1]/x", "tt://(h)/y"])
        #expect(try winner(routes, "tt://[::1]:8080/x") == "tt://[::1]:8080/x")
        #expect(try winner(routes, "tt://[fe80::1]/x") == "tt://[FE80::1]/x")
        #expect(try routes.match("tt://[::1]/y").match?.params == ["h": "[::1]"])
    }

    @Test func ipv6AddressesFollowTheTextForm() {
        for good in ["::", "::1", "1::", "FE80::1", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6::8", "::ffff:192.0.2.1", "1:2:3:4:5:6:192.0.2.1", "abcd::12"] {
            #expect(IPv6Address.isValid(good), "\(good)")
        }
        for bad in ["", ":", ":::", "::G", "12345::", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "1::2::3", ":1:2:3:4:5:6:7",
                    "1:2:3:4:5:6:7:", "::1.2.3", "::256.0.0.1", "::01.2.3.4", "1.2.3.4::", "v1.x", "fe80::1%25eth0", "1:2:3:4:5:6:7::8"] {
            #expect(!IPv6Address.isValid(bad), "\(bad)")
        }
    }

    @Test(arguments: ["tt://[::G]/x", "tt://[example]/x", "tt://[1::2::3]:80/x", "https://me@x/b", "https://a:b@x/b", "tt://(u)@x/b"])
    func patternsRefuseWhatNoURLCanHave(pattern: String) throws {
        let routes = RouteTable<String>()
        #expect(throws: PatternError.self, "\(pattern)") { try routes.add(pattern, target: pattern) }
        #expect(routes.count == 0)
    }

    @Test func c1ControlsAreRefusedLikeC0InEveryPart() throws {
        let routes = try table(["tt://(h)/(p)?q=(q)#(f)", "tt://(h)/(p)"])
        for url in ["tt://a%C2%80/x", "tt://a/x%C2%85y", "tt://a/x%c2%9f", "tt://a/x?q=%C2%9B", "tt://a/x#%C2%90"] {
            guard case .noMatch(let why) = try routes.match(url) else { Issue.record("\(url) should not match"); continue }
            #expect(why.hasPrefix("a percent-encoded control character in the "), "\(url): \(why)")
        }
        for url in ["tt://a/x\u{85}", "tt://a\u{80}/x", "tt://a/x?q=\u{9F}", "tt://a/x#\u{9B}"] {
            guard case .noMatch(let why) = try routes.match(url) else { Issue.record("\(url) should not match"); continue }
            #expect(why.hasPrefix("control character at byte "), "\(url): \(why)")
        }
        // Neighbours of the range still read: U+00A0 and U+007E, and a C2 that starts another character.
        #expect(try routes.match("tt://a/x%C2%A0").match?.params["p"] == "x\u{A0}")
        #expect(try routes.match("tt://a/%C2%A9").match?.params["p"] == "©")
        #expect(throws: CodecError.controlCharacter(offset: 2)) { try QueryString.parse("a=\u{85}") }
        #expect(throws: CodecError.self) { try QueryString.parse("a=%C2%85") }
        #expect(throws: PatternError.self) { try RouteTable<String>().add("tt://a/x\u{85}", target: "") }
        let generated = Result { try routes.url(for: routes.generatorPattern("tt://(h)/(p)")) { $0 == "h" ? "a" : "x\u{85}" } }
        #expect(throws: (any Error).self) { try generated.get() }
    }

    @Test func hostCaseFoldingIsASCIIOnly() throws {
        let routes = try table(["tt://kiosk/x", "tt://straße/x"])
        // U+212A KELVIN SIGN lowercases to 'k' in Unicode; it is not an ASCII letter.
        #expect(try winner(routes, "tt://%E2%84%AAiosk/x") == nil)
        #expect(try winner(routes, "tt://KIOSK/x") == "tt://kiosk/x")
        #expect(try winner(routes, "tt://STRASSE/x") == nil)
        #expect(try winner(routes, "tt://STRAßE/x") == "tt://straße/x")
        #expect(try table(["tt://%E2%84%AAiosk/x"]).parse("tt://%E2%84%AAiosk/x").host == .literal("\u{212A}iosk"))
    }

    @Test func trailingDotAndPunycodeHostsAreTakenAsWritten() throws {
        let routes = try table(["tt://example.com/a", "tt://xn--mnchen-3ya.de/a"])
        #expect(try winner(routes, "tt://example.com./a") == nil)
        #expect(try winner(routes, "tt://XN--MNCHEN-3YA.de/a") == "tt://xn--mnchen-3ya.de/a")
        // No IDNA conversion: the Unicode spelling is another host.
        #expect(try winner(routes, "tt://münchen.de/a") == nil)
    }

    @Test func dotSegmentsAreOrdinarySegments() throws {
        let routes = try table(["tt://a/(x)/b", "tt://b"])
        #expect(try routes.match("tt://a/../b").match?.params == ["x": ".."])
        #expect(try routes.match("tt://a/%2E%2E/b").match?.params == ["x": ".."])
        #expect(try routes.match("tt://a/./b").match?.params == ["x": "."])
        #expect(try winner(routes, "tt://a/b/../../b") == nil)
        let generated = try routes.url(for: routes.generatorPattern("tt://a/(x)/b")) { $0 == "x" ? ".." : nil }
        #expect(generated == "tt://a/../b")
        #expect(try routes.match(generated).match?.params == ["x": ".."])
    }

    @Test(arguments: ["tt://a/%00", "tt://a/x%0Ay", "tt://a?q=%1B[31m", "tt://a?%7F=1", "tt://a#%09", "tt://a%0D/x"])
    func percentEncodedControlCharactersAreRefused(url: String) throws {
        let routes = try table(["tt://a/(x)", "tt://a", "tt://(h)/x", "*"])
        guard case .noMatch(let why) = try routes.match(url) else {
            Issue.record("\(url) should not match")
            return
        }
        #expect(why.hasPrefix("a percent-encoded control character in the "))
    }

    @Test(arguments: ["tt://a/\u{0}", "tt://a/b\nc", "tt://a?k=\u{7F}", "tt://a/%00", "tt://a?k=%0A", "tt://a#%1F", "tt://a%09b/x"])
    func patternsWithControlCharactersAreRefused(pattern: String) throws {
        let routes = RouteTable<String>()
        #expect {
            try routes.add(pattern, target: pattern)
        } throws: { error in
            "\(error)".contains("control character")
        }
        #expect(routes.count == 0)
    }

    @Test func patternPortsAreChecked() throws {
        let routes = RouteTable<String>()
        for bad in ["tt://a:/x", "tt://a:99999/x", "tt://a:8x/x", "tt://(h)x/y", "tt://[::1]z/x"] {
            #expect(throws: PatternError.self, "\(bad)") { try routes.parse(bad) }
        }
        #expect(try routes.parse("tt://(h:int):81/x").port == 81)
        #expect(try routes.parse("tt://(h:int)/x").host == .param(.init(name: "h", type: "int")))
    }

    @Test(arguments: ["tt://w?(k)=v", "tt://w?(k:int)=(v)", "tt://w?a=1&(k)=(k)"])
    func aQueryKeyCannotBeAParam(pattern: String) throws {
        let routes = RouteTable<String>()
        #expect {
            try routes.add(pattern, target: pattern)
        } throws: { error in
            "\(error)".contains("a query key cannot be a param")
        }
    }

    @Test func reRegisteringATypeReplacesItForRoutesThatUseIt() throws {
        let routes = RouteTable<String>()
        try routes.registerType("code") { $0.count == 3 ? .string($0) : nil }
        try routes.add("tt://c/(c:code)", target: "typed")
        try routes.add("tt://c/(s)", target: "string")
        #expect(try routes.match("tt://c/abc").match?.route.target == "typed")
        try routes.registerType("code") { $0.count == 4 ? .string($0.uppercased()) : nil }
        #expect(try routes.match("tt://c/abc").match?.route.target == "string")
        #expect(try routes.match("tt://c/abcd").match?.params == ["c": "ABCD"])
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteTypeResultsDoNotMatch(result: Double) throws {
        let routes = RouteTable<String>()
        try routes.registerType("price") { _ in .double(result) }
        try routes.registerType("pair") { _ in .array([.int(1), .double(result)]) }
        try routes.add("tt://p/(v:price)", target: "price")
        try routes.add("tt://q/(v:pair)", target: "pair")
        #expect(try winner(routes, "tt://p/1") == nil)
        #expect(try winner(routes, "tt://q/1") == nil)
        #expect(try routes.explain("tt://p/1").entries == [.init(pattern: "tt://p/(v:price)", verdict: .failed("path segment 1 '1' is not a valid price"))])
    }

    /// Found by fuzzing: a query string that parsed with a raw control character could not be
    /// written and read back, since the escape it was written as is refused.
    @Test func queryStringsRefuseControlCharactersBothWays() throws {
        #expect(throws: CodecError.controlCharacter(offset: 5)) { try QueryString.parse("q=thr\u{1}\0&hl=en") }
        #expect(throws: CodecError.encodedControlCharacter(offset: 2)) { try QueryString.parse("a=%00") }
        #expect(throws: CodecError.controlCharacterInQuery(key: "q")) { try QueryString.format(["q": "a\nb"]) }
        #expect(throws: CodecError.controlCharacterInQuery(key: "\u{7F}")) { try QueryString.format(["\u{7F}": "x"]) }
        #expect(try QueryString.parse(QueryString.format(["q": "a b", "n": 3])) == ["q": "a b", "n": "3"])
    }
}
