import OrderedCollections
import Wayfinder

extension LuaNavigatorBridge {
    /// Appends the fields of `match` opened by `request` to `fields`, in `MakeField.inOrder`
    /// order: `make`'s arguments after its first three.
    func appendMakeFields(_ match: RouteMatch<LuaTarget>, _ request: NavigationRequest, to fields: inout [Value]) {
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
        for field in MakeField.inOrder {
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
        appendMakeFields(match, request, to: &fields)
        var record = OrderedDictionary<String, Value>(minimumCapacity: fields.count)
        for (field, value) in zip(MakeField.inOrder, fields) where !value.isNull { record[field.rawValue] = value }
        return .map(record)
    }
}
