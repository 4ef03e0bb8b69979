import Wayfinder

/// Where a host takes a newer version of its app from than the one it shipped with, and whom it
/// tells how each launch of it went (docs/updates.md). `WayfinderUpdates.BundleUpdates` is the
/// one Wayfinder makes: signed bundles in a directory, rolled back when launches fail.
public protocol AppUpdates: AnyObject {
    /// The app to load: a newer one, else `shipped`. Called once as the host is made; the
    /// launch it begins is counted from here (a process that ends before its first screen
    /// counts as a failed launch).
    func app(shipped: AppSource) -> AppSource
    /// The launch begins restoring from `stateStore`.
    func launchBegins(stateStore: (any StateStore)?)
    /// The launch got to its first screen.
    func launchReached()
    /// The launch failed with `error` before its first screen.
    func launchFailed(_ error: Error)
}
