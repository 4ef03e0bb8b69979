import Wayfinder

/// The options of `map:from(pattern, target, options)`, declared once: the binding reads a
/// script's table by them (`apply`), a route's description shows them (`described`, rendered by
/// `RouteDescription` for Lua, `wayfinder routes` and its snapshot), lua/wayfinder/map.lua checks
/// a script's table against them, and the LuaLS definitions' `wayfinder.route_options` must list
/// them (a test compares the two).
package enum RouteOption: String, CrossingRecord {
    case mode, presentation, parent, selector, transition, external, name
    case `guard`

    /// Three20's spelling of an action that opens from outside the app: mode `none` with
    /// `external = true`.
    static let externalMode = "external"

    /// The values `mode` takes, as a list of names (`fields.keys` reads it): the navigation
    /// modes and `externalMode`.
    static var modes: Value {
        ExportedFields.names((NavigationMode.allCases.map(\.rawValue) + [externalMode]).map { ($0, symbol(of: $0)) })
    }

    /// `allCases`, made once: every route added reads its options by it.
    static let inOrder = allCases

    package var luaType: String? {
        switch self {
        case .external: "boolean"
        case .guard: "function"
        // A URL, a pattern of the route's params, or a function of the match: the binding checks it.
        case .parent: nil
        case .mode, .presentation, .selector, .transition, .name: "string"
        }
    }

    /// Sets the option in `options` from a script's `value`, or refuses it. `parent` and `guard`
    /// are the binding's own (a function, or a URL checked against the route's pattern).
    func apply(_ value: Value, to options: inout RouteOptions) throws(Refusal) {
        switch self {
        case .mode:
            guard let text = value.stringValue else { break }
            if text == Self.externalMode {
                options.mode = .none
            } else {
                options.mode = try NavigationMode.option(text, for: "map:from: mode", failing: Refusal.init)
            }
        case .presentation:
            if let text = value.stringValue { options.presentation = try Presentation.option(text, for: "map:from: presentation", failing: Refusal.init) }
        case .selector: options.selector = value.stringValue
        case .transition: options.transition = value.stringValue
        case .external: options.external = value.boolValue ?? false
        case .name: options.name = value.stringValue
        case .parent, .guard: break
        }
    }

    /// The option's value in a route's description; nil for `guard` and a function `parent`,
    /// which the route's target holds.
    func described(_ options: RouteOptions) -> Value? {
        switch self {
        case .mode: .string(options.mode.rawValue)
        case .presentation: .string(options.presentation.rawValue)
        case .parent: options.parent.map(Value.string)
        case .selector: options.selector.map(Value.string)
        case .transition: options.transition.map(Value.string)
        case .external: .bool(options.external)
        case .name: options.name.map(Value.string)
        case .guard: nil
        }
    }

    /// The bytes of text the options of a route keep, which its charge counts (a mode and a
    /// presentation are cases, not text).
    static func keptText(of options: RouteOptions) -> Int {
        inOrder.reduce(0) { total, option in
            option == .mode || option == .presentation ? total : total + (option.described(options)?.stringValue?.utf8.count ?? 0)
        }
    }
}
