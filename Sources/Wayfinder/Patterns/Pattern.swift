/// A compiled route pattern (docs/matching.md, "Pattern grammar"): `*`, or a scheme, a host component,
/// path components, query components and an optional fragment component.
public struct Pattern: Sendable, Hashable, CustomStringConvertible {
    public enum Component: Sendable, Hashable {
        /// Decoded text. Host literals are stored lowercased, since hosts compare without case.
        case literal(String)
        case param(Param)

        public var param: Param? { if case .param(let p) = self { return p } else { return nil } }
    }

    public struct Param: Sendable, Hashable {
        /// nil for an anonymous param `()`, which matches but binds nothing.
        public let name: String?
        /// A built-in type name (see `ParamType`) or one registered by a script.
        public let type: String

        public var isCatchAll: Bool { type == ParamType.pathName }
        public var isString: Bool { type == ParamType.stringName }
    }

    public struct QueryComponent: Sendable, Hashable {
        public let key: String
        public let component: Component
    }

    /// The text as registered; patterns are told apart and reported by it.
    public let text: String
    /// True for `*`, the default route.
    public let isDefault: Bool
    public let scheme: String
    public let host: Component
    /// nil for none (or the scheme's default port); a URL matches only with the same port.
    public let port: Int?
    public let path: [Component]
    public let query: [QueryComponent]
    public let fragment: Component?

    public var description: String { text }

    /// The trie root the pattern lives under: the scheme, with the port when there is one.
    var rootKey: String { port.map { scheme + ":" + String($0) } ?? scheme }

    /// Every component in pattern order: host, path, query, fragment.
    public var orderedComponents: [Component] {
        guard !isDefault else { return [] }
        return [host] + path + query.map(\.component) + (fragment.map { [$0] } ?? [])
    }

    /// Named params in pattern order; their names make the deduced constructor selector.
    public var paramNames: [String] { orderedComponents.compactMap { $0.param?.name } }

    /// Where the pattern stands in "Which pattern wins", with every query param counted as bound.
    public let precedence: Precedence
    /// The host and path specificity that precedence compares first: literals count 2, params 1,
    /// a catch-all 0 (-1 for `*`).
    public var specificity: Int { precedence.specificity }
    /// The pattern with param names removed and spellings normalised: two patterns with the same
    /// shape but different texts conflict.
    public let shape: String

    init(text: String, scheme: String, host: Component, port: Int?, path: [Component], query: [QueryComponent], fragment: Component?) {
        self.text = text
        self.isDefault = false
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path
        self.query = query
        self.fragment = fragment
        precedence = Precedence(text: text, host: host, path: path, query: query, fragment: fragment)
        var shape = scheme + "://" + Pattern.shapeText(host) + (port.map { ":" + String($0) } ?? "")
        for component in path { shape += "/" + Pattern.shapeText(component) }
        let sortedQuery = query.sorted { $0.key < $1.key }
        if !sortedQuery.isEmpty {
            shape += "?" + sortedQuery.map { PercentEncoding.escape($0.key) + "=" + Pattern.shapeText($0.component) }.joined(separator: "&")
        }
        if let fragment { shape += "#" + Pattern.shapeText(fragment) }
        self.shape = shape
    }

    private init(defaultRoute text: String) {
        self.text = text
        isDefault = true
        scheme = ""
        host = .literal("")
        port = nil
        path = []
        query = []
        fragment = nil
        precedence = .defaultRoute
        shape = "*"
    }

    static let defaultRoute = Pattern(defaultRoute: "*")

    private static func shapeText(_ component: Component) -> String {
        switch component {
        case .literal(let text): return PercentEncoding.escape(text)
        case .param(let p): return "(:" + p.type + ")"
        }
    }
}
