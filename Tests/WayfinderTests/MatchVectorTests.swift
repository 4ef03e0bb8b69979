import Testing
import TestSupport
@testable import Wayfinder

@Suite("Match vectors (Tests/Fixtures/match.json)")
struct MatchVectorTests {
    struct VectorSet: CustomTestStringConvertible, Sendable {
        let name: String
        let routes: [String]
        let cases: [Value]
        var testDescription: String { name }
    }

    static let sets: [VectorSet] = {
        guard let root = try? Fixtures.load("match.json"), let sets = root["sets"]?.arrayValue else { return [] }
        return sets.map { set in
            VectorSet(name: set["name"]?.stringValue ?? "?",
                      routes: set["routes"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                      cases: set["cases"]?.arrayValue ?? [])
        }
    }()

    @Test func vectorsAreLoaded() {
        #expect(Self.sets.count >= 4)
        #expect(Self.sets.allSatisfy { !$0.routes.isEmpty && !$0.cases.isEmpty })
    }

    /// Every registration order must give the same answers: given, reversed, and shuffled.
    static func orders(_ routes: [String]) -> [[String]] {
        var orders = [routes, routes.reversed()]
        for seed in 1...6 {
            var generator = SeededGenerator(seed: UInt64(seed))
            orders.append(routes.shuffled(using: &generator))
        }
        return orders
    }

    @Test(arguments: sets)
    func everyCaseInEveryRegistrationOrder(_ set: VectorSet) throws {
        for order in Self.orders(set.routes) {
            let routes = try table(order)
            for testCase in set.cases {
                let url = try #require(testCase["url"]?.stringValue)
                let result = try routes.match(url)
                let expected = testCase["pattern"]?.stringValue
                #expect(result.match?.route.pattern.text == expected, "\(url) in order \(order)")
                guard let match = result.match, expected != nil else { continue }
                #expect(Value.map(match.params) == (testCase["params"] ?? [:]), "params of \(url)")
                #expect(Value.map(match.query) == (testCase["query"] ?? [:]), "query of \(url)")
            }
        }
    }
}
