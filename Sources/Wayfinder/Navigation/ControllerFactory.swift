/// How controllers come to be and learn what happens to them. The navigator calls these; it
/// knows nothing of what a controller is.
public struct ControllerFactory<Target, Controller: AnyObject> {
    /// Makes the controller for a match; nil is allowed only for mode `none`.
    public var make: (RouteMatch<Target>, NavigationRequest) throws -> Controller?
    /// A fragment URL whose base URL is already shown goes to that controller.
    public var handleFragment: ((Controller, RouteMatch<Target>) throws -> Void)?
    /// A controller became the visible screen (opened, or uncovered by back or a tab switch): a
    /// screen that refreshes what it shows or starts work while seen does it here.
    public var appear: ((Controller) -> Void)?
    /// The visible controller stopped being seen (covered, popped, another tab chosen); it may
    /// still be in the tree and appear again.
    public var disappear: ((Controller) -> Void)?
    /// A controller's entry left the tree (popped, dismissed, replaced): whatever the app keeps for
    /// it (observers it owns) can go.
    public var leave: ((Controller) -> Void)?
    /// A controller about to be made again in its place (presentation `refresh`): given the
    /// request its entry was opened with, answers the one its successor is made from, with the
    /// state it keeps (the Lua host asks its `persist` hook). Without it, the successor gets the
    /// URL and query alone.
    public var remaking: ((Controller, NavigationRequest) throws -> NavigationRequest)?

    /// A factory from its hooks; only `make` is required, every other hook defaults to doing
    /// nothing (a fragment then opens no controller of its own).
    public init(make: @escaping (RouteMatch<Target>, NavigationRequest) throws -> Controller?,
                handleFragment: ((Controller, RouteMatch<Target>) throws -> Void)? = nil,
                appear: ((Controller) -> Void)? = nil, disappear: ((Controller) -> Void)? = nil,
                leave: ((Controller) -> Void)? = nil,
                remaking: ((Controller, NavigationRequest) throws -> NavigationRequest)? = nil) {
        self.make = make
        self.handleFragment = handleFragment
        self.appear = appear
        self.disappear = disappear
        self.leave = leave
        self.remaking = remaking
    }
}
