import Wayfinder

/// What a route opens in a Lua app: a controller class (a table) or a function, held as a handle
/// so the route keeps it alive and hands back the very same Lua value.
public struct LuaTarget: CustomStringConvertible {
    public let handle: Value.Handle
    public let isClass: Bool
    /// The class's `__name` (set by `wf.controller`), when it has one.
    public let className: String?

    public var description: String {
        isClass ? "class " + (className ?? "(unnamed)") : "function"
    }
}
