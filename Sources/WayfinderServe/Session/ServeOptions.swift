import WayfinderLua

/// What `wayfinder serve` was asked to run: the app, its limits, and where its navigation state
/// is kept.
public struct ServeOptions: Sendable {
    public enum StateFile: Sendable, Equatable {
        /// Nothing restored or saved (`--no-state`).
        case none
        /// `$XDG_STATE_HOME/wayfinder/<app>.json`, named once the app has loaded.
        case standard
        /// The file `--state` names (checked by the caller: its directory exists).
        case path(String)
    }

    public var app: String
    public var limits: LuaLimits
    public var state: StateFile
    /// Where a newer version of the app comes from (`--updates`), made anew for each host the
    /// session makes; nil runs `app` as it is.
    public var updates: (@Sendable () -> (any AppUpdates)?)?

    public init(app: String, limits: LuaLimits = .standard, state: StateFile = .standard) {
        self.app = app
        self.limits = limits
        self.state = state
    }
}
