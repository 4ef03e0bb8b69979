import OrderedCollections
import Wayfinder

/// A route as it is described, declared once and rendered by one renderer for all who show it:
/// `wf.map:match` and `wf.map:routes` (a Lua table, functions as themselves), `wayfinder routes
/// --json` (functions by name), and the snapshot list of `wayfinder routes --write` (one line,
/// what differs from the defaults). Its fields are these and every `RouteOption`, under the name
/// `descriptionKey` gives it; the LuaLS definitions' `wayfinder.route` must list them all.
package struct RouteDescription {
    /// The fields besides the route's options.
    package enum Field: String, CrossingRecord {
        case pattern, target
        /// The constructor a class target gets (deduced on the Lua side for Lua).
        case method
        /// The `selector` option, or the one deduced from the param names.
        case selector
        case paramNames = "param_names"
        /// Literals count 2, params 1, a catch-all 0.
        case specificity
        /// A match's own: the URL as given and what it bound; the moves it followed (`wf.map:moved`).
        case url, params, query, fragment, moved
        /// A function target's own: the new screen's context and the open's saved state.
        case context, state
    }

    /// Who reads the description: Lua gets functions and the route's target as themselves,
    /// people get their names.
    package enum Reader { case lua, people }

    package let pattern: Pattern
    package let options: RouteOptions
    /// The target: its handle for Lua, its class's or function's name for people.
    package let target: Value
    package let method: String?
    package let selector: String?
    /// The guard: its handle for Lua (null when the route has none), whether there is one for people.
    package let routeGuard: Value
    /// A parent function's handle, which stands in for the `parent` option.
    package let parentFunction: Value?

    /// The key a route option has in the description: the `selector` option is `selector_option`
    /// there, beside the selector a class target gets.
    package static func descriptionKey(of option: RouteOption) -> String {
        option == .selector ? "selector_option" : option.rawValue
    }

    /// Every key the description may have.
    package static var keys: [String] {
        Field.allCases.map(\.rawValue) + RouteOption.allCases.map(descriptionKey)
    }

    /// The fields, in order, for `reader`: the pattern and what its target gets, the options,
    /// then what only Lua reads. Null where a field has no value.
    package func fields(for reader: Reader) -> [(key: String, value: Value)] {
        var fields: [(key: String, value: Value)] = [
            (Field.pattern.rawValue, .string(pattern.text)), (Field.target.rawValue, target),
            (Field.method.rawValue, method.map(Value.string) ?? .null), (Field.selector.rawValue, selector.map(Value.string) ?? .null),
        ]
        for option in RouteOption.inOrder {
            // People see the selector the target gets, not the option it may come from.
            if reader == .people && option == .selector { continue }
            let value: Value
            switch option {
            case .guard: value = routeGuard
            case .parent: value = parentFunction ?? option.described(options) ?? .null
            default: value = option.described(options) ?? .null
            }
            fields.append((Self.descriptionKey(of: option), value))
        }
        switch reader {
        case .lua:
            fields.append((Field.paramNames.rawValue, .array(pattern.paramNames.map(Value.string))))
            fields.append((Field.specificity.rawValue, .int(Int64(pattern.specificity))))
        case .people:
            fields.append((Field.specificity.rawValue, pattern.isDefault ? .null : .int(Int64(pattern.specificity))))
        }
        return fields
    }

    /// The description as a Lua table reads it.
    package var luaValue: OrderedDictionary<String, Value> {
        var table = OrderedDictionary<String, Value>()
        for (key, value) in fields(for: .lua) where !value.isNull { table[key] = value }
        return table
    }

    /// The `--json` object: every field, null where it has no value.
    package var json: Value {
        .map(OrderedDictionary(fields(for: .people).map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first }))
    }

    /// The snapshot line: the pattern, then each field that differs from a route's defaults
    /// (the mode always), `key=value`, or the key alone for a flag that is set.
    package var line: String {
        let defaults = RouteDescription(pattern: pattern, options: RouteOptions(), target: .null, method: nil, selector: nil,
                                        routeGuard: .bool(false), parentFunction: nil).fields(for: .people)
        var parts = [pattern.text]
        for ((key, value), (_, plain)) in zip(fields(for: .people), defaults).dropFirst() {
            guard key != Field.specificity.rawValue, key == RouteOption.mode.rawValue || value != plain else { continue }
            switch value {
            case .null, .bool(false): continue
            case .bool(true): parts.append(key)
            case .string(let text): parts.append(key + "=" + Self.quoted(text))
            default: parts.append(key + "=" + Self.quoted(String(describing: value)))
            }
        }
        return parts.joined(separator: "  ")
    }

    /// A value as the line writes it: bare when it holds no space, else quoted.
    package static func quoted(_ value: String) -> String {
        guard value.contains(" ") || value.contains("\"") || value.contains("\n") || value.isEmpty else { return value }
        let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
        return "\"" + escaped + "\""
    }
}

extension RouteDescription {
    /// A route of the table, for Lua.
    init(_ route: Route<LuaTarget>) {
        self.init(pattern: route.pattern, options: route.options, target: .handle(route.target.handle), method: nil,
                  selector: route.selector, routeGuard: route.target.routeGuard.map { .handle($0.function) } ?? .null,
                  parentFunction: route.target.parentFunction.map { .handle($0.function) })
    }

    /// A route as `wayfinder routes` reports it.
    package init(_ report: RouteReport) {
        self.init(pattern: report.pattern, options: report.options, target: .string(report.target), method: report.method,
                  selector: report.selector, routeGuard: .bool(report.guarded), parentFunction: nil)
    }
}
