import Testing
import TestSupport
@testable import Wayfinder

@Suite("Generating URLs")
struct URLGenerationTests {
    let routes = RouteTable<String>()

    func generate(_ pattern: String, _ fields: [String: Value]) throws -> String {
        try routes.url(for: routes.generatorPattern(pattern)) { fields[$0] }
    }

    @Test func valuesAreEncodedForTheirPosition() throws {
        #expect(try generate("tt://contact/view/(uid)", ["uid": "a/b c"]) == "tt://contact/view/a%2Fb%20c")
        #expect(try generate("tt://menu/(id:int)/(page:int)", ["id": 3, "page": -1]) == "tt://menu/3/-1")
        #expect(try generate("tt://price/(v:number)", ["v": 3.5]) == "tt://price/3.5")
        #expect(try generate("tt://flag/(on:bool)", ["on": true]) == "tt://flag/true")
        #expect(try generate("tt://search?q=(q)&lang=en#(part)", ["q": "a&b=c", "part": "x y"]) == "tt://search?q=a%26b%3Dc&lang=en#x%20y")
        #expect(try generate("tt://files/(p:path)", ["p": "a b/c"]) == "tt://files/a%20b/c")
        #expect(try generate("tt://(user)/profile", ["user": "Ann"]) == "tt://Ann/profile")
        #expect(try generate("tt://contact/(oid:id)", ["oid": "x-coredata://U/Contact/p3"]) == "tt://contact/" + ObjectID.encode("x-coredata://U/Contact/p3"))
        #expect(try generate("tt://album/(album.title)", ["album.title": "Kind of Blue"]) == "tt://album/Kind%20of%20Blue")
    }

    /// A named route's error names the param at fault from where generation failed, and quotes
    /// the value as given, even a value that reads like another param's message.
    @Test func aNamedRouteNamesTheParamAtFault() throws {
        let table = RouteTable<String>()
        _ = try table.add("tt://shelf/(c)/item/(id:int)", target: "item", options: RouteOptions(name: "item"))
        #expect(throws: RouteNameError(route: "item", param: "id",
                                       reason: "route 'item' (tt://shelf/(c)/item/(id:int)): param 'id' = 'field 'c'' is not a valid int")) {
            try table.url(forRouteNamed: "item", params: ["c": "hats", "id": "field 'c'"])
        }
        #expect(throws: URLGenerationError(pattern: "tt://shelf/(c)/item/(id:int)", reason: "field 'c' is a table, which cannot stand in a URL as a string", param: "c")) {
            try table.url(for: table.generatorPattern("tt://shelf/(c)/item/(id:int)")) { $0 == "c" ? .map([:]) : 1 }
        }
    }

    @Test func integralFloatsFillIntParams() throws {
        #expect(try generate("tt://menu/(id:int)", ["id": 3.0]) == "tt://menu/3")
        #expect(try generate("tt://price/(v:number)", ["v": 3]) == "tt://price/3")
    }

    @Test func portsAreWrittenAndURLsAtTheLimitAreMade() throws {
        #expect(try generate("https://example.com:8443/(a)", ["a": "x"]) == "https://example.com:8443/x")
        let prefix = "tt://c/".utf8.count
        let fits = try generate("tt://c/(u)", ["u": .string(String(repeating: "a", count: NavigationURL.maximumLength - prefix))])
        #expect(fits.utf8.count == NavigationURL.maximumLength)
        let routes = try table(["tt://c/(u)"])
        #expect(try routes.match(fits).match?.params["u"]?.stringValue?.utf8.count == NavigationURL.maximumLength - prefix)
    }

    @Test(arguments: [
        ("tt://c/(uid)", [:], "field 'uid' is nil"),
        ("tt://c/(uid)", ["uid": .null], "field 'uid' is nil"),
        ("tt://c/(uid)", ["uid": ""], "is not a valid string"),
        ("tt://c/(uid:int)", ["uid": "abc"], "is not a valid int"),
        ("tt://c/(uid:int)", ["uid": 2.5], "is not a valid int"),
        ("tt://c/(v:number)", ["v": .double(.infinity)], "is not a valid number"),
        ("tt://c/(uid)", ["uid": ["a"]], "is a array"),
        ("tt://c/(p:path)", ["p": "a//b"], "empty path segment"),
        ("tt://c/(p:path)", ["p": "/a"], "empty path segment"),
        ("tt://c/(o:id)", ["o": 3], "cannot stand in a URL as a id"),
        ("tt://c/(n:int)", ["n": "007"], "field 'n' is the string \"007\", which would come back from the URL as the integer 7 (the param's type is int)"),
        ("tt://c/(n:int)", ["n": "7"], "field 'n' is the string \"7\""),
        ("tt://c/(b:bool)", ["b": "yes"], "field 'b' is the string \"yes\""),
        ("tt://c/(x:number)", ["x": "2.50"], "field 'x' is the string \"2.50\""),
        ("tt://c/(u)", ["u": "a\nb"], "field 'u' has a control character"),
        ("tt://c?q=(q)", ["q": "\u{0}"], "field 'q' has a control character"),
        ("tt://c/(u)", ["u": .string(String(repeating: "a", count: 8_200))], "the URL would be 8207 bytes, longer than the 8 KiB limit of URLs that match (field 'u' is 8200 of them)"),
        ("tt://c/(u)/(v)", ["u": .string(String(repeating: "a", count: 3_000)), "v": .string(String(repeating: " ", count: 2_000))], "(field 'v' is 6000 of them)"),
    ] as [(String, [String: Value], String)])
    func badFieldsAreErrorsThatNameTheField(pattern: String, fields: [String: Value], reason: String) throws {
        do {
            let url = try generate(pattern, fields)
            Issue.record("\(pattern) made \(url)")
        } catch let error as URLGenerationError {
            #expect(error.description.contains(reason), "\(error)")
        }
    }

    @Test func generatorPatternsMustNameEveryParam() {
        #expect(throws: PatternError.self) { try routes.generatorPattern("tt://a/()") }
        #expect(throws: PatternError.self) { try routes.generatorPattern("*") }
    }

    /// The guarantee: matching a generated URL gives back the values it was made from, for random
    /// values full of the characters URLs treat specially.
    @Test func anEmptyIDIsAnErrorNotAURLThatCannotMatchBack() throws {
        #expect(try routes.convert("", as: "id") == nil)
        do {
            Issue.record("made \(try generate("tt://contact/(oid:id)", ["oid": ""]))")
        } catch let error as URLGenerationError {
            #expect(error.description.contains("is not a valid id"), "\(error)")
        }
    }

    @Test func generatedURLsMatchBackToTheirValues() throws {
        let patterns = [
            "tt://(host)/s/(a)/(n:int)/(x:number)/(b:bool)",
            "tt://files/(o:id)/(rest:path)",
            "tt://search/(a)?q=(q)&mode=(m:int)#(frag)",
        ]
        let table = RouteTable<String>()
        for pattern in patterns { try table.add(pattern, target: pattern) }
        let alphabet: [Character] = ["a", "Z", "0", "/", "?", "%", "+", " ", "&", "=", "#", ";", ":", "é", "ß", "中", "🙂", "\u{301}", "~", ".", "-", "(", ")", "'", "\""]
        var generator = SeededGenerator(seed: 2024)
        func text(_ generator: inout SeededGenerator, allowSlashRuns: Bool = true) -> String {
            let length = Int.random(in: 1...12, using: &generator)
            var s = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            if !allowSlashRuns {
                // A catch-all cannot carry empty segments.
                s = s.split(separator: "/").joined(separator: "/")
                if s.isEmpty { s = "x" }
            }
            return s
        }
        for _ in 0..<400 {
            let fields: [String: Value] = [
                "host": .string(text(&generator)), "a": .string(text(&generator)),
                "n": .int(Int64.random(in: Int64.min...Int64.max, using: &generator)),
                "x": .double(Double.random(in: -1e12...1e12, using: &generator)),
                "b": .bool(Bool.random(using: &generator)),
                "o": .string(text(&generator)), "rest": .string(text(&generator, allowSlashRuns: false)),
                "q": .string(text(&generator)), "m": .int(Int64.random(in: -99...99, using: &generator)),
                "frag": .string(text(&generator)),
            ]
            for patternText in patterns {
                let pattern = try table.parse(patternText)
                let url = try table.url(for: pattern) { fields[$0] }
                let match = try #require(try table.match(url).match, "\(url)")
                #expect(match.route.pattern.text == patternText, "\(url)")
                for (name, value) in match.params {
                    #expect(value == fields[name], "\(name) in \(url)")
                }
                #expect(match.params.count == pattern.paramNames.count, "\(url)")
            }
        }
    }
}
