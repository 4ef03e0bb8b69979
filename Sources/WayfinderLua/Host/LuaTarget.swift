import Wayfinder

/// What a route opens in a Lua app: a controller class (a table) or a function, held as a handle
/// so the route keeps it alive and hands back the very same Lua value.
public struct LuaTarget: CustomStringConvertible {
    public let handle: Value.Handle
    public let isClass: Bool
    /// The class's `__name` (set by `wf.controller`), when it has one.
    public let className: String?
    /// The route's `guard` option, asked before its URL opens (docs/lua-api.md, "Guards").
    public let routeGuard: LuaRouteGuard?

    init(handle: Value.Handle, isClass: Bool, className: String?, routeGuard: LuaRouteGuard? = nil) {
        self.handle = handle
        self.isClass = isClass
        self.className = className
        self.routeGuard = routeGuard
    }

    public var description: String {
        isClass ? "class " + (className ?? "(unnamed)") : "function"
    }
}

/// A route's guard: the script's function, and where it is defined (`file:line`), which a guard
/// that answers wrongly is named by.
public struct LuaRouteGuard {
    let function: Value.Handle
    let definition: String
}
