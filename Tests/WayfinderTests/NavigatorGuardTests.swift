import Foundation
import Testing
@testable import Wayfinder

/// A harness whose routes `tt://order/(n)` (and `tt://vault` when asked) are guarded by a flag
/// the test sets, sending to `tt://signin` while it is off.
private final class GuardedHarness {
    let h: NavigatorHarness
    var signedIn = false
    var asked: [String] = []
    var warnings: [String] = []
    var now = Date(timeIntervalSince1970: 1_000_000)

    init(extra: [(String, RouteOptions)] = []) throws {
        h = try NavigatorHarness(restaurantRoutes + [
            ("tt://order/(n)", RouteOptions()), ("tt://signin", RouteOptions(mode: .modal)), ("tt://vault", RouteOptions()),
        ] + extra)
        h.navigator.clock = { [unowned self] in now }
        h.navigator.warn = { [unowned self] in warnings.append($0) }
        h.navigator.routeGuard = { [unowned self] match, _ in
            switch match.route.pattern.text {
            case "tt://order/(n)":
                asked.append(match.url.text)
                return signedIn ? .pass : .stop(instead: "tt://signin")
            case "tt://vault":
                return signedIn ? .pass : .stop(instead: nil)
            default:
                return .pass
            }
        }
    }
}

@Suite("Navigator: guards and pending opens")
struct NavigatorGuardTests {
    @Test func aStoppedOpenOpensWhatTheGuardNamesAndWaits() throws {
        let g = try GuardedHarness()
        try g.h.navigator.open("tt://food/a")
        let shown = try g.h.navigator.open(NavigationRequest(url: "tt://order/7", presentation: .replace))
        #expect(g.h.visible == "tt://signin")
        #expect(g.h.navigator.top === shown)
        #expect(g.h.navigator.pendingOpen?.request.url == "tt://order/7")
        #expect(g.h.navigator.pendingOpen?.request.presentation == .replace)
        #expect(g.h.navigator.pendingOpen?.since == g.now)
        #expect(!g.h.made.contains("tt://order/7"))
        #expect(g.asked == ["tt://order/7"], "the guard is not asked again by the open that stopped")
    }

    @Test func thePendingOpenOpensAfterTheChangeThatLetsItThrough() throws {
        let g = try GuardedHarness()
        try g.h.navigator.open("tt://food/a")
        try g.h.navigator.open("tt://food/b")
        try g.h.navigator.open(NavigationRequest(url: "tt://order/7", presentation: .replace))
        // A change while the guard still stops it: asked again, still waiting.
        try g.h.navigator.open("tt://food/c")
        #expect(g.asked == ["tt://order/7", "tt://order/7"])
        #expect(g.h.navigator.pendingOpen != nil)
        // Signing in, then the sign-in closes: the order opens, with its presentation.
        g.signedIn = true
        try g.h.navigator.dismiss()
        #expect(g.h.visible == "tt://order/7")
        #expect(g.h.navigator.pendingOpen == nil)
        #expect(g.h.navigator.tree.modals.isEmpty)
        if case .stack(let stack) = g.h.navigator.tree.root {
            #expect(stack.entries.map(\.url) == ["tt://food/a", "tt://order/7"], "replace took the visible screen's place")
        }
    }

    @Test func resumeAsksAtOnce() throws {
        let g = try GuardedHarness()
        guard case .nothingPending = try g.h.navigator.resume() else { Issue.record("nothing was pending"); return }
        try g.h.navigator.open("tt://food/a")
        try g.h.navigator.open("tt://order/1")
        guard case .waiting = try g.h.navigator.resume() else { Issue.record("the guard still stops it"); return }
        g.signedIn = true
        guard case .opened(let controller) = try g.h.navigator.resume() else { Issue.record("it opens"); return }
        #expect(controller?.url == "tt://order/1")
        #expect(g.h.visible == "tt://order/1")
        #expect(g.h.navigator.pendingOpen == nil)
    }

    @Test func aGuardThatNamesNothingLeavesTheTreeAndKeepsTheURL() throws {
        let g = try GuardedHarness()
        try g.h.navigator.open("tt://food/a")
        let before = (g.h.snapshot, g.h.navigator.changeCount)
        #expect(throws: NavigationError.waiting("tt://vault", guardedBy: "tt://vault")) { try g.h.navigator.open("tt://vault") }
        #expect(g.h.snapshot == before.0)
        #expect(g.h.navigator.pendingOpen?.request.url == "tt://vault")
        #expect(g.h.navigator.changeCount != before.1, "a host saves the pending open")
    }

    @Test func theNewestStoppedOpenWaits() throws {
        let g = try GuardedHarness()
        try g.h.navigator.open("tt://food/a")
        try g.h.navigator.open("tt://order/1")
        try g.h.navigator.dismiss()
        try g.h.navigator.open("tt://order/2")
        #expect(g.h.navigator.pendingOpen?.request.url == "tt://order/2")
        #expect(g.h.navigator.dropPending())
        #expect(g.h.navigator.pendingOpen == nil)
        #expect(!g.h.navigator.dropPending())
    }

    @Test func aGuardThatThrowsFailsTheOpenAndChangesNothing() throws {
        let g = try GuardedHarness()
        try g.h.navigator.open("tt://food/a")
        let before = g.h.snapshot
        g.h.navigator.routeGuard = { _, _ in throw NavigationError.controllerFailed("tt://food/b", reason: "guard broke") }
        #expect(throws: NavigationError.controllerFailed("tt://food/b", reason: "guard broke")) { try g.h.navigator.open("tt://food/b") }
        #expect(g.h.snapshot == before)
        #expect(g.h.navigator.pendingOpen == nil)
    }

    @Test func aGuardThatThrowsWhenAskedAgainDropsThePendingOpenNotTheChange() throws {
        let g = try GuardedHarness()
        try g.h.navigator.open("tt://food/a")
        try g.h.navigator.open("tt://order/1")
        g.h.navigator.routeGuard = { _, _ in throw NavigationError.controllerFailed("tt://order/1", reason: "guard broke") }
        #expect(try g.h.navigator.dismiss())
        #expect(g.h.visible == "tt://food/a")
        #expect(g.h.navigator.pendingOpen == nil)
        #expect(g.warnings == ["dropped the pending 'tt://order/1': cannot open 'tt://order/1': guard broke"])
    }

    @Test func guardsSendingEachOtherAreCutAsALoop() throws {
        let h = try NavigatorHarness(restaurantRoutes + [("tt://ping", RouteOptions()), ("tt://pong", RouteOptions()), ("tt://self", RouteOptions())])
        h.navigator.routeGuard = { match, _ in
            switch match.route.pattern.text {
            case "tt://ping": return .stop(instead: "tt://pong")
            case "tt://pong": return .stop(instead: "tt://ping")
            case "tt://self": return .stop(instead: "tt://self")
            default: return .pass
            }
        }
        try h.navigator.open("tt://food/a")
        let before = h.snapshot
        for url in ["tt://ping", "tt://self"] {
            #expect {
                try h.navigator.open(url)
            } throws: { error in
                guard case .redirectLoop(let hops) = error as? NavigationError else { return false }
                return hops.count == Navigator<String, Screen>.maximumRedirects + 1
            }
            #expect(h.snapshot == before)
            #expect(h.navigator.pendingOpen == nil)
        }
    }

    @Test func aParentsGuardStopsTheWholeOpen() throws {
        let g = try GuardedHarness(extra: [("tt://order/(n)/receipt", RouteOptions(parent: "tt://order/1"))])
        try g.h.navigator.open("tt://food/a")
        try g.h.navigator.open("tt://order/1/receipt")
        #expect(g.h.visible == "tt://signin")
        #expect(!g.h.made.contains("tt://order/1/receipt"))
        #expect(g.h.navigator.pendingOpen?.request.url == "tt://order/1/receipt")
        g.signedIn = true
        try g.h.navigator.dismiss()
        if case .stack(let stack) = g.h.navigator.tree.root {
            #expect(stack.entries.map(\.url) == ["tt://food/a", "tt://order/1", "tt://order/1/receipt"])
        }
    }

    @Test func aPendingOpenExpiresByTheNavigatorsClock() throws {
        let g = try GuardedHarness()
        g.h.navigator.pendingExpiration = 60
        try g.h.navigator.open("tt://food/a")
        try g.h.navigator.open("tt://order/1")
        g.now += 61
        g.signedIn = true
        try g.h.navigator.dismiss()
        #expect(g.h.visible == "tt://food/a")
        #expect(g.h.navigator.pendingOpen == nil)
        #expect(g.warnings == ["dropped the pending 'tt://order/1': it waited longer than 60 s"])
        // One put back from a saved state that has expired already is not kept.
        g.h.navigator.keepPending(PendingOpen(request: NavigationRequest(url: "tt://order/2"), since: g.now - 120))
        #expect(g.h.navigator.pendingOpen == nil)
        g.h.navigator.keepPending(PendingOpen(request: NavigationRequest(url: "tt://order/2"), since: g.now - 30))
        #expect(g.h.navigator.pendingOpen?.request.url == "tt://order/2")
    }

    @Test func resumeWhileTheTreeIsChangingFailsBusyAndTheOpenGoesOnWaiting() throws {
        let g = try GuardedHarness()
        try g.h.navigator.open("tt://order/7")
        var refusal: Error?
        g.h.whileMaking["tt://food/a"] = { navigator in
            do { try navigator.resume() } catch { refusal = error }
        }
        try g.h.navigator.open("tt://food/a")
        guard case .busy? = refusal as? NavigationError else { Issue.record("resume from a constructor is refused as busy: \(String(describing: refusal))"); return }
        #expect(g.h.navigator.pendingOpen?.request.url == "tt://order/7")
        #expect(g.warnings.isEmpty, "\(g.warnings)")
    }

    @Test func aWaitingActionWhoseOwnOpenIsStoppedLeavesThatOpenWaiting() throws {
        let g = try GuardedHarness(extra: [("tt://checkout", RouteOptions(mode: .none)), ("tt://confirmed", RouteOptions())])
        let others = try #require(g.h.navigator.routeGuard)
        g.h.navigator.routeGuard = { [unowned g] match, request in
            switch match.route.pattern.text {
            case "tt://checkout": return g.signedIn ? .pass : .stop(instead: "tt://signin")
            case "tt://confirmed": return .stop(instead: nil)
            default: return try others(match, request)
            }
        }
        g.h.whileMaking["tt://checkout"] = { navigator in _ = try? navigator.open("tt://confirmed") }
        try g.h.navigator.open("tt://checkout")
        #expect(g.h.navigator.pendingOpen?.request.url == "tt://checkout")
        g.signedIn = true
        try g.h.navigator.dismiss()
        #expect(g.h.navigator.pendingOpen?.request.url == "tt://confirmed", "the open the action stopped waits in its turn")
        #expect(g.warnings.isEmpty, "\(g.warnings)")
    }

    @Test func aGuardMayNotNavigate() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        var refusal: Error?
        h.navigator.routeGuard = { [unowned h] match, _ in
            if match.url.text == "tt://food/b" {
                do { try h.navigator.open("tt://food/c") } catch { refusal = error }
            }
            return .pass
        }
        try h.navigator.open("tt://food/a")
        try h.navigator.open("tt://food/b")
        guard case .busy? = refusal as? NavigationError else { Issue.record("the guard's open was refused as busy"); return }
        #expect(h.visible == "tt://food/b")
    }
}
