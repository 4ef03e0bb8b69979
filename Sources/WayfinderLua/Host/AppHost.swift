import Foundation
import Wayfinder

/// One Lua app loaded into its own sandboxed state: its route map, its `wf.app` settings, and the
/// bindings its scripts reach through `require "wayfinder"`.
public final class AppHost {
    public let state: LuaState
    public let routes: RouteTable<LuaTarget>
    public let navigator: Navigator<LuaTarget, LuaController>
    public internal(set) var config = AppConfig()
    /// Told what went wrong where nothing can fail any more: an appear/disappear hook's error, an
    /// entry dropped because its URL no longer opens.
    public var warn: (String) -> Void = { text in FileHandle.standardError.write(Data(("warning: " + text + "\n").utf8)) }
    /// Where the host reads the time (a saved state's age and save time): the system's clock,
    /// or a spec's fake one (`wf.testing.launch(app, { clock = fn })`).
    public var clock: () -> Date = { Date() }
    /// Where the app's files come from (a directory, or sources in memory) and its entry script.
    public let source: AppSource
    /// How the host was made, so a hot reload can make it again from the files on disk.
    public let limits: LuaLimits
    let prelude: String?
    let libraries: [(String, [(String, LuaBinding)])]
    /// Controllers the app's constructors made since this host was loaded.
    public internal(set) var constructedCount = 0
    /// `wf.map._deduce`, the constructor deduction shared with the navigator.
    private var deduce: Value.Handle?
    private(set) var hostHooks: LuaHostHooks?
    let contextObserverBridge = ContextObserverBridge()
    /// Where the navigation state is kept between launches; without one, nothing is saved or
    /// restored.
    public var stateStore: StateStore? {
        didSet { stateOwnerChecked = false }
    }
    /// Whether the store was found to hold this app's state (or none): a state of another app is
    /// never restored, overwritten or removed.
    var stateOwnerChecked = false
    /// Warnings given once (values left out of every save).
    var warned = Set<String>()
    var contextMetatableRef: LuaRef?
    /// What each context layer's values are charged to the state's memory limit (ContextBinding).
    var contextCharges = ContextCharges()
    /// What a spec file may write to, and the metatable of the apps it drives (spec runs only).
    var workspace: Workspace?
    var driverMetatableRef: LuaRef?
    /// A route pattern's param names as the navigator hands them to Lua, by the pattern's text.
    var paramNamesByPattern: [String: Value] = [:]
    /// Whether the script set `nav.delegate`; its hooks cost a call into Lua each, so they are
    /// asked only then.
    var delegateIsSet = false {
        didSet { installDelegate() }
    }
    /// Where external URLs (`tel:`, `mailto:`) go when the script has no `open_external` hook:
    /// the system's handler. Unset, such a URL fails to open.
    public var openExternal: ((String) -> Void)? {
        didSet { installDelegate() }
    }

    /// Loads the app at `path`: a directory holding app.lua, or a single .lua file. `prelude`
    /// is Lua run after the `wayfinder` module is in place and before the entry file (the spec
    /// runner installs its vocabulary with it).
    public convenience init(path: String, limits: LuaLimits = .standard, printSink: ((String) -> Void)? = nil,
                            prelude: String? = nil) throws(AppLoadError) {
        try self.init(source: AppSource(path: path), limits: limits, printSink: printSink, prelude: prelude, libraries: [])
    }

    /// Loads the app whose files `source` holds: a directory's, or sources given in memory.
    public convenience init(source: AppSource, limits: LuaLimits = .standard, printSink: ((String) -> Void)? = nil,
                            prelude: String? = nil) throws(AppLoadError) {
        try self.init(source: source, limits: limits, printSink: printSink, prelude: prelude, libraries: [])
    }

    /// `libraries` are native modules beyond the app's own (the spec runner lends
    /// `wayfinder.native.testing`), registered before the prelude runs.
    init(source: AppSource, limits: LuaLimits, printSink: ((String) -> Void)?, prelude: String?,
         libraries: [(String, [(String, LuaBinding)])]) throws(AppLoadError) {
        self.source = source
        self.limits = limits
        self.prelude = prelude
        self.libraries = libraries
        let routes = RouteTable<LuaTarget>()
        self.routes = routes
        navigator = Navigator(routes: routes, factory: ControllerFactory(make: { _, _ in nil }))
        let bundled = try BundledLua.source()
        do {
            state = try LuaState(limits: limits)
        } catch {
            throw .script(error)
        }
        state.host = self
        state.appSource = source
        state.bundledSource = bundled
        state.printSink = printSink ?? { text in FileHandle.standardError.write(Data((text + "\n").utf8)) }
        do {
            try state.registerLibrary("wayfinder.native.map", MapBinding.functions)
            try state.registerLibrary("wayfinder.native.codec", CodecBinding.functions)
            try state.registerLibrary("wayfinder.native.app", AppBinding.functions)
            try state.registerLibrary("wayfinder.native.navigator", NavigatorBinding.functions)
            try state.registerLibrary("wayfinder.native.context", ContextBinding.functions)
            for (name, functions) in libraries { try state.registerLibrary(name, functions) }
            // Set from Lua so the global is the module table itself, not a converted copy.
            let bootstrap = "wayfinder = require 'wayfinder'; return wayfinder.map._deduce, require 'wayfinder.host'"
            let internals = try state.run(source: bootstrap, chunkName: "=wayfinder")
            if case .handle(let handle)? = internals.first { deduce = handle }
            guard internals.count == 2, let hooks = LuaHostHooks(internals[1]) else { throw AppLoadError.bundledModulesMissing }
            hostHooks = hooks
            navigator.factory = controllerFactory(hooks)
            navigator.warn = { [unowned self] in warn($0) }
            if let prelude { try state.run(source: prelude, chunkName: "=prelude") }
            try state.runEntry(of: source)
        } catch let error as AppLoadError {
            throw error
        } catch let error as ScriptError {
            throw .script(error)
        } catch {
            throw .script(ScriptError(kind: .runtime, message: String(describing: error)))
        }
    }

    private func installDelegate() {
        if delegateIsSet, let hostHooks {
            navigator.delegate = navigatorDelegate(hostHooks)
        } else {
            navigator.delegate = NavigatorDelegate()
            navigator.delegate.openExternal = openExternal
        }
    }

    // MARK: Running

    /// Restores the saved navigation state, else shows what `wf.app` declared: its tabs (one
    /// stack per URL, the first made and selected) or its root URL. An app that declared neither
    /// starts with an empty tree. Guarded against a state that stops every launch (LaunchGuard).
    public func launch() throws {
        try guardingLaunch { launching in
            if try restore(now: nil, launching: launching) { return }
            try start()
        }
    }

    /// Shows what `wf.app` declared, ignoring any saved state.
    public func start() throws {
        if !config.tabs.isEmpty {
            try navigator.setTabs(config.tabs)
        } else if let root = config.root {
            try navigator.open(root)
        }
    }

    /// What `controller` shows: its `render()` result, or nil when it has no render method.
    public func render(_ controller: LuaController) throws(ScriptError) -> RenderedScreen? {
        guard let hostHooks else { return nil }
        let result = try state.call(hostHooks.hook, [.handle(controller.handle), "render"]).first ?? .null
        if result.isNull { return nil }
        let screen = try RenderedScreen(result, owner: describe(controller))
        controller.renderedTitle = screen.title
        return screen
    }

    /// The controller's class name (`wf.controller`'s), else its Lua type.
    public func describe(_ controller: LuaController) -> String {
        guard let hostHooks, let name = try? state.call(hostHooks.describe, [.handle(controller.handle)]).first?.stringValue else {
            return "a controller"
        }
        return name
    }

    // MARK: Questions about the route map

    /// Which route `url` opens, with which values, and which constructor it would call.
    public func match(_ url: String) throws(ScriptError) -> MatchReport {
        if let parsed = try? NavigationURL(url), navigator.isExternal(parsed) {
            return MatchReport(external: url, scheme: parsed.scheme)
        }
        let result: MatchResult<LuaTarget>
        do {
            result = try routes.match(url)
        } catch let error as ScriptError {
            throw error
        } catch {
            throw ScriptError(kind: .runtime, message: String(describing: error))
        }
        switch result {
        case .noMatch(let reason):
            return MatchReport(url: url, failure: reason)
        case .matched(let match):
            let (method, selector) = try constructor(for: match.route)
            return MatchReport(url: url, match: match, method: method, selector: selector)
        }
    }

    public func explain(_ url: String) throws -> MatchExplanation {
        try routes.explain(url)
    }

    public func routeReports() throws(ScriptError) -> [RouteReport] {
        var reports = [RouteReport]()
        for route in routes.routes {
            let (method, selector) = try constructor(for: route)
            reports.append(RouteReport(pattern: route.pattern, options: route.options, target: route.target.description,
                                       method: method, selector: selector))
        }
        return reports
    }

    public func tieWarnings() -> [String] { routes.tieWarnings() }

    /// The constructor a class target would get, per docs/lua-api.md; for functions, only the selector.
    func constructor(for route: Route<LuaTarget>) throws(ScriptError) -> (method: String?, selector: String?) {
        guard route.target.isClass, let deduce else { return (nil, route.selector) }
        let names = Value.array(route.pattern.paramNames.map(Value.string))
        let answer = try state.call(deduce, [.handle(route.target.handle), names, route.options.selector.map(Value.string) ?? .null])
        let method = answer.first?.stringValue
        let selector = answer.count > 1 ? answer[1].stringValue : nil
        return (method, selector ?? route.selector)
    }

    /// The host a binding runs for.
    static func from(_ call: LuaCall) throws(ScriptError) -> AppHost {
        guard let host = call.state.host as? AppHost else {
            throw ScriptError(kind: .runtime, message: "\(call.functionName) is only available inside a Wayfinder app")
        }
        return host
    }
}
