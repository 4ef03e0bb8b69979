import Testing
import TestSupport
@testable import Wayfinder

@Suite("Explaining a match")
struct ExplanationTests {
    @Test func namesTheWinnerTheLosersAndTheFailures() throws {
        let routes = try table([
            "tt://menu/(initWithMenu:int)", "tt://menu/(initWithMenuName:)", "tt://menu/lunch/(page:int)",
            "tt://menu/(m)/(p)", "tt://order?kind=edit", "*",
        ])
        let explanation = try routes.explain("tt://menu/lunch")
        #expect(explanation.winner == "tt://menu/(initWithMenuName:)")
        #expect(explanation.entries.first == .init(pattern: "tt://menu/(initWithMenuName:)", verdict: .won))
        let verdicts = Dictionary(explanation.entries.map { ($0.pattern, $0.verdict) }, uniquingKeysWith: { a, _ in a })
        #expect(verdicts["tt://menu/(initWithMenu:int)"] == .failed("path segment 1 'lunch' is not a valid int"))
        #expect(verdicts["tt://menu/lunch/(page:int)"] == .failed("the URL ends before the pattern does"))
        #expect(verdicts["tt://menu/(m)/(p)"] == .failed("the URL ends before the pattern does"))
        #expect(verdicts["*"] == .lost("'*' is used only when nothing else matches"))
        #expect(verdicts["tt://order?kind=edit"] == nil)
    }

    @Test func losersSayWhichRuleDecided() throws {
        let routes = try table(["tt://a/(x)/c", "tt://a/b/(y)", "tt://a/(x)/(y)", "tt://s?b=(b)", "tt://s?a=(a)"])
        let explanation = try routes.explain("tt://a/b/c")
        #expect(explanation.winner == "tt://a/b/(y)")
        #expect(explanation.entries.contains(.init(pattern: "tt://a/(x)/c", verdict: .lost("equal specificity; at the path segment 1 a literal beats a string param"))))
        #expect(explanation.entries.contains(.init(pattern: "tt://a/(x)/(y)", verdict: .lost("host and path specificity 4 < 5 (literals count 2, params 1, catch-alls 0)"))))
        let query = try routes.explain("tt://s?a=1")
        #expect(query.entries.contains(.init(pattern: "tt://s?b=(b)", verdict: .lost("equal host, path and fragment; the query components this URL matched count 0 < 1 (literals 2, bound params 1)"))))
        let text = try routes.explain("tt://s")
        #expect(text.entries.contains(.init(pattern: "tt://s?b=(b)", verdict: .lost("equal precedence; 'tt://s?a=(a)' sorts first (the last resort)"))))
    }

    @Test func reasonsNameOnlyComponentsBothPatternsHave() throws {
        // The loser has no fragment component and the winner has no query: neither is named as a
        // place where one beat the other.
        let routes = try table(["tt://order?table=(initWithTable:int)", "tt://order#(orderAction:)"])
        let fragment = try routes.explain("tt://order#pizza")
        #expect(fragment.winner == "tt://order#(orderAction:)")
        #expect(fragment.entries.contains(.init(pattern: "tt://order?table=(initWithTable:int)",
                                                verdict: .lost("equal host and path; the URL has a fragment and the winner's fragment component matches it"))))
        // A key both patterns name, present in the URL.
        let kinds = try table(["tt://o?kind=edit", "tt://o?kind=(k)", "tt://o?kind=(k:int)&x=(x)"])
        let literal = try kinds.explain("tt://o?kind=edit")
        #expect(literal.winner == "tt://o?kind=edit")
        #expect(literal.entries.contains(.init(pattern: "tt://o?kind=(k)", verdict: .lost("equal host, path and fragment; at the query 'kind' a literal beats a string param"))))
        // Same score from different keys: the typed count decides, and no key is named.
        let typed = try table(["tt://search?page=(page:int)", "tt://search?q=(q)"]).explain("tt://search?q=x&page=2")
        #expect(typed.winner == "tt://search?page=(page:int)")
        #expect(typed.entries.contains(.init(pattern: "tt://search?q=(q)", verdict: .lost("equal host, path and fragment; binds 0 typed query param(s), the winner 1"))))
        // The fragment ranks when both have one.
        let both = try table(["tt://d#(p:int)", "tt://d#(s)"]).explain("tt://d#3")
        #expect(both.entries.contains(.init(pattern: "tt://d#(s)", verdict: .lost("equal host and path; at the fragment a typed param beats a string param"))))
    }

    @Test func queryAndFragmentFailuresAreNamed() throws {
        let routes = try table(["tt://order?kind=edit", "tt://page?n=(n:int)", "tt://doc#(part:int)"])
        #expect(try routes.explain("tt://order?kind=view").entries == [.init(pattern: "tt://order?kind=edit", verdict: .failed("query 'kind' is 'view', needs 'edit'"))])
        #expect(try routes.explain("tt://page?n=x").entries == [.init(pattern: "tt://page?n=(n:int)", verdict: .failed("query 'n' 'x' is not a valid int"))])
        #expect(try routes.explain("tt://doc").entries == [.init(pattern: "tt://doc#(part:int)", verdict: .failed("the URL has no fragment"))])
    }

    @Test func malformedAndUnmatchedURLsGiveTheReason() throws {
        let routes = try table(["tt://a"])
        let malformed = try routes.explain("tt://a/%Z")
        #expect(malformed.winner == nil)
        #expect(malformed.reason == "invalid percent escape in the path at byte 7")
        let none = try routes.explain("tt://b")
        #expect(none.winner == nil)
        #expect(none.reason == "no route matches")
    }

    @Test func explainingAgreesWithMatching() throws {
        let patterns = ["tt://a/(x)/c", "tt://a/b/(y)", "tt://a/(n:int)/(r:path)", "tt://a/(r:path)", "tt://(h)/b/c", "*"]
        let routes = try table(patterns)
        for url in ["tt://a/b/c", "tt://a/1/c", "tt://a/1/c/d", "tt://z/b/c", "tt://a", "tt://a/q", "x://y"] {
            #expect(try routes.explain(url).winner == winner(routes, url), "\(url)")
        }
    }

    /// On generated tables and URLs: the explanation's winner is the route the search opens, and
    /// its won and lost entries are exactly the patterns that match the URL on their own.
    @Test func theExplainedWinnerIsTheSearchWinnerOnGeneratedTables() throws {
        var generator = SeededGenerator(seed: 30)
        let grammar = RouteGrammar(
            hosts: ["a", "b", "(h)", "(h:int)"],
            segments: ["x", "y", "1", "(s)", "(n:int)", "(f:number)", "(t:bool)", "(r:path)"],
            queries: ["k=v", "k=(k)", "k=(k:int)", "q=(q)", "q=w", "t=(t:bool)"],
            fragments: ["", "", "#f", "#(f)", "#(f:int)"],
            urlHosts: ["a", "b", "7", "c"],
            urlSegments: ["x", "y", "1", "2.5", "true", "z"],
            urlQueries: ["k=v", "k=3", "k=u", "q=w", "q=1", "t", "t=no", "k=v&k=w"],
            urlFragments: ["", "#f", "#3", "#g"],
            depths: 4)

        var contested = 0
        for round in 0..<60 {
            let routes = RouteTable<String>()
            if generator.next() % 3 == 0 { try routes.add("*", target: "*") }
            for _ in 0..<(5 + Int(generator.next() % 40)) {
                let (text, withFragment) = grammar.pattern(&generator)
                // A text whose shape conflicts with one added before it is refused; that is not what this tests.
                _ = try? routes.add(withFragment, target: text)
            }
            let texts = routes.routes.map(\.pattern.text).filter { $0 != "*" }
            let singles = try texts.map { try table([$0]) }
            for _ in 0..<30 {
                let url = grammar.url(&generator)

                let explanation = try routes.explain(url)
                #expect(explanation.winner == (try winner(routes, url)), "round \(round) \(url)")
                var matching = Set<String>()
                for (text, single) in zip(texts, singles) where try single.match(url).match != nil { matching.insert(text) }
                if matching.count > 1 { contested += 1 }
                let ranked = explanation.entries.compactMap { entry -> String? in
                    switch entry.verdict {
                    case .won, .lost: return entry.pattern == "*" ? nil : entry.pattern
                    case .failed: return nil
                    }
                }
                #expect(Set(ranked) == matching, "round \(round) \(url)")
                #expect(ranked.count == matching.count, "round \(round) \(url): a pattern listed twice")
            }
        }
        // The generator is tuned so that many URLs have several candidates to choose between.
        #expect(contested > 150)
    }
}
