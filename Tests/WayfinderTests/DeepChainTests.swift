import Foundation
import Testing
@testable import Wayfinder

/// Chains whose length the input chooses, at a million links: context chains read, released,
/// saved and restored; the parent chain at its limit and one past it; JSON at its
/// nesting limit and one past it.
@Suite("deep chains")
struct DeepChainTests {
    static let million = 1_000_000

    /// A chain of `depth` layers over `app`, its outermost layer holding "k" = 7.
    static func chain(depth: Int, over app: ContextChain?) throws -> ContextChain {
        var layer = app
        for _ in 0..<depth { layer = ContextChain(inner: layer) }
        let outer = try #require(layer)
        try outer.set("k", 7)
        return outer
    }

    @Test func aMillionLayersAreReadAndLetGo() throws {
        let app = ContextChain(name: "app")
        try app.set("deepest", "here")
        weak var middle: ContextChain?
        do {
            let outer = try Self.chain(depth: Self.million, over: app)
            #expect(try outer.get("deepest") == "here")
            #expect(try outer.layer(named: "app") === app)
            middle = outer.inner
        }
        #expect(middle == nil, "the chain went when its outermost layer did")
        #expect(try app.get("deepest") == "here", "a layer held elsewhere stays, whole")
    }

    @Test func aLayerHeldElsewhereKeepsTheLayersBeneathIt() throws {
        let app = ContextChain(name: "app")
        let kept: ContextChain
        do {
            let outer = try Self.chain(depth: 1_000, over: app)
            var layer = outer
            for _ in 0..<500 { layer = try #require(layer.inner) }
            kept = layer
        }
        #expect(kept.layers.count == 501, "500 layers and the app's beneath the kept one")
        #expect(kept.layers.last === app)
    }

    @Test func aScreenWhoseContextIsAMillionLayersDeepIsSavedAndRestored() throws {
        let app = ContextChain(name: "app")
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://menu/1")
        try h.navigator.open("tt://food/pie")
        let deep = try Self.chain(depth: Self.million, over: app)
        let (state, leftOut) = h.navigator.tree.captured(mode: .all, appContext: app) { entry, _ in
            ControllerRecord(context: entry.url == "tt://food/pie" ? deep : nil)
        }
        #expect(leftOut.isEmpty)
        #expect(state.contexts.count == Self.million + 1)
        #expect(state.contexts[0].isApp && state.contexts.indices.dropFirst().allSatisfy { state.contexts[$0].inner == $0 - 1 })
        #expect(state.entries.last?.context == Self.million)

        try state.validate()

        // The file's text is a flat list of layers (a state file of 100,000 goes through it in
        // DeepInputCLITests); here the chain is made again from the state.
        let restoredApp = ContextChain(name: "app")
        let (contexts, problems) = state.restoredContexts(appContext: restoredApp)
        #expect(problems.isEmpty)
        let restored = try #require(contexts.last)
        #expect(try restored.get("k") == 7)
        #expect(restored.layers.count == Self.million + 1 && restored.layers.last === restoredApp)
    }

    /// `tt://p/0` and `tt://p/1` to `tt://p/<count>`, each the parent of the next.
    static func parentRoutes(count: Int) -> [(String, RouteOptions)] {
        [("tt://p/0", RouteOptions())] + (1...count).map { ("tt://p/\($0)", RouteOptions(parent: "tt://p/\($0 - 1)")) }
    }

    @Test func aChainOfAsManyParentsAsTheLimitOpens() throws {
        let limit = Navigator<String, Screen>.maximumParents
        let h = try NavigatorHarness(Self.parentRoutes(count: limit))
        try h.navigator.open("tt://p/\(limit)")
        #expect(h.made == (0...limit).map { "tt://p/\($0)" })
    }

    @Test func aChainOfOneParentMoreIsRefusedAndNothingChanges() throws {
        let limit = Navigator<String, Screen>.maximumParents
        let h = try NavigatorHarness(Self.parentRoutes(count: limit + 1) + [("tt://home", RouteOptions())])
        try h.navigator.open("tt://home")
        let before = h.snapshot
        #expect(throws: NavigationError.parentChainTooLong("tt://p/\(limit + 1)", limit: limit)) {
            try h.navigator.open("tt://p/\(limit + 1)")
        }
        #expect(h.snapshot == before)
        #expect(h.made == ["tt://home"], "no parent was made")
    }

    /// `levels` arrays, each inside the one before, the innermost empty.
    static func nested(_ levels: Int) -> Value {
        var value = Value.array([])
        for _ in 1..<levels { value = .array([value]) }
        return value
    }

    @Test func jsonWritesAndReadsValuesNestedToItsLimitAndRefusesOneLevelMore() throws {
        let limit = JSON.maximumDepth
        let deepest = Self.nested(limit)
        let text = try JSON.encode(deepest)
        #expect(try JSON.decode(text) == deepest)
        #expect(throws: JSON.EncodingError.self) { try JSON.encode(Self.nested(limit + 1)) }
        #expect(throws: JSON.DecodingError.self) { try JSON.decode("[" + text + "]") }
        let million = String(repeating: "[", count: Self.million) + String(repeating: "]", count: Self.million)
        #expect(throws: JSON.DecodingError(offset: limit, reason: "nested deeper than \(limit) levels")) { try JSON.decode(million) }
    }

    @Test func aPatternHasAtMostTheLimitOfPathSegments() throws {
        let limit = Pattern.maximumPathSegments
        let longest = "tt://h/" + Array(repeating: "a", count: limit).joined(separator: "/")
        let routes = try table([longest, "tt://h/(rest:path)"])
        #expect(try winner(routes, longest) == longest)
        let tooLong = "tt://h/" + Array(repeating: "a", count: limit + 1).joined(separator: "/")
        #expect(throws: PatternError(pattern: tooLong, reason: "a pattern has at most \(limit) path segments")) {
            try routes.add(tooLong, target: tooLong)
        }
        // A URL longer than any pattern is matched no deeper than the patterns go.
        #expect(try winner(routes, tooLong) == "tt://h/(rest:path)")
    }
}
