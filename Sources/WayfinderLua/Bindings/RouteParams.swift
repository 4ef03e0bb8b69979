import OrderedCollections
import Wayfinder

/// A route's name and its params as a script hands them over (`wf.url_for_route`,
/// `nav:open { route = ..., params = ... }`, `app:open_route`), read into the URL of the named
/// route. Every mistake comes back as a reason, for the Lua side to raise at the caller's line.
package enum RouteParams {
    /// The name at `nameAt` and the params table after it (nil for none).
    package static func url(of routes: RouteTable<LuaTarget>, call: LuaCall, nameAt index: Int) throws -> String {
        let name = try call.string(index, name: "route")
        let params = try read(call, at: index + 1, route: name)
        do {
            return try routes.url(forRouteNamed: name, params: params)
        } catch {
            throw Refusal(error.reason)
        }
    }

    private static func read(_ call: LuaCall, at index: Int, route name: String) throws -> OrderedDictionary<String, Value> {
        let given: Value
        do {
            given = try call.value(index, name: "params")
        } catch {
            // A value that cannot cross over (text that is not UTF-8) is the caller's mistake.
            if error.kind == .conversion { throw Refusal("route '\(name)': params: \(error.message)") }
            throw error
        }
        if given.isNull { return [:] }
        if let fields = given.mapValue { return fields }
        if let items = given.arrayValue, items.isEmpty { return [:] }
        throw Refusal("route '\(name)': params must be a table of param names to values, got \(given.typeDescription)")
    }
}
