import Wayfinder

/// What a route opens in a Lua app: a controller class (a table), a function, or a native screen
/// (`wf.native "Camera"`: a class whose controllers hold the screen Swift makes), held as a handle
/// so the route keeps it alive and hands back the very same Lua value.
public struct LuaTarget: CustomStringConvertible {
    /// The class table or function, held by reference.
    public let handle: Value.Handle
    /// Whether it is a class (a table), not a function.
    public let isClass: Bool
    /// The class's `__name` (set by `wf.controller`), when it has one.
    public let className: String?
    /// The native screen's name, when the target is one (``NativeScreen``).
    public let nativeName: String?
    /// The route's `guard` option, asked before its URL opens (docs/lua-api.md, "Guards").
    public let routeGuard: LuaRouteFunction?
    /// The route's `parent` option when it is a function of the match (LuaRouteParents.swift).
    public let parentFunction: LuaRouteFunction?
    /// What the route holding this target costs the host (`RetainedCost.route`), charged to the
    /// state's memory limit for as long as the route is in the table.
    let charge: ExternalCharge?

    init(handle: Value.Handle, isClass: Bool, className: String?, nativeName: String? = nil, routeGuard: LuaRouteFunction? = nil,
         parentFunction: LuaRouteFunction? = nil, charge: ExternalCharge? = nil) {
        self.handle = handle
        self.isClass = isClass
        self.className = className
        self.nativeName = nativeName
        self.routeGuard = routeGuard
        self.parentFunction = parentFunction
        self.charge = charge
    }

    /// "class Menu", "function" or "native screen Camera", as `wayfinder routes` names targets.
    public var description: String {
        if let nativeName { return "native screen " + nativeName }
        return isClass ? "class " + (className ?? "(unnamed)") : "function"
    }
}

/// A route's guard or parent function: the script's function, and where it is defined
/// (`file:line`), which a function that answers wrongly is named by.
public struct LuaRouteFunction {
    let function: Value.Handle
    let definition: String
}
