import Foundation
import Wayfinder

extension WayfinderHost {
    /// What a ``WayfinderHost`` is made with: the app, where its navigation state is kept, the
    /// limits its scripts run under, and what Swift lends them (docs/embedding.md).
    ///
    /// ```swift
    /// var configuration = WayfinderHost.Configuration(app: try AppSource(path: "flows"))
    /// configuration.stateStore = FileStateStore(path: stateFile)
    /// configuration.lentModules = [points]
    /// configuration.nativeScreens = ["Camera": { request in CameraScreen(table: request.params["table"]) }]
    /// let host = try WayfinderHost(configuration)
    /// ```
    public struct Configuration {
        /// The app: a directory holding `app.lua`, or sources held in memory (``AppSource``).
        public var app: AppSource
        /// Where the navigation state is kept between launches (`FileStateStore`, or a store of
        /// the program's own); nil keeps nothing.
        public var stateStore: (any StateStore)?
        /// The memory and time each script may take (``LuaLimits``).
        public var limits: LuaLimits
        /// Where external URLs (`tel:`, `mailto:`, `https:` when no route takes them) go when the
        /// app's delegate has no `open_external` hook; unset, such a URL fails to open.
        public var openExternal: ((String) -> Void)?
        /// Modules of Swift functions the scripts `require` (``LentModule``).
        public var lentModules: [LentModule]
        /// The screens Swift makes, by the name `wf.native` gives them in the app's map
        /// (``NativeScreen``).
        public var nativeScreens: [String: NativeScreenFactory]
        /// Where the scripts' `print` goes (each call's text, without its newline); unset, to
        /// standard error.
        public var printSink: ((String) -> Void)?
        /// Told what went wrong where nothing can fail any more (an `appear` hook's error, an
        /// entry dropped because its URL no longer opens); unset, to standard error.
        public var warn: ((String) -> Void)?

        /// A directory holding `wayfinder/init.lua` (the repository's `lua/`) whose modules the
        /// app runs on instead of the ones compiled into Wayfinder, read afresh at each load: for
        /// working on Wayfinder's own modules. Unset, `BundledLua.modulesDirectory` (the command
        /// line sets it from `$WAYFINDER_LUA_PATH`; an app leaves it unset): the compiled-in
        /// modules. A directory without the modules fails the load (`AppLoadError.modulesMissing`).
        public var luaModulesDirectory: String?

        /// Where a newer version of the app comes from (`WayfinderUpdates.BundleUpdates`): the
        /// host then loads that instead of `app`, and tells it how the launch went. Unset, the
        /// host runs `app`.
        public var updates: (any AppUpdates)?

        /// The app at `app`, with the standard limits and nothing lent.
        public init(app: AppSource) {
            self.app = app
            self.limits = .standard
            self.lentModules = []
            self.nativeScreens = [:]
        }
    }
}
