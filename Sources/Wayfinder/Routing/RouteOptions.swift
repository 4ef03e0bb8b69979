/// How the navigator presents a route's controller (docs/lua-api.md, "Modes").
public enum NavigationMode: String, Sendable, CaseIterable {
    /// How a route opens its screen: a new one each time (`create`), the one already open (`share`), as a
    /// modal, as a popover, or none (an action).
    case create, share, modal, popover, none
}

/// What `map:from(pattern, target, options)` says besides the pattern and the target.
public struct RouteOptions: Sendable, Hashable {
    /// How the route opens its screen.
    public var mode: NavigationMode
    /// What opening the route does to the tree around its screen; an open's own presentation wins.
    public var presentation: Presentation
    /// A URL opened first, so the route's controller sits above it.
    public var parent: String?
    /// The constructor to call, in selector spelling (`initWithFood:`); overrides deduction.
    public var selector: String?
    /// The transition the presenter is asked to use, by name.
    public var transition: String?
    /// The route may be opened by a link from outside the app (`Navigator.handleLink`); a link to
    /// any other route is refused.
    public var external: Bool
    /// The route's name, for making URLs from it.
    public var name: String?

    /// Options with every part given (each has a default).
    public init(mode: NavigationMode = .create, presentation: Presentation = .push, parent: String? = nil, selector: String? = nil,
                transition: String? = nil, external: Bool = false, name: String? = nil) {
        self.mode = mode
        self.presentation = presentation
        self.parent = parent
        self.selector = selector
        self.transition = transition
        self.external = external
        self.name = name
    }
}

extension RouteOptions {
    /// Options behind a reference, as a route table and its matches keep them: most routes use
    /// the defaults, which then share one instance instead of carrying 72 bytes of nil fields each.
    @usableFromInline
    final class Shared: Sendable {
        @usableFromInline let options: RouteOptions

        private init(options: RouteOptions) { self.options = options }

        private static let defaults = Shared(options: RouteOptions())

        @usableFromInline
        static func holding(_ options: RouteOptions) -> Shared {
            options == RouteOptions() ? defaults : Shared(options: options)
        }
    }
}
