import OrderedCollections
import Wayfinder

/// The fields of a match the host hands `make` and `fragment` in lua/wayfinder/navigator.lua. This
/// list is the contract: `fragment` gets them as a table by these names; `make`, on the path of
/// every open, gets them as arguments after its first three, in this list's order, and checks
/// when it loads that its parameters are these names in this order (`native.route_fields()`),
/// so the two sides cannot drift apart unnoticed.
enum RouteField: String, CaseIterable {
    case url, pattern, params
    /// The URL's query joined by the request's (the Lua side adds an action's values by reference).
    case query
    case fragment
    case paramNames = "param_names"
    case selectorOption = "selector_option"
    case mode
    /// The saved state (a restored entry's, or an action's `state`).
    case state

    /// `allCases`, made once: the synthesized property builds a new array at every use.
    static let inOrder = allCases
}

extension LuaNavigatorBridge {
    /// Appends the fields of `match` opened by `request` to `fields`, in `RouteField.inOrder`
    /// order: `make`'s arguments after its first three.
    func appendRouteFields(_ match: RouteMatch<LuaTarget>, _ request: NavigationRequest, to fields: inout [Value]) {
        var query = match.query
        for (key, value) in request.query { query[key] = value }
        let route = match.route
        let pattern = route.pattern.text
        // The names follow from the pattern's text alone: one Lua table per pattern, made at its
        // first open and handed to every later one (make and fragment only read it).
        let paramNames: Value
        if let known = paramNamesByPattern[pattern] {
            paramNames = known
        } else {
            let names = Value.array(route.pattern.paramNames.map(Value.string))
            if let table = try? state.handle(holding: names, kind: "table") {
                paramNames = .handle(table)
                paramNamesByPattern[pattern] = paramNames
            } else {
                paramNames = names
            }
        }
        for field in RouteField.inOrder {
            switch field {
            case .url: fields.append(.string(request.url))
            case .pattern: fields.append(.string(pattern))
            case .params: fields.append(.map(match.params))
            case .query: fields.append(.map(query))
            case .fragment: fields.append(match.fragment.map(Value.string) ?? .null)
            case .paramNames: fields.append(paramNames)
            case .selectorOption: fields.append(route.options.selector.map(Value.string) ?? .null)
            case .mode: fields.append(.string(route.options.mode.rawValue))
            case .state: fields.append(request.state ?? .null)
            }
        }
    }

    /// The fields as a table by name.
    func routeValue(_ match: RouteMatch<LuaTarget>, _ request: NavigationRequest) -> Value {
        var fields = [Value]()
        appendRouteFields(match, request, to: &fields)
        var record = OrderedDictionary<String, Value>(minimumCapacity: fields.count)
        for (field, value) in zip(RouteField.inOrder, fields) where !value.isNull { record[field.rawValue] = value }
        return .map(record)
    }
}
