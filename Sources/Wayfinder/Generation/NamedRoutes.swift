import OrderedCollections

/// Routes by name (`map:from`'s `name` option): the URL of a named route filled from its params,
/// each checked, so `nav:open { route = "item", params = { id = 3 } }` fails at the caller's line
/// when a param is missing, unknown, or of a type the route's param cannot carry.
extension RouteTable {
    /// The first route in precedence order named `name`.
    public func route(named name: String) -> Route<Target>? {
        routes.first { $0.options.name == name }
    }

    /// The names routes carry, in precedence order, each once.
    public var routeNames: [String] { Array(OrderedSet(routes.compactMap(\.options.name))) }

    /// The URL of the route named `name`, its params filled from `params`. Every named param of
    /// the pattern must be given (query and fragment params too: the URL carries them all) and no
    /// other; each value must be one the param's type reads back as itself.
    public func url(forRouteNamed name: String, params: OrderedDictionary<String, Value>) throws(RouteNameError) -> String {
        guard let route = route(named: name) else {
            let names = routeNames
            throw RouteNameError(route: name, param: nil,
                                 reason: "no route is named '\(name)'" + (names.isEmpty ? " (no route has a name)" : " (named: \(names.joined(separator: ", ")))"))
        }
        let pattern = route.pattern
        let known = pattern.paramNames
        func have() -> String { known.isEmpty ? "it has none" : "its params: " + known.joined(separator: ", ") }
        guard !pattern.isDefault, pattern.orderedComponents.allSatisfy({ $0.param == nil || $0.param?.name != nil }) else {
            throw RouteNameError(route: name, param: nil, reason: "route '\(name)' (\(pattern.text)) has an anonymous param or is '*', so it cannot be opened by name")
        }
        if let extra = params.keys.first(where: { !known.contains($0) }) {
            throw RouteNameError(route: name, param: extra, reason: "route '\(name)' (\(pattern.text)) has no param '\(extra)' (\(have()))")
        }
        if let missing = known.first(where: { params[$0] == nil || params[$0]?.isNull == true }) {
            throw RouteNameError(route: name, param: missing, reason: "route '\(name)' (\(pattern.text)) needs the param '\(missing)' (\(have()))")
        }
        do {
            return try url(for: pattern, calling: .param) { params[$0] }
        } catch let error as URLGenerationError {
            throw RouteNameError(route: name, param: error.param, reason: "route '\(name)' (\(pattern.text)): " + error.reason)
        } catch {
            throw RouteNameError(route: name, param: nil, reason: "route '\(name)' (\(pattern.text)): \(error)")
        }
    }
}

/// A named route that cannot be opened with the params given, and why (naming the param).
public struct RouteNameError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The route's name.
    public let route: String
    /// The parameter at fault, when one is.
    public let param: String?
    /// Why the name could not be used.
    public let reason: String
    /// The reason.
    public var description: String { reason }
}
