import Testing
import TestSupport
@testable import Wayfinder

@Suite("Which pattern wins")
struct PrecedenceTests {
    /// Registers `patterns` in every order and checks that `url` always opens `expected`.
    func expectWinner(_ patterns: [String], _ url: String, _ expected: String?, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var orders = [patterns, patterns.reversed()]
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<4 { orders.append(patterns.shuffled(using: &generator)) }
        for order in orders {
            #expect(try winner(table(order), url) == expected, "order \(order)", sourceLocation: sourceLocation)
        }
    }

    @Test func higherSpecificityWins() throws {
        try expectWinner(["tt://a/(x)/(y)", "tt://a/b/(y)"], "tt://a/b/c", "tt://a/b/(y)")
        try expectWinner(["tt://a/(rest:path)", "tt://a/(x)/(y)"], "tt://a/b/c", "tt://a/(x)/(y)")
    }

    @Test func leftToRightBreaksEqualSpecificity() throws {
        // Both score 2+2+1: the literal comes first in the winner.
        try expectWinner(["tt://a/(x)/c", "tt://a/b/(y)"], "tt://a/b/c", "tt://a/b/(y)")
        // A typed param beats a string param at the first difference.
        try expectWinner(["tt://a/(x)/(y:int)", "tt://a/(x:int)/(y)"], "tt://a/1/2", "tt://a/(x:int)/(y)")
        // Equal specificity, and the literal host and segment outrank params further right.
        try expectWinner(["tt://a/b/(r:path)", "tt://a/(x)/(y)/(z:path)"], "tt://a/b/c/d", "tt://a/b/(r:path)")
    }

    @Test func boundQueryParamsBreakTiesThenText() throws {
        // Equal shape except which query param each names: the one the URL binds wins.
        try expectWinner(["tt://s?b=(b)", "tt://s?a=(a)"], "tt://s?b=1", "tt://s?b=(b)")
        try expectWinner(["tt://s?b=(b)", "tt://s?a=(a)"], "tt://s?a=1", "tt://s?a=(a)")
        // Neither bound: the text that sorts first, never registration order.
        try expectWinner(["tt://s?b=(b)", "tt://s?a=(a)"], "tt://s", "tt://s?a=(a)")
        try expectWinner(["tt://n/(v:number)", "tt://n/(v:int)"], "tt://n/3", "tt://n/(v:int)")
    }

    @Test func matchingBacktracks() throws {
        try expectWinner(["tt://x/(provider)", "tt://x/google/callback"], "tt://x/google", "tt://x/(provider)")
        try expectWinner(["tt://a/b/c/d", "tt://a/(x)/c/e"], "tt://a/b/c/e", "tt://a/(x)/c/e")
        try expectWinner(["tt://a/(n:int)/x", "tt://a/(s)/y"], "tt://a/5/y", "tt://a/(s)/y")
    }

    @Test func hostParams() throws {
        let routes = try table(["tt://(user)/profile", "tt://home/profile"])
        #expect(try routes.match("tt://Alice/profile").match?.params == ["user": "Alice"])
        #expect(try winner(routes, "tt://HOME/profile") == "tt://home/profile")
        #expect(try winner(routes, "tt:///profile") == nil)
    }

    @Test func defaultRouteOnlyWhenNothingElseMatches() throws {
        try expectWinner(["*", "tt://menu/(id:int)"], "tt://menu/3", "tt://menu/(id:int)")
        try expectWinner(["*", "tt://menu/(id:int)"], "tt://menu/x", "*")
        try expectWinner(["*", "tt://menu/(id:int)"], "tel:5551234", "*")
        try expectWinner(["tt://menu/(id:int)"], "tt://menu/x", nil)
        let routes = try table(["*"])
        let match = try #require(try routes.match("http://example.com/a?q=1#top").match)
        #expect(match.query == ["q": "1"])
        #expect(match.fragment == "top")
    }

    @Test func queryLiteralsMustBePresentAndEqual() throws {
        let routes = try table(["tt://order?kind=edit", "tt://order"])
        #expect(try winner(routes, "tt://order?kind=edit") == "tt://order?kind=edit")
        #expect(try winner(routes, "tt://order?kind=view") == "tt://order")
        #expect(try winner(routes, "tt://order?kind") == "tt://order")
        #expect(try winner(routes, "tt://order?kind=edit&kind=edit") == "tt://order")
        #expect(try routes.match("tt://order?kind=edit&x=1").match?.query == ["x": "1"])
    }

    @Test func queryParamsBindWhenPresentAndMustConvert() throws {
        let routes = try table(["tt://order?waitress=(initWithWaitress:)", "tt://page?n=(n:int)"])
        let present = try #require(try routes.match("tt://order?waitress=Betty&table=4").match)
        #expect(present.params == ["initWithWaitress": "Betty"])
        #expect(present.query == ["table": "4"])
        let absent = try #require(try routes.match("tt://order").match)
        #expect(absent.params == [:])
        #expect(try winner(routes, "tt://page?n=3") == "tt://page?n=(n:int)")
        #expect(try winner(routes, "tt://page?n=three") == nil)
        #expect(try winner(routes, "tt://page") == "tt://page?n=(n:int)")
    }

    @Test func fragmentsPreferFragmentPatterns() throws {
        let routes = try table(["tt://order?waitress=()", "tt://order?waitress=()#(orderAction:)"])
        let withFragment = try #require(try routes.match("tt://order?waitress=Betty#pizza").match)
        #expect(withFragment.route.pattern.text == "tt://order?waitress=()#(orderAction:)")
        #expect(withFragment.params == ["orderAction": "pizza"])
        #expect(withFragment.fragment == "pizza")
        let without = try #require(try routes.match("tt://order?waitress=Betty").match)
        #expect(without.route.pattern.text == "tt://order?waitress=()")
        #expect(without.fragment == nil)
        // Without a fragment pattern, the base pattern gets the fragment handed over.
        let base = try table(["tt://food/(name)"])
        #expect(try base.match("tt://food/pizza#nutrition").match?.fragment == "nutrition")
    }

    @Test func aFragmentGoesToTheFragmentPatternOfTheSameBase() throws {
        // A typed query param the URL does not bind does not outrank the fragment pattern.
        try expectWinner(["tt://order?table=(initWithTable:int)", "tt://order#(orderAction:)"], "tt://order#pizza", "tt://order#(orderAction:)")
        try expectWinner(["tt://order?table=(initWithTable:int)", "tt://order#(orderAction:)"], "tt://order?table=4#pizza", "tt://order#(orderAction:)")
        try expectWinner(["tt://order?table=(initWithTable:int)", "tt://order#(orderAction:)"], "tt://order?table=4", "tt://order?table=(initWithTable:int)")
        let routes = try table(["tt://order?table=(initWithTable:int)", "tt://order#(orderAction:)"])
        #expect(try routes.match("tt://order#pizza").match?.params == ["orderAction": "pizza"])
        // The base decides first: a more specific path keeps the URL even with a fragment.
        try expectWinner(["tt://o/(id:int)", "tt://o/(name)#(a)"], "tt://o/5#x", "tt://o/(id:int)")
    }

    @Test func queryParamsCompareByKeyNotPosition() throws {
        let patterns = ["tt://search?page=(page:int)", "tt://search?q=(q)"]
        try expectWinner(patterns, "tt://search?q=shoes", "tt://search?q=(q)")
        try expectWinner(patterns, "tt://search?page=2", "tt://search?page=(page:int)")
        let routes = try table(patterns)
        #expect(try routes.match("tt://search?q=shoes").match?.params == ["q": "shoes"])
        // A literal for a key beats a param for it; a typed param beats a string param.
        try expectWinner(["tt://o?kind=(k)", "tt://o?kind=edit"], "tt://o?kind=edit", "tt://o?kind=edit")
        try expectWinner(["tt://o?n=(n)", "tt://o?n=(n:int)"], "tt://o?n=3", "tt://o?n=(n:int)")
        // Order in the pattern text does not matter.
        try expectWinner(["tt://o?a=(a)&b=(b:int)", "tt://o?b=(b)&c=(c)"], "tt://o?b=1&c=2", "tt://o?b=(b)&c=(c)")
    }

    @Test func tieWarningsSeeQueriesThatBindNothing() throws {
        // tt://search (neither key) goes to the page route only by text order.
        let warnings = try table(["tt://search?page=(page:int)", "tt://search?q=(q)"]).tieWarnings()
        #expect(warnings == ["'tt://search?page=(page:int)' and 'tt://search?q=(q)' can match the same URL with equal precedence; 'tt://search?page=(page:int)' wins only because its text sorts first"])
        // A literal key is always present: the literal pattern always scores more, no tie.
        #expect(try table(["tt://o?kind=edit", "tt://o?kind=(k)"]).tieWarnings().isEmpty)
        // Different fragments or differing literals never meet.
        #expect(try table(["tt://o#a", "tt://o#b"]).tieWarnings().isEmpty)
        #expect(try table(["tt://o#(a)", "tt://o"]).tieWarnings().isEmpty)
    }

    /// Brute force: each pattern alone in its own table says whether it matches; the winner must
    /// be the greatest precedence key (completed by the URL's query) among those that do.
    @Test func theWinnerIsTheGreatestKeyInEveryRegistrationOrder() throws {
        var generator = SeededGenerator(seed: 14)
        let grammar = RouteGrammar(
            hosts: ["a", "a", "(h)", "(h:int)"],
            segments: ["x", "y", "1", "(s)", "(n:int)", "(e:even)", "(r:path)"],
            queries: ["k=v", "k=(k)", "k=(k:int)", "q=(q)", "q=w", "t=(t:bool)"],
            fragments: ["", "#f", "#(f)", "#(f:int)"],
            urlHosts: ["a", "A", "7", "b"],
            urlSegments: ["x", "y", "1", "2", "z"],
            urlQueries: ["k=v", "k=3", "k=u", "q=w", "q=1", "t", "t=no", "t=maybe"],
            urlFragments: ["", "#f", "#3", "#g"],
            depths: 3)
        func even(_ text: String) -> Value? { ParamType.parseInt(text).flatMap { $0 % 2 == 0 ? Value.int($0) : nil } }

        var contested = 0
        for round in 0..<200 {
            var patterns = Set<String>()
            for _ in 0..<(4 + Int(generator.next() % 12)) {
                patterns.insert(grammar.pattern(&generator).withFragment)
            }
            // Texts that conflict with one registered before them (same shape) are left out.
            let accepted = RouteTable<String>()
            try accepted.registerType("even", convert: even)
            for text in patterns.sorted() { _ = try? accepted.add(text, target: text) }
            let texts = accepted.routes.map(\.pattern.text)
            var singles = [String: RouteTable<String>]()
            for text in texts {
                let single = RouteTable<String>()
                try single.registerType("even", convert: even)
                try single.add(text, target: text)
                singles[text] = single
            }
            var orders = [texts, texts.reversed()]
            for _ in 0..<3 { orders.append(texts.shuffled(using: &generator)) }
            let tables = try orders.map { order in
                let routes = RouteTable<String>()
                try routes.registerType("even", convert: even)
                for text in order { try routes.add(text, target: text) }
                return routes
            }
            for _ in 0..<20 {
                let url = grammar.url(&generator)
                let parsed = try NavigationURL(url)

                var expected: (text: String, key: Precedence, query: Precedence.QueryScore)?
                var candidates = 0
                for text in texts where try singles[text]!.match(url).match != nil {
                    candidates += 1
                    let pattern = try accepted.parse(text)
                    var score = Precedence.QueryScore()
                    for component in pattern.query where parsed.query[component.key] != nil { score.add(component.component) }
                    if let best = expected, !Precedence.outranks(pattern.precedence, score, best.key, best.query) { continue }
                    expected = (text, pattern.precedence, score)
                }
                if candidates > 1 { contested += 1 }
                for (order, routes) in zip(orders, tables) {
                    #expect(try winner(routes, url) == expected?.text, "round \(round) \(url) in order \(order)")
                    #expect(try routes.explain(url).winner == expected?.text, "explain, round \(round) \(url)")
                }
            }
        }
        // The generator is tuned so that many URLs have several candidates to choose between.
        #expect(contested > 250)
    }

    @Test func registeringTheSameTextReplaces() throws {
        let routes = RouteTable<String>()
        try routes.add("tt://menu/(id:int)", target: "old")
        let replaced = try routes.add("tt://menu/(id:int)", target: "new")
        #expect(replaced?.target == "old")
        #expect(routes.count == 1)
        #expect(try routes.match("tt://menu/1").match?.route.target == "new")
    }

    @Test(arguments: [
        ("tt://u/(a)", "tt://u/(b)"),
        ("tt://u/(a)", "tt://u/(a:string)"),
        ("tt://u/(a:)", "tt://u/(a)"),
        ("tt://u/(a:int)/x", "TT://u/(b:int)/x"),
        ("tt://s?a=(x)&b=1", "tt://s?b=1&a=(y)"),
    ])
    func patternsDifferingOnlyInNamesConflict(first: String, second: String) throws {
        let routes = try table([first])
        do {
            try routes.add(second, target: second)
            Issue.record("\(second) should conflict with \(first)")
        } catch {
            #expect(error.description.contains(first))
            #expect(error.description.contains(second))
        }
        #expect(routes.count == 1)
        #expect(routes.route(for: first) != nil)
    }

    @Test func removeTakesARouteOut() throws {
        let routes = try table(["tt://a/(x)", "tt://a/b", "tt://a/(r:path)", "*"])
        #expect(routes.remove("tt://a/b")?.target == "tt://a/b")
        #expect(try winner(routes, "tt://a/b") == "tt://a/(x)")
        #expect(routes.remove("tt://a/(x)") != nil)
        #expect(try winner(routes, "tt://a/b") == "tt://a/(r:path)")
        #expect(routes.remove("tt://a/(r:path)") != nil)
        #expect(try winner(routes, "tt://a/b") == "*")
        #expect(routes.remove("*") != nil)
        #expect(try winner(routes, "tt://a/b") == nil)
        #expect(routes.remove("tt://nothing") == nil)
        #expect(routes.count == 0)
        // A removed shape can be registered again under another name.
        try routes.add("tt://a/(y)", target: "again")
        #expect(try winner(routes, "tt://a/q") == "tt://a/(y)")
    }

    @Test func routesListInPrecedenceOrder() throws {
        let routes = try table(["*", "tt://a/(r:path)", "tt://a/(x)", "tt://a/b", "tt://a/(n:int)", "tt://a/b/c"])
        #expect(routes.routes.map(\.pattern.text) == ["tt://a/b/c", "tt://a/b", "tt://a/(n:int)", "tt://a/(x)", "tt://a/(r:path)", "*"])
    }

    @Test func tieWarningsNamePatternsThatOnlyTextCanSeparate() throws {
        let routes = try table(["tt://n/(v:number)", "tt://n/(v:int)", "tt://n/(s)", "tt://m/(v:int)"])
        let warnings = routes.tieWarnings()
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("'tt://n/(v:int)' and 'tt://n/(v:number)'") == true)
        #expect(try table(["tt://a/(x)", "tt://a/b"]).tieWarnings().isEmpty)
    }

    @Test func lookupDoesNotDependOnUnrelatedRoutes() throws {
        // Many routes that share a prefix must not change which route wins or what it binds.
        let routes = RouteTable<String>()
        for i in 0..<5_000 {
            try routes.add("tt://item\(i)/(id:int)/detail", target: "item\(i)")
        }
        try routes.add("tt://item42/(id:int)/(tab)", target: "tab")
        #expect(try routes.match("tt://item42/7/detail").match?.route.target == "item42")
        #expect(try routes.match("tt://item42/7/photos").match?.params == ["id": 7, "tab": "photos"])
        #expect(try routes.match("tt://item4999/1/detail").match?.route.target == "item4999")
        #expect(try winner(routes, "tt://item5000/1/detail") == nil)
    }
}
