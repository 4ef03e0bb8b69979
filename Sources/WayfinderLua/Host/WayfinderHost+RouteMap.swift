import Wayfinder

/// Questions about the running app's route map, answered as `wayfinder match` and `wayfinder
/// routes` answer them: what a program's devtools (a route table, an explain box, a flow graph)
/// ask. Each reads the app of the moment, so after a hot reload it answers for the new map.
extension WayfinderHost {
    /// Which route `url` opens, with which values and which constructor, or why none does; a URL
    /// `open` would hand outside the app (no route uses its scheme) is reported as external. The
    /// `--json` form is the report's `json`. Throws the script's error of a param type whose Lua
    /// function raises, naming its file and line.
    public func match(_ url: String) throws(ScriptError) -> MatchReport {
        try exclusively("match", refusing: Self.scriptRefusal) { () throws(ScriptError) in try current.match(url) }
    }

    /// Every pattern that could take `url` and why each won, lost or failed (`wayfinder match
    /// --explain`), the winner first. A URL that cannot be read is an explanation with its
    /// reason and no entries.
    public func explain(_ url: String) throws -> MatchExplanation {
        try exclusively("explain") { try current.explain(url) }
    }

    /// The route table in precedence order (`*` last), as `wayfinder routes` lists it: each
    /// route's pattern, options, target and the constructor `open` would call.
    public func routeReports() throws(ScriptError) -> [RouteReport] {
        try exclusively("list the routes", refusing: Self.scriptRefusal) { () throws(ScriptError) in try current.routeReports() }
    }

    /// Whether `open` hands `url` outside the app (to `openExternal`): no route uses its scheme
    /// (`http` and `https` go to `*` when the map has one). False for a URL that cannot be read.
    public func isExternal(_ url: String) -> Bool {
        guard let parsed = try? NavigationURL(url) else { return false }
        return exclusivelyOrStop("ask whether a URL is external") { current.navigator.isExternal(parsed) }
    }
}
