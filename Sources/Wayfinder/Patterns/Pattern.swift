/// A compiled route pattern (MATCHING.md, "Pattern grammar"): `*`, or a scheme, a host component,
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
    public let path: [Component]
    public let query: [QueryComponent]
    public let fragment: Component?

    public var description: String { text }

    /// Every component in the order precedence compares them: host, path, query, fragment.
    public var orderedComponents: [Component] {
        guard !isDefault else { return [] }
        return [host] + path + query.map(\.component) + (fragment.map { [$0] } ?? [])
    }

    /// Named params in pattern order; their names make the deduced constructor selector.
    public var paramNames: [String] { orderedComponents.compactMap { $0.param?.name } }

    /// Rule 1 of "Which pattern wins": literals count 2, params 1, a catch-all 0.
    public let specificity: Int
    /// Rule 2's sequence: per component, literal 3, typed param 2, string param 1, catch-all 0.
    public let ranks: [UInt8]
    /// The pattern with param names removed and spellings normalised: two patterns with the same
    /// shape but different texts conflict.
    public let shape: String

    init(text: String, scheme: String, host: Component, path: [Component], query: [QueryComponent], fragment: Component?) {
        self.text = text
        self.isDefault = false
        self.scheme = scheme
        self.host = host
        self.path = path
        self.query = query
        self.fragment = fragment
        let components = [host] + path + query.map(\.component) + (fragment.map { [$0] } ?? [])
        specificity = components.reduce(0) { $0 + Pattern.weight(of: $1) }
        ranks = components.map(Pattern.rank(of:))
        var shape = scheme + "://" + Pattern.shapeText(host)
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
        path = []
        query = []
        fragment = nil
        specificity = -1
        ranks = []
        shape = "*"
    }

    static let defaultRoute = Pattern(defaultRoute: "*")

    static func weight(of component: Component) -> Int {
        switch component {
        case .literal: return 2
        case .param(let p): return p.isCatchAll ? 0 : 1
        }
    }

    static func rank(of component: Component) -> UInt8 {
        switch component {
        case .literal: return 3
        case .param(let p): return p.isCatchAll ? 0 : (p.isString ? 1 : 2)
        }
    }

    private static func shapeText(_ component: Component) -> String {
        switch component {
        case .literal(let text): return PercentEncoding.escape(text)
        case .param(let p): return "(:" + p.type + ")"
        }
    }
}
