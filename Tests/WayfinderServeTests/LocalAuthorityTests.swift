import Testing
@testable import WayfinderServe

@Suite("Host and Origin")
struct LocalAuthorityTests {
    let authority = LocalAuthority(port: 8123)

    @Test(arguments: ["127.0.0.1:8123", "localhost:8123", "LOCALHOST:8123", "[::1]:8123", "192.168.1.20:8123", "0.0.0.0:8123"])
    func loopbackNamesAndAddressesWithThePortAreThisServer(host: String) {
        #expect(authority.problem(host: host) == nil)
    }

    @Test(arguments: [
        ("evil.example:8123", "is not localhost or an IP address"),
        ("localhost.evil.example:8123", "is not localhost or an IP address"),
        ("127.0.0.1.nip.io:8123", "is not localhost or an IP address"),
        ("127.1:8123", "is not localhost or an IP address"),
        ("0x7f.0.0.1:8123", "is not localhost or an IP address"),
        ("256.0.0.1:8123", "is not localhost or an IP address"),
        ("[fe80::1%25eth0]:8123", "is not localhost or an IP address"),
        ("[::1:8123", "is not localhost or an IP address"),
        ("127.0.0.1:8124", "names another port than 8123"),
        ("127.0.0.1:08123", "is not a host and port"),
        ("127.0.0.1", "is not a host and port"),
        ("127.0.0.1:", "is not a host and port"),
        ("127.0.0.1:+8123", "is not a host and port"),
        (":8123", "is not a host and port"),
    ])
    func otherHostsAreRefusedWithTheReason(host: String, reason: String) {
        #expect(authority.problem(host: host)?.contains(reason) == true, "\(host)")
    }

    @Test func aMissingHostIsRefused() {
        #expect(authority.problem(host: nil) == "the request has no Host header")
        #expect(authority.problem(host: "") == "the request has no Host header")
    }

    @Test func anOriginMustBeThisServerItself() {
        #expect(authority.problem(origin: nil, host: "127.0.0.1:8123") == nil)
        #expect(authority.problem(origin: "http://127.0.0.1:8123", host: "127.0.0.1:8123") == nil)
        #expect(authority.problem(origin: "http://LOCALHOST:8123", host: "localhost:8123") == nil)
        for origin in ["http://evil.example", "http://127.0.0.1:8124", "https://127.0.0.1:8123", "null", "http://localhost:8123", ""] {
            #expect(authority.problem(origin: origin, host: "127.0.0.1:8123") != nil, "\(origin)")
        }
    }
}
