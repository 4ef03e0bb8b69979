import Foundation
import OrderedCollections
import Testing
@testable import Wayfinder

/// The open a guard keeps waiting, as the state document saves it: written and read back, moved
/// with the routes, put back at restore (unless it expired), and refused when malformed.
@Suite("Persistence: the pending open")
struct PendingStateTests {
    let now = Date(timeIntervalSince1970: 1_900_000_000)

    private func guarded() throws -> NavigatorHarness {
        let h = try NavigatorHarness(restaurantRoutes + [("tt://order/(n)", RouteOptions(external: true)), ("tt://signin", RouteOptions(mode: .modal))])
        h.navigator.routeGuard = { match, _ in match.route.pattern.text == "tt://order/(n)" ? .stop(instead: "tt://signin") : .pass }
        h.navigator.clock = { [now] in now }
        return h
    }

    @Test func thePendingOpenIsCapturedAsPlainDataAndReadBack() throws {
        let h = try guarded()
        try h.navigator.open("tt://food/a")
        var request = NavigationRequest(url: "tt://order/7", query: ["note": "ring twice", "callback": .handle(Value.Handle(id: 1, kind: "function"))],
                                        parent: "tt://food/a", state: ["step": 2], presentation: .replace)
        request.fromOutside = true
        try h.navigator.open(request)
        let (state, leftOut) = h.navigator.captured(mode: .top, app: "test", record: { _, _ in ControllerRecord() })
        #expect(leftOut == ["pending tt://order/7: query.callback (a function)"])
        let expected = NavigationState.Pending(url: "tt://order/7", query: ["note": "ring twice"], parent: "tt://food/a", state: ["step": 2],
                                               presentation: .replace, fromOutside: true, since: now)
        #expect(state.pending == expected)
        let text = try JSON.encode(state.document)
        #expect(text.contains(#""pending":{"url":"tt://order/7","query":{"note":"ring twice"},"parent":"tt://food/a","state":{"step":2},"presentation":"replace","link":true,"since":"2030-03-17T17:46:40Z"}"#))
        #expect(try NavigationState(document: JSON.decode(text)).pending == expected)
        // Mode none keeps nothing, the pending open included.
        #expect(h.navigator.captured(mode: .none, record: { _, _ in ControllerRecord() }).state.pending == nil)
    }

    @Test func restoringPutsItBackToWaitAndTheNextChangeAsksItsGuard() throws {
        let saved = NavigationState(app: "test", savedAt: now, root: .stack([.init(url: "tt://food/a")]),
                                    pending: .init(url: "tt://order/3", presentation: .pop, since: now.addingTimeInterval(-60)))
        let h = try guarded()
        var asked = 0
        h.navigator.routeGuard = { match, _ in
            guard match.route.pattern.text == "tt://order/(n)" else { return .pass }
            asked += 1
            return asked >= 2 ? .pass : .stop(instead: nil)
        }
        #expect(try h.navigator.restore(saved))
        #expect(asked == 1, "asked once the restored tree was in place")
        #expect(h.navigator.pendingOpen?.request.presentation == .pop)
        try h.navigator.open("tt://food/b")
        #expect(h.visible == "tt://order/3")
        if case .stack(let stack) = h.navigator.tree.root { #expect(stack.entries.map(\.url) == ["tt://food/a", "tt://order/3"]) }
    }

    @Test func anExpiredOneIsNotPutBack() throws {
        let saved = NavigationState(app: "test", savedAt: now, root: .stack([.init(url: "tt://food/a")]),
                                    pending: .init(url: "tt://order/3", since: now.addingTimeInterval(-3601)))
        let h = try guarded()
        var warnings: [String] = []
        h.navigator.warn = { warnings.append($0) }
        #expect(try h.navigator.restore(saved))
        #expect(h.navigator.pendingOpen == nil)
        #expect(warnings == ["dropped the pending 'tt://order/3': it waited longer than 3600 s"], "a link that vanishes says so")
        // One stopped in the future (the clock went back) has no age to trust.
        warnings.removeAll()
        var future = saved
        future.pending?.since = now.addingTimeInterval(60)
        #expect(try h.navigator.restore(future))
        #expect(h.navigator.pendingOpen == nil)
        #expect(warnings == ["dropped the pending 'tt://order/3': it was stopped after the time the clock gives now (the clock went back)"])
        h.navigator.pendingExpiration = 0
        #expect(try h.navigator.restore(saved))
        #expect(h.navigator.pendingOpen?.request.url == "tt://order/3", "0 keeps it for ever")
    }

    @Test func itsURLFollowsTheMoves() throws {
        let h = try guarded()
        try h.navigator.moves.add(from: "tt://orders/(n)", to: "tt://order/(n)")
        let saved = NavigationState(app: "test", root: .stack([.init(url: "tt://food/a")]), pending: .init(url: "tt://orders/4?x=1", since: now))
        #expect(try saved.following(moves: h.navigator.moves).state.pending?.url == "tt://order/4?x=1")
    }

    @Test(arguments: [
        (#"{"since":"2030-01-01T00:00:00Z"}"#, "pending.url: it is missing"),
        (#"{"url":"tt://a"}"#, "pending.since: it is missing"),
        (#"{"url":"tt://a","since":"yesterday"}"#, "pending.since: 'yesterday' is not a time such as 2026-01-01T00:00:00Z"),
        (#"{"url":"tt://a","since":"2030-01-01T00:00:00Z","presentation":"sideways"}"#,
         "pending.presentation: must be one of push, replace, replace_root, clear_all, refresh, pop, none; got 'sideways'"),
        (#"{"url":"tt://a","since":"2030-01-01T00:00:00Z","link":"yes"}"#, "pending.link: true or false expected, found a string"),
        (#""tt://a""#, "pending: an object expected, found a string"),
    ])
    func aMalformedPendingOpenMakesTheDocumentUnreadable(pending: String, reason: String) throws {
        let text = #"{"format":"wayfinder.navigation","version":1,"app":"test","saved_at":"2030-01-01T00:00:00Z","mode":"all","#
            + #""root":{"kind":"stack","entries":[]},"modals":[],"pending":"# + pending + "}"
        #expect(throws: NavigationStateError.malformed(path: String(reason.prefix { $0 != ":" }), reason: String(reason.drop { $0 != ":" }.dropFirst(2)))) {
            try NavigationState(document: JSON.decode(text))
        }
    }
}
