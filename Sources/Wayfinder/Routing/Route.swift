/// A registered route: a compiled pattern, what it opens, and how.
public struct Route<Target> {
    /// The route's pattern.
    public let pattern: Pattern
    /// What the route opens.
    public let target: Target
    /// Behind a reference the table shares with every match of the route, so a match copies one
    /// reference rather than each of the options' strings.
    @usableFromInline let sharedOptions: RouteOptions.Shared

    /// How the route opens its target.
    public var options: RouteOptions { sharedOptions.options }

    /// A route from `pattern` to `target`.
    public init(pattern: Pattern, target: Target, options: RouteOptions) {
        self.init(pattern: pattern, target: target, sharedOptions: .holding(options))
    }

    @usableFromInline
    init(pattern: Pattern, target: Target, sharedOptions: RouteOptions.Shared) {
        self.pattern = pattern
        self.target = target
        self.sharedOptions = sharedOptions
    }

    /// The constructor selector: the `selector` option, or the param names in pattern order each
    /// followed by `:` (Three20's deduction), or nil for a pattern without named params.
    public var selector: String? {
        if let selector = options.selector { return selector }
        let names = pattern.paramNames
        return names.isEmpty ? nil : names.map { $0 + ":" }.joined()
    }
}
