/// The app's say in navigation (Three20's TTNavigatorDelegate). Every hook is optional; a hook
/// that throws fails the open it was asked about.
public struct NavigatorDelegate<Controller: AnyObject> {
    /// false vetoes the open.
    public var shouldOpen: ((String) throws -> Bool)?
    /// Another URL redirects, nil vetoes, the same URL goes ahead.
    public var urlToOpen: ((String) throws -> String?)?
    /// The controller for the URL was made and is about to be placed in the tree; throwing
    /// takes the open back.
    public var willOpen: ((String, Controller) throws -> Void)?
    /// No route matches the URL (the open fails with `noRoute` after it returns): where an app
    /// logs a broken link.
    public var didNotMatch: ((String) throws -> Void)?
    /// A URL whose scheme no route uses (`tel:`, `maps:`) goes here and nothing is presented.
    public var openExternal: ((String) throws -> Void)?

    /// A delegate with no hooks: every open goes ahead as asked.
    public init() {}
}
