import Wayfinder
import WayfinderLua

/// LuaLS definitions of an app's named routes (`wayfinder routes APP --lua-defs`), so an editor
/// checks `route` and `params` of `nav:open { route = ..., params = ... }`, `wf.url_for_route`
/// and `app:open_route` while they are typed, as the host checks them when they run.
/// lua/wayfinder/meta/wayfinder.lua names the types this file defines.
package enum RouteLuaDefinitions {
    package static func text(_ routes: [RouteReport]) -> String {
        var seen = Set<String>()
        // The first route of a name is the one it opens, as `url_for_route` finds it.
        let named = routes.compactMap { route -> (name: String, pattern: Pattern)? in
            guard let name = route.options.name, !route.pattern.isDefault, seen.insert(name).inserted,
                  route.pattern.orderedComponents.allSatisfy({ $0.param == nil || $0.param?.name != nil }) else { return nil }
            return (name, route.pattern)
        }
        var lines = [
            "---@meta",
            "-- The app's named routes and their params, written by `wayfinder routes APP --lua-defs`;",
            "-- write it again when the routes change (docs/lua-api.md, \"Routes by name\").",
            "",
            "---@alias wayfinder.route_name " + (named.isEmpty ? "never" : named.map { quoted($0.name) }.joined(separator: "|")),
            "---@alias wayfinder.route_action " + (named.isEmpty ? "never" : named.map { "wayfinder.route_action." + identifier($0.name) }.joined(separator: "|")),
        ]
        for route in named {
            let id = identifier(route.name)
            lines += ["", "---`\(route.pattern.text)`", "---@class wayfinder.route_params.\(id)"]
            for param in route.pattern.orderedComponents.compactMap(\.param) {
                if let name = param.name { lines.append("---@field \(fieldName(name)) \(luaType(param.type))") }
            }
            lines += [
                "", "---@class wayfinder.route_action.\(id): wayfinder.action_options",
                "---@field \(OpenAction.route.rawValue) \(quoted(route.name))", "---@field \(OpenAction.params.rawValue) wayfinder.route_params.\(id)",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func luaType(_ type: String) -> String {
        switch type {
        case "int": "integer"
        case "number": "number"
        case "bool": "boolean"
        case "string", "path", "id": "string"
        default: "any"
        }
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// A name as one word of a LuaLS type name: letters, digits and `_`, others as `_`.
    static func identifier(_ name: String) -> String {
        String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") ? $0 : "_" })
    }

    /// A field name LuaLS reads: a plain name, else quoted in brackets.
    static func fieldName(_ name: String) -> String {
        identifier(name) == name && !(name.first?.isNumber ?? true) ? name : "[\(quoted(name))]"
    }
}
