import Testing
@testable import Wayfinder

@Suite("Pattern syntax")
struct PatternParsingTests {
    let routes = RouteTable<String>()

    @Test func threeTwentySpellingsAreAccepted() throws {
        let pattern = try routes.parse("tt://restaurant/(initWithName:)")
        #expect(pattern.host == .literal("restaurant"))
        #expect(pattern.path == [.param(.init(name: "initWithName", type: "string"))])
        #expect(try routes.parse("tt://a/(n)").path == routes.parse("tt://a/(n:string)").path)
        #expect(try routes.parse("tt://a/()").path.last == .param(.init(name: nil, type: "string")))
        #expect(try routes.parse("tt://a/(:int)").path.last == .param(.init(name: nil, type: "int")))
        #expect(try routes.parse("tt://a/(album.title)").paramNames == ["album.title"])
    }

    @Test func specificityCountsLiteralsTwiceParamsOnce() throws {
        #expect(try routes.parse("tt://menu/(id:int)").specificity == 3)
        #expect(try routes.parse("tt://menu/(id:int)/(page:int)").specificity == 4)
        #expect(try routes.parse("tt://a/b/(r:path)").specificity == 4)
        // Host and path only: the query and fragment are ranked after them.
        #expect(try routes.parse("tt://order?waitress=(w)#(a:)").specificity == 2)
        #expect(try routes.parse("tt://order?kind=edit").specificity == 2)
    }

    @Test func literalsAreDecodedAndHostsLowercased() throws {
        let pattern = try routes.parse("TT://Menu/caf%C3%A9/a%2Fb")
        #expect(pattern.scheme == "tt")
        #expect(pattern.host == .literal("menu"))
        #expect(pattern.path == [.literal("café"), .literal("a/b")])
    }

    @Test(arguments: [
        ("", "cannot be empty"),
        ("menu/(id)", "starts with a scheme"),
        ("1x://a", "is not a scheme"),
        ("tt://", "the host is missing"),
        ("tt://a/(id", "'(' without ')'"),
        ("tt://a/id)", "')' without '('"),
        ("tt://a/x(id)", "must be a whole component"),
        ("tt://a/((id))", "params cannot nest"),
        ("tt://a/(id:float)", "unknown param type 'float'"),
        ("tt://a/(9id)", "is not a param name"),
        ("tt://a/(a b)", "is not a param name"),
        ("tt://a/(x)/(x)", "used twice"),
        ("tt://a/(r:path)/b", "catch-all can only be the last path component"),
        ("tt://(r:path)/b", "not in the host"),
        ("tt://a?q=(r:path)", "not in the query"),
        ("tt://a#(r:path)", "not in the fragment"),
        ("tt://a?q", "needs the form key=value"),
        ("tt://a?=1", "has an empty key"),
        ("tt://a?q=1&q=2", "appears twice"),
        ("tt://a/%ZZ", "invalid percent escape"),
        ("tt://a?q=", "an empty query component"),
    ])
    func badPatternsSayWhy(pattern: String, fragment: String) {
        do {
            _ = try routes.parse(pattern)
            Issue.record("\(pattern) should not parse")
        } catch {
            #expect(error.pattern == pattern)
            #expect(error.description.contains(fragment), "\(error)")
        }
    }

    @Test func aFailedRegistrationChangesNothing() throws {
        let routes = try table(["tt://a/(x)"])
        #expect(throws: PatternError.self) { try routes.add("tt://a/(x:nope)", target: "bad") }
        #expect(routes.count == 1)
        #expect(try winner(routes, "tt://a/1") == "tt://a/(x)")
    }
}
