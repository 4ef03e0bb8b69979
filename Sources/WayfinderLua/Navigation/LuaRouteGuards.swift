import Wayfinder

/// A route's `guard = function(route) ... end` (docs/lua-api.md, "Guards"), asked by the
/// navigator before the route's URL opens. The guard gets the route (`GuardedRoute`), with `link`
/// true for a link from outside; it answers
/// true, or false and the URL to open instead. An error in it, or its time budget running out,
/// fails the open with the script's `file:line`; any other answer is an error naming the guard.
extension LuaNavigatorBridge {
    func verdict(of match: RouteMatch<LuaTarget>, _ request: NavigationRequest) throws -> GuardVerdict {
        guard let routeGuard = match.route.target.routeGuard else { return .pass }
        let route = GuardedRoute.value(of: match, url: request.url, link: request.fromOutside)
        let answer = try state.call(routeGuard.function, [route])
        switch (answer.first ?? .null, answer.count > 1 ? answer[1] : .null) {
        case (.bool(true), _): return .pass
        case (.bool(false), .null): return .stop(instead: nil)
        case (.bool(false), .string(let instead)): return .stop(instead: instead)
        case (.bool(false), let other):
            throw ScriptError(kind: .runtime, message: "the guard of '\(match.route.pattern.text)' (\(routeGuard.definition)) returned false "
                + "and \(other.typeDescription); the URL to open instead must be a string")
        case (let other, _):
            throw ScriptError(kind: .runtime, message: "the guard of '\(match.route.pattern.text)' (\(routeGuard.definition)) returned "
                + "\(other.typeDescription); it must return true, or false and a URL to open instead")
        }
    }
}

extension LuaNavigatorBridge {
    /// Charges what the open a guard keeps waiting holds (its URL, query and state, as a screen's
    /// entry would) to the state's memory limit for as long as it waits; the navigator tells of
    /// every change (`Navigator.pendingChanged`), and the one before is given back first. One that
    /// does not fit is dropped, with a warning, as one that expired is: nothing keeps it.
    func chargePending() {
        pendingCharge = nil
        guard let pending = navigator.pendingOpen else { return }
        do {
            pendingCharge = try ExternalCharge(RetainedCost.entry(pending.request), to: state)
        } catch {
            navigator.dropPending()
            warn("dropped the pending '\(pending.request.url)': \(error.message)")
        }
    }
}
