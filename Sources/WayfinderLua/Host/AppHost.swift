import Foundation
import Wayfinder

/// One Lua app loaded into its own sandboxed state: its route map, its `wf.app` settings, its
/// navigator, and what it keeps between launches. Loading is `AppLoader`'s; the traffic between
/// the navigator and Lua (a controller's screen, class, fields and methods) is
/// `LuaNavigatorBridge`'s. ``WayfinderHost`` is the one door to it, for an embedding app, the
/// command line, `serve` and the test kit alike: it holds one of these and swaps it at a hot
/// reload or a relaunch.
package final class AppHost {
    package let state: LuaState
    package let routes: RouteTable<LuaTarget>
    package let navigator: Navigator<LuaTarget, LuaController>
    package internal(set) var config = AppConfig() {
        didSet {
            navigator.pendingExpiration = config.pendingExpiration
            navigator.linkPrefixes = config.linkPrefixes
        }
    }
    /// Told what went wrong where nothing can fail any more: an appear/disappear hook's error, an
    /// entry dropped because its URL no longer opens.
    package var warn: (String) -> Void = { text in FileHandle.standardError.write(Data(("warning: " + text + "\n").utf8)) }
    /// Where the host reads the time (a saved state's age and save time, when an open was kept
    /// pending and whether it expired): the system's clock, or a spec's fake one
    /// (`wf.testing.launch(app, { clock = fn })`).
    package var clock: () -> Date = { Date() }
    /// How the app was loaded, so a hot reload can load it again.
    let loader: AppLoader
    /// Where the app's files come from (a directory, or sources in memory) and its entry script.
    package var source: AppSource { loader.source }
    package var limits: LuaLimits { loader.limits }
    let bridge: LuaNavigatorBridge
    /// What runs this app inside something larger (the spec runner's file), for the bindings it
    /// lends to find; nil for an app on its own. Held weakly: it owns the host.
    package weak var embedder: AnyObject?
    /// Controllers the app's constructors made since this host was loaded.
    package var constructedCount: Int { bridge.constructedCount }
    /// Where the navigation state is kept between launches; without one, nothing is saved or
    /// restored.
    package var stateStore: StateStore? {
        didSet {
            stateOwnerChecked = false
            stateClaim = nil
        }
    }
    /// This process's hold on the store's state (StateClaim), from the first use of the store.
    var stateClaim: StateClaim?
    /// Saved entries the app could not make again, which no save may silently replace
    /// (AppHost+Unrestored.swift).
    var unrestored = UnrestoredEntries()
    /// Whether the store was found to hold this app's state (or none): a state of another app is
    /// never restored, overwritten or removed.
    var stateOwnerChecked = false
    /// Warnings given once (values left out of every save).
    var warned = OnceWarnings()
    /// What `wf.app`'s settings and the last tab list cost, charged to the state's memory limit.
    var keptCharges = KeptCharges()
    /// True while a saved state is being restored (read, migrated, its screens made): a save
    /// then would replace the file being restored (and the copy a failure keeps aside) with a
    /// tree half made, so `persist` and `restore` are refused.
    var restoringState = false
    /// Where external URLs (`tel:`, `mailto:`) go when the script has no `open_external` hook:
    /// the system's handler. Unset, such a URL fails to open.
    package var openExternal: ((String) -> Void)? {
        get { bridge.openExternal }
        set { bridge.openExternal = newValue }
    }

    /// Loads the app at `path`: a directory holding app.lua, or a single .lua file. `prelude`
    /// is Lua run after the `wayfinder` module is in place and before the entry file (the spec
    /// runner installs its vocabulary with it).
    package convenience init(path: String, limits: LuaLimits = .standard, printSink: ((String) -> Void)? = nil,
                            prelude: String? = nil) throws(AppLoadError) {
        try self.init(source: AppSource(path: path), limits: limits, printSink: printSink, prelude: prelude)
    }

    /// Loads the app whose files `source` holds: a directory's, or sources given in memory.
    package convenience init(source: AppSource, limits: LuaLimits = .standard, printSink: ((String) -> Void)? = nil,
                            prelude: String? = nil) throws(AppLoadError) {
        try self.init(loader: AppLoader(source: source, limits: limits, printSink: printSink, prelude: prelude, libraries: []))
    }

    /// Loads the app as `loader` says. `embedder` and `warnSink` (the host's `warn`) are in
    /// place before the app's scripts run.
    package init(loader: AppLoader, embedder: AnyObject? = nil, warnSink: ((String) -> Void)? = nil) throws(AppLoadError) {
        self.loader = loader
        self.embedder = embedder
        if let warnSink { warn = warnSink }
        let routes = RouteTable<LuaTarget>()
        self.routes = routes
        navigator = Navigator(routes: routes, factory: ControllerFactory(make: { _, _ in nil }))
        state = try loader.makeState()
        bridge = LuaNavigatorBridge(state: state, navigator: navigator)
        // Bindings find the host through the state from the first line the modules run.
        state.host = self
        bridge.warn = { [unowned self] in warn($0) }
        navigator.warn = { [unowned self] in warn($0) }
        navigator.clock = { [unowned self] in clock() }
        navigator.pendingExpiration = config.pendingExpiration
        let (hooks, deduce) = try loader.startModules(in: state)
        bridge.connect(hooks, deduce: deduce)
        try loader.runEntry(in: state)
    }

    // MARK: Running

    /// Restores the saved navigation state, else shows what `wf.app` declared: its tabs (one
    /// stack per URL, the first made and selected) or its root URL. An app that declared neither
    /// starts with an empty tree. Guarded against a state that stops every launch (LaunchGuard).
    package func launch() throws {
        try guardingLaunch { launching in
            let dropped = navigator.droppedSavedEntries
            if try !restore(now: nil, launching: launching) { try start() }
            try keepUnrestored(droppedSince: dropped)
        }
    }

    /// Shows what `wf.app` declared, ignoring any saved state.
    package func start() throws {
        if !config.tabs.isEmpty {
            try navigator.setTabs(config.tabs)
        } else if let root = config.root {
            try navigator.open(root)
        }
    }

    // MARK: Questions about the route map

    /// Which route `url` opens, with which values, and which constructor it would call.
    package func match(_ url: String) throws(ScriptError) -> MatchReport {
        if let parsed = try? NavigationURL(url), navigator.isExternal(parsed) {
            return MatchReport(external: url, scheme: parsed.scheme)
        }
        let found: MovedMatch<LuaTarget>
        do {
            found = try MovedMatch(url, routes: routes, moves: navigator.moves)
        } catch let error as ScriptError {
            throw error
        } catch {
            throw ScriptError(kind: .runtime, message: String(describing: error))
        }
        switch found.result {
        case .noMatch(let reason):
            return MatchReport(url: url, failure: reason)
        case .matched(let match):
            let (method, selector) = try bridge.constructor(for: match.route)
            return MatchReport(url: url, match: match, method: method, selector: selector, moves: found.hops)
        }
    }

    package func explain(_ url: String) throws -> MatchExplanation {
        try routes.explain(url)
    }

    package func routeReports() throws(ScriptError) -> [RouteReport] {
        var reports = [RouteReport]()
        for route in routes.routes {
            let (method, selector) = try bridge.constructor(for: route)
            reports.append(RouteReport(pattern: route.pattern, options: route.options, target: route.target.description,
                                       method: method, selector: selector, guarded: route.target.routeGuard != nil))
        }
        return reports
    }

    package func tieWarnings() -> [String] { routes.tieWarnings() }

    /// The host a binding runs for.
    package static func from(_ call: LuaCall) throws(ScriptError) -> AppHost {
        guard let host = call.state.host as? AppHost else {
            throw ScriptError(kind: .runtime, message: "\(call.functionName) is only available inside a Wayfinder app")
        }
        return host
    }
}
