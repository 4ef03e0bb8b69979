import Foundation
import Testing
@testable import Wayfinder

/// Renamed routes (docs/matching.md, "Moved routes"): one function rewrites an old URL, for the
/// restore, for `open` and for anything else that holds old URLs.
@Suite("Moved routes")
struct RouteMovesTests {
    func moves(_ live: [String], _ declared: [(String, String)]) throws -> RouteMoves {
        let routes = try table(live)
        let moves = RouteMoves(routes: routes)
        for (old, new) in declared { try moves.add(from: old, to: new) }
        return moves
    }

    @Test func carriesParamsByNameAndKeepsTheRestOfTheQueryAndTheFragment() throws {
        let moves = try moves(["tt://product/(id:int)/(size)", "tt://search?q=(q)&page=(page:int)"], [
            ("tt://item/(size)/(id)", "tt://product/(id)/(size)"),
            ("tt://find/(q)?p=(page)", "tt://search?q=(q)&page=(page)"),
        ])
        #expect(try moves.rewrite("tt://item/large/12") == .moved("tt://product/12/large"))
        #expect(try moves.rewrite("tt://item/large/12?ref=ad&flag&tag=a&tag=b#top")
            == .moved("tt://product/12/large?ref=ad&flag&tag=a&tag=b#top"))
        #expect(try moves.rewrite("tt://item/a%20b/12?x=%26") == .moved("tt://product/12/a%20b?x=%26"))
        #expect(try moves.rewrite("tt://find/shoes?p=2&sort=new") == .moved("tt://search?q=shoes&page=2&sort=new"))
        // A query param the old URL lacks is left out of the new one, as it was absent there.
        #expect(try moves.rewrite("tt://find/shoes") == .moved("tt://search?q=shoes"))
    }

    @Test func onlyAURLNoLiveRouteButTheDefaultMatchesMoves() throws {
        let moves = try moves(["tt://item/special", "tt://product/(id)", "*"], [("tt://item/(id)", "tt://product/(id)")])
        #expect(try moves.rewrite("tt://item/special") == .unmoved)
        #expect(try moves.rewrite("tt://product/4") == .unmoved)
        #expect(try moves.rewrite("tt://item/4") == .moved("tt://product/4"))
        #expect(try moves.rewrite("tt://elsewhere/4") == .unmoved)
        #expect(try moves.rewrite("not a url") == .unmoved)
    }

    @Test func followsChainsAndSaysWhyAURLCannotMove() throws {
        let moves = try moves(["tt://c/(id:int)"], [("tt://a/(id)", "tt://b/(id)"), ("tt://b/(id)", "tt://c/(id)")])
        #expect(try moves.rewrite("tt://a/7") == .moved("tt://c/7"))
        #expect(try moves.rewrite("tt://a/seven") == .failed("it moved to 'tt://c/seven', which no route matches"))
        let typed = try self.moves(["tt://c/(id:int)"], [("tt://a/(id)", "tt://c/(id:int)")])
        #expect(try typed.rewrite("tt://a/seven")
            == .failed("'tt://a/(id)' moved to 'tt://c/(id:int)', but field 'id' = 'seven' is not a valid int"))
    }

    @Test func anOldPatternUsesTheLiveTablesTypesAsTheyAreNow() throws {
        let routes = try table(["tt://new/(code)"])
        try routes.registerType("sku") { $0.hasPrefix("A") ? .string($0) : nil }
        let moves = RouteMoves(routes: routes)
        try moves.add(from: "tt://old/(code:sku)", to: "tt://new/(code)")
        #expect(try moves.rewrite("tt://old/A1") == .moved("tt://new/A1"))
        #expect(try moves.rewrite("tt://old/B1") == .unmoved)
        try routes.registerType("sku") { $0.hasPrefix("B") ? .string($0) : nil }
        #expect(try moves.rewrite("tt://old/B1") == .moved("tt://new/B1"))
    }

    @Test(arguments: [
        (["tt://a/(x)"], [("tt://b/(x)", "tt://c/(y)")], "pattern 'tt://c/(y)': names 'y' that the old pattern 'tt://b/(x)' does not bind (params are carried by name)"),
        (["tt://a/(x)"], [("tt://a/(y)", "tt://c/(y)")], "pattern 'tt://a/(y)': is the live route 'tt://a/(x)', so its URLs would never move (remove the route, or the move)"),
        (["tt://a/(x)"], [("*", "tt://a/1")], "pattern '*': '*' matches every URL; it cannot move"),
        (["tt://a/(x)"], [("tt://b", "*")], "pattern '*': '*' cannot generate URLs"),
        (["tt://a/(x)"], [("tt://b/(x)", "tt://a/()")], "pattern 'tt://a/()': an anonymous param '()' has no field to fill it from"),
        (["tt://a/(x)"], [("tt://b/(x)", "tt://c/(x)"), ("tt://c/(x)", "tt://b/(x)")],
         "pattern 'tt://c/(x)': the moves would go round in a cycle: 'tt://c/(x)' -> 'tt://b/(x)' -> 'tt://c/(x)'"),
        (["tt://a/(x)"], [("tt://b/(x)", "tt://c/(x)"), ("tt://c/(rest:path)", "tt://b/(rest)")],
         "pattern 'tt://c/(rest:path)': the moves would go round in a cycle: 'tt://c/(rest:path)' -> 'tt://b/(rest)' -> 'tt://c/(x)'"),
        (["tt://a/(x)"], [("tt://b/(x)", "tt://b/(x)")], "pattern 'tt://b/(x)': the moves would go round in a cycle: 'tt://b/(x)' -> 'tt://b/(x)'"),
        (["tt://a/(x)"], [("tt://b/(x)", "tt://a/(x)"), ("tt://b/(y)", "tt://a/(y)")],
         "pattern 'tt://b/(y)': conflicts with 'tt://b/(x)': the two differ only in param names or spelling, so neither could ever win"),
    ])
    func refusesBadDeclarations(live: [String], declared: [(String, String)], message: String) throws {
        let error = try #require(throws: PatternError.self) { _ = try moves(live, declared) }
        #expect(error.description == message)
    }

    @Test func movesThatOnlyLookAlikeAreNoCycle() throws {
        let moves = try moves(["tt://v2/(id)/view"], [
            ("tt://v1/(id)", "tt://v1/(id)/view"),          // one segment more: cannot match the old pattern again
            ("tt://v1/(id)/view", "tt://v2/(id)/view"),     // a chain, not a cycle
            ("tt://legacy/(id)", "tt://v1/(id)"),
        ])
        #expect(try moves.rewrite("tt://legacy/3") == .moved("tt://v2/3/view"))
        #expect(moves.moves.count == 3)
    }

    @Test func theSameOldPatternAgainReplacesItsMove() throws {
        let moves = try moves(["tt://a/(x)", "tt://b/(x)"], [("tt://old/(x)", "tt://a/(x)"), ("tt://old/(x)", "tt://b/(x)")])
        #expect(try moves.rewrite("tt://old/1") == .moved("tt://b/1"))
        #expect(moves.move(sharingShapeWith: try RouteTable<String>().parse("tt://old/(other)"))?.new.text == "tt://b/(x)")
        #expect(moves.move(sharingShapeWith: try RouteTable<String>().parse("tt://old/(other:int)")) == nil)
    }

    @Test func theNavigatorOpensAnOldURLWhereItMovedAndSavesTheNewOne() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.moves.add(from: "tt://dish/(name)", to: "tt://food/(name)")
        try h.navigator.open("tt://dish/pie?hot")
        #expect(h.visible == "tt://food/pie?hot")
        #expect(h.made == ["tt://food/pie?hot"])
        // `*` matches anything, and does not stop a move.
        try h.navigator.open("tt://dish/cake")
        #expect(h.visible == "tt://food/cake")
        try h.navigator.open("tt://elsewhere")
        #expect(h.visible == "tt://elsewhere")
    }

    @Test func anOpenThatCannotMoveSaysWhy() throws {
        let h = try NavigatorHarness([("tt://menu/(id:int)", RouteOptions())])
        try h.navigator.moves.add(from: "tt://carte/(id)", to: "tt://menu/(id)")
        #expect(throws: NavigationError.noRoute("tt://carte/x", reason: "no route matches; it moved to 'tt://menu/x', which no route matches")) {
            try h.navigator.open("tt://carte/x")
        }
        try h.navigator.open("tt://carte/3")
        #expect(h.visible == "tt://menu/3")
    }

    @Test func theNavigatorsRestoreRewritesSavedURLs() throws {
        let h = try NavigatorHarness(restaurantRoutes.filter { $0.0 != "*" })
        try h.navigator.moves.add(from: "tt://dish/(name)", to: "tt://food/(name)")
        let state = NavigationState(root: .stack([.init(url: "tt://menu/1"), .init(url: "tt://dish/pie?hot", state: ["n": 1])]),
                                    modals: [[.init(url: "tt://dish/nothing/here")]])
        var warnings: [String] = []
        h.navigator.warn = { warnings.append($0) }
        #expect(try h.navigator.restore(state))
        #expect(h.visible == "tt://food/pie?hot")
        #expect(h.made == ["tt://food/pie?hot"])
        #expect(warnings == ["dropped 'tt://dish/nothing/here': cannot open 'tt://dish/nothing/here': no route matches"])
        #expect(try h.navigator.back())
        #expect(h.visible == "tt://menu/1")
    }

    @Test func aStateFollowingMovesNamesTheURLsThatCannotMove() throws {
        let moves = try moves(["tt://c/(id:int)"], [("tt://a/(id)", "tt://c/(id)")])
        let state = NavigationState(root: .tabs([[.init(url: "tt://a/1")], [.init(url: "tt://a/x")]], selected: 1),
                                    popover: .init(url: "tt://a/2"))
        let (moved, problems) = try state.following(moves: moves)
        #expect(moved.entries.map(\.url) == ["tt://c/1", "tt://a/x", "tt://c/2"])
        #expect(problems == ["'tt://a/x' matches a moved route but cannot move: it moved to 'tt://c/x', which no route matches"])
    }
}
