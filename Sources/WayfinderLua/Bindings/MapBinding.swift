import OrderedCollections
import Wayfinder

/// `wayfinder.native.map`: the app's `RouteTable` lent to Lua. `lua/wayfinder/map.lua` wraps it
/// in `wf.map`. Mistakes in a script's own arguments come back as `nil, message`, so the Lua side
/// can raise them at the script's line; errors from a script's type function propagate.
enum MapBinding {
    static let functions: [(String, LuaBinding)] = [
        ("add", add), ("remove", remove), ("match", match), ("routes", routes),
        ("add_type", addType), ("generator", generator), ("fill", fill), ("moved", moved), ("fields", fields),
        ("url_for_route", urlForRoute),
    ]

    /// fields() -> { options = { name, symbol, type, host, ... }, route = ..., option_keys = ..., target = ..., modes = ... }:
    /// the route options (`RouteOption`), the fields of a route's description (`RouteDescription.Field`),
    /// the key each option has there, what `add` is told of a target (`RouteTargetField`) and the
    /// values the `mode` option takes (`RouteOption.modes`).
    static let fields: LuaBinding = { L in
        LuaCall.run(L) { _ in
            [exported]
        }
    }

    /// The table `fields()` answers, made once: every launch asks for it.
    private static let exported: Value = [
        "options": RouteOption.exported, "route": RouteDescription.Field.exported,
        "option_keys": ExportedFields.names(RouteOption.allCases.map {
            (RouteDescription.descriptionKey(of: $0), RouteOption.symbol(of: $0.rawValue))
        }),
        "target": RouteTargetField.exported, "modes": RouteOption.modes,
    ]

    /// add(pattern, target, `RouteTargetField` record, options, guard | nil,
    /// parent function | nil) -> true | nil, message. The functions come apart too, so where they
    /// are defined can be read.
    static let add: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let pattern = try call.string(1, name: "pattern")
            let isClass = call.type(2) == .table
            guard isClass || call.type(2) == .function else { throw call.typeError(2, name: "target", expected: "class or function") }
            let handle = try call.state.handle(at: 2, in: call.thread, kind: isClass ? "class" : "function")
            let described = try call.value(3, name: "target description")
            let className = described[RouteTargetField.class.rawValue]?.stringValue
            let nativeName = described[RouteTargetField.native.rawValue]?.stringValue
            let fields = try call.value(4, name: "options")
            var options = RouteOptions()
            for option in RouteOption.inOrder {
                if let value = fields[option.rawValue], !value.isNull { try option.apply(value, to: &options) }
            }
            var routeGuard: LuaRouteFunction?
            if call.type(5) == .function {
                routeGuard = LuaRouteFunction(function: try call.handle(5, kind: "function"), definition: call.definition(ofFunctionAt: 5) ?? "?")
            }
            var parentFunction: LuaRouteFunction?
            if call.type(6) == .function {
                parentFunction = LuaRouteFunction(function: try call.handle(6, kind: "function"), definition: call.definition(ofFunctionAt: 6) ?? "?")
            }
            // Parsed once, for the checks and the route.
            let parsed = try Refusal.refusing(PatternError.self) { try host.routes.parse(pattern) }
            if let given = fields[RouteOption.parent.rawValue], !given.isNull, parentFunction == nil {
                guard let parent = given.stringValue else {
                    throw Refusal("map:from: option 'parent' must be a URL, a pattern of the route's params or a function, got \(given.typeDescription)")
                }
                do {
                    if try host.routes.parentPattern(parent, of: parsed) == nil { _ = try NavigationURL(parent) }
                } catch let error as PatternError {
                    throw Refusal("pattern '\(pattern)': parent '\(parent)' cannot be filled: \(error.reason)")
                } catch {
                    throw Refusal("pattern '\(pattern)': parent '\(parent)' is not a URL: \(error)")
                }
                options.parent = parent
            }
            // Three20's TTNavigationModeExternal: a route a link from outside opens, with no
            // screen of its own (an action).
            if fields[RouteOption.mode.rawValue]?.stringValue == RouteOption.externalMode {
                if fields[RouteOption.external.rawValue]?.boolValue == false {
                    throw Refusal("map:from: mode '\(RouteOption.externalMode)' is the option external = true with no screen; it cannot take external = false")
                }
                options.external = true
            }
            // A pattern whose URLs moved cannot be a route again while the move stands.
            if let move = host.navigator.moves.move(sharingShapeWith: parsed) {
                throw Refusal("pattern '\(pattern)': its URLs moved to '\(move.new.text)' (wf.map:moved('\(move.old.text)', ...)); a moved pattern cannot be a route too")
            }
            // Charged first: a route that does not fit is not added (the error is raised at the
            // script's line), and the charge goes with the route.
            let cost = RetainedCost.route(pattern: pattern, options: options, names: [className, nativeName, routeGuard?.definition, parentFunction?.definition])
            let charge = try ExternalCharge(cost, to: call.state)
            try Refusal.refusing(PatternError.self) {
                try host.routes.add(parsed, target: LuaTarget(handle: handle, isClass: isClass, className: className, nativeName: nativeName,
                                                               routeGuard: routeGuard, parentFunction: parentFunction, charge: charge),
                                   options: options)
            }
            return [.bool(true)]
        }
    }

    /// moved(old_pattern, new_pattern) -> true | nil, message
    static let moved: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let old = try call.string(1, name: "old_pattern")
            let new = try call.string(2, name: "new_pattern")
            // Charged first, as a route is; the same old pattern again replaces its move, and the
            // charge with it.
            let charge = try ExternalCharge(RetainedCost.move(old: old, new: new), to: call.state)
            try Refusal.refusing(PatternError.self) { try host.navigator.moves.add(from: old, to: new) }
            host.keptCharges.moves[old] = charge
            return [.bool(true)]
        }
    }

    /// remove(pattern) -> whether a route was removed
    static let remove: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            guard let removed = host.routes.remove(try call.string(1, name: "pattern")) else { return [false] }
            host.bridge.paramNamesByPattern[removed.pattern.text] = nil
            return [true]
        }
    }

    /// match(url) -> route | nil, reason: moves followed as an open follows them (the route's
    /// `url` is where they led, `moved` the hops).
    static let match: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let url = try call.text(1, name: "url")
            let found = try MovedMatch(url, routes: host.routes, moves: host.navigator.moves)
            switch found.result {
            case .noMatch(let reason):
                throw Refusal(reason)
            case .matched(let match):
                var route = RouteDescription(match.route).luaValue
                route[RouteDescription.Field.url.rawValue] = .string(found.url)
                route[RouteDescription.Field.params.rawValue] = .map(match.params)
                route[RouteDescription.Field.query.rawValue] = .map(match.query)
                route[RouteDescription.Field.fragment.rawValue] = match.fragment.map(Value.string) ?? .null
                if !found.hops.isEmpty { route[RouteDescription.Field.moved.rawValue] = .array(found.hops.map(\.json)) }
                return [.map(route)]
            }
        }
    }

    /// routes() -> the routes in precedence order
    static let routes: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            return [.array(host.routes.routes.map { .map(RouteDescription($0).luaValue) })]
        }
    }

    /// add_type(name, convert) -> true | nil, message
    static let addType: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let name = try call.string(1, name: "name")
            guard call.type(2) == .function else { throw call.typeError(2, name: "convert", expected: "function") }
            let convert = try call.state.handle(at: 2, in: call.thread, kind: "function")
            // Charged for as long as the type is registered (the converter holds the charge).
            let charge = try ExternalCharge(RetainedCost.paramType(name: name), to: call.state)
            try Refusal.refusing(PatternError.self) {
                try host.routes.registerType(name) { [weak state = call.state] text in
                    _ = charge
                    guard let state else { return nil }
                    let value = try state.call(convert, [.string(text)]).first ?? .null
                    return value.isNull ? nil : value
                }
            }
            return [.bool(true)]
        }
    }

    /// generator(pattern) -> the field names it reads | nil, message
    static let generator: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let text = try call.string(1, name: "pattern")
            return try Refusal.refusing(PatternError.self) {
                [.array(try host.routes.generatorPattern(text).paramNames.map(Value.string))]
            }
        }
    }

    /// fill(pattern, values) -> url | nil, message
    static let fill: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let values: Value
            // The fields come from the object, the caller's data: one that is not UTF-8 text (or
            // cannot be a URL value at all) is a reason, like any other value that does not fit.
            do { values = try call.value(2, name: "values") } catch let error as ScriptError where error.kind == .conversion { throw Refusal(error.message) }
            let pattern = try call.string(1, name: "pattern")
            return try Refusal.refusing(PatternError.self, URLGenerationError.self) {
                [.string(try host.routes.url(for: try host.routes.generatorPattern(pattern)) { values[$0] })]
            }
        }
    }

    /// url_for_route(name, params) -> url | nil, message: the named route's URL, its params checked.
    static let urlForRoute: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            return [.string(try RouteParams.url(of: host.routes, call: call, nameAt: 1))]
        }
    }
}
