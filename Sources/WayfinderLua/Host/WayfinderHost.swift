import Foundation
import Wayfinder

/// A Lua app embedded in a Swift program: the one type an embedder needs (docs/embedding.md).
/// It loads the app (``Configuration``), launches it (restoring what its state store kept),
/// navigates, tells observers every change to the navigation tree as typed events, reloads the
/// app's code while it runs, and lets Swift read and call the app's controllers.
///
/// ```swift
/// let host = try WayfinderHost(WayfinderHost.Configuration(app: try AppSource(path: "flows")))
/// try host.launch()
/// try host.open("tt://menu/2")
/// ```
///
/// One host object lives as long as the app does: a hot reload (``reload(from:)``) and a relaunch
/// (``relaunch()``) swap the app inside it, keeping its observers, lent modules, native screens,
/// state store and handlers; one that fails leaves everything as it was.
///
/// A host and everything it hands out (controllers, handles) belong to one isolation domain (an
/// actor, the main thread of a UI app): the host is not `Sendable`. What it says is: events,
/// snapshots, `Value`s and errors are `Sendable` values. The rule holds at run time too: a call
/// from another thread while one runs is refused (HostThreadRule.swift).
public final class WayfinderHost {
    /// The app as it runs now; a reload or a relaunch replaces it.
    private(set) var current: AppHost
    /// Where prints and warnings go, shared with every app this host runs.
    private let sinks: Sinks
    /// The host's observers (WayfinderHost+Observers.swift).
    var observers: [Observer] = []
    var nextObserverNumber = 0
    /// Whether observers are being told that the app was replaced.
    var telling = false
    /// The thread of the call under way (HostThreadRule.swift).
    let occupancy = HostOccupancy()
    /// The streams of events handed out (WayfinderHost+Events.swift).
    var streams: [EventStream] = []
    /// The observers of typing and pressing (WayfinderHost+ScreenInput.swift).
    var inputObservers: [(token: ObserverToken, notify: (ScreenInputEvent) -> Void)] = []
    /// Told how the launch went (``Configuration/updates``).
    private var updates: (any AppUpdates)?

    /// Loads the app the configuration names, with what it lends the scripts. Nothing is shown
    /// until ``launch()``. Throws when the app cannot be loaded (its error names the file and
    /// line) or the configuration cannot be used (a lent module named `wayfinder.x`, say).
    public convenience init(_ configuration: Configuration) throws(AppLoadError) {
        let sinks = Sinks(print: configuration.printSink, warn: configuration.warn)
        let app = configuration.updates?.app(shipped: configuration.app) ?? configuration.app
        let loader = AppLoader(source: app, limits: configuration.limits, printSink: { sinks.print($0) },
                               prelude: nil, libraries: [], lentModules: configuration.lentModules,
                               nativeScreens: configuration.nativeScreens,
                               modulesDirectory: configuration.luaModulesDirectory ?? BundledLua.modulesDirectory)
        do throws(AppLoadError) { try self.init(loader: loader, sinks: sinks, embedder: nil) } catch {
            configuration.updates?.launchFailed(error)
            throw error
        }
        current.stateStore = configuration.stateStore
        current.openExternal = configuration.openExternal
        updates = configuration.updates
    }

    /// Loads the app as `loader` says, for the package's own tools: the spec runner's prelude
    /// and libraries, and what embeds the app (`AppHost.embedder`), for its bindings to find.
    package convenience init(loader: AppLoader, embedder: AnyObject? = nil) throws(AppLoadError) {
        try self.init(loader: loader, sinks: Sinks(print: nil, warn: nil), embedder: embedder)
    }

    private init(loader: AppLoader, sinks: Sinks, embedder: AnyObject?) throws(AppLoadError) {
        self.sinks = sinks
        current = try AppHost(loader: loader, embedder: embedder, warnSink: { sinks.warn($0) })
    }

    /// The streams of events end with the host.
    deinit {
        finishStreams()
    }

    /// Where the scripts' `print` and the host's warnings go; settable as the program runs.
    private final class Sinks {
        var printing: ((String) -> Void)?
        var warning: ((String) -> Void)?

        init(print: ((String) -> Void)?, warn: ((String) -> Void)?) {
            printing = print
            warning = warn
        }

        func print(_ text: String) {
            if let printing { printing(text) } else { writeToStandardError(text + "\n") }
        }

        func warn(_ text: String) {
            if let warning { warning(text) } else { writeToStandardError("warning: " + text + "\n") }
        }
    }

    // MARK: Settings

    /// Where the navigation state is kept between launches; nil keeps nothing. Set it before
    /// ``launch()`` (a program that names its state file after the app does so once it is
    /// loaded: ``stateName``).
    public var stateStore: (any StateStore)? {
        get { exclusivelyOrStop("read the state store") { current.stateStore } }
        set { exclusivelyOrStop("set the state store") { current.stateStore = newValue } }
    }

    /// Where external URLs go when the app's delegate has no `open_external` hook.
    public var openExternal: ((String) -> Void)? {
        get { exclusivelyOrStop("read openExternal") { current.openExternal } }
        set { exclusivelyOrStop("set openExternal") { current.openExternal = newValue } }
    }

    /// Where the scripts' `print` goes; nil: standard error.
    public var printSink: ((String) -> Void)? {
        get { exclusivelyOrStop("read printSink") { sinks.printing } }
        set { exclusivelyOrStop("set printSink") { sinks.printing = newValue } }
    }

    /// Told what went wrong where nothing can fail any more; nil: standard error.
    public var warn: ((String) -> Void)? {
        get { exclusivelyOrStop("read warn") { sinks.warning } }
        set { exclusivelyOrStop("set warn") { sinks.warning = newValue } }
    }

    // MARK: About the app

    /// What `wf.app { ... }` declared: its name, tabs (with their fixed titles), root URL,
    /// persistence and version.
    public var config: AppConfig { exclusivelyOrStop("read config") { current.config } }

    /// Where the app's files come from.
    public var source: AppSource { exclusivelyOrStop("read source") { current.source } }

    /// The limits its scripts run under.
    public var limits: LuaLimits { exclusivelyOrStop("read limits") { current.limits } }

    /// The name its state is kept under: `wf.app`'s name, else the app's (its directory's).
    public var stateName: String { exclusivelyOrStop("read stateName") { current.stateName } }

    // MARK: Running

    /// Shows the app: the state the store kept, restored (its visible screen made now, the rest
    /// when first seen), else what `wf.app` declared (its tabs, or its root URL). Guarded
    /// against a saved state that stops every launch (docs/persistence.md).
    public func launch() throws {
        try exclusively("launch") {
            updates?.launchBegins(stateStore: current.stateStore)
            do { try current.launch() } catch {
                updates?.launchFailed(error)
                throw error
            }
            updates?.launchReached()
        }
    }

    /// Shows what `wf.app` declared, ignoring any saved state.
    public func start() throws {
        try exclusively("start") { try current.start() }
    }

    /// Writes the navigation state through the state store (persistence `none` removes a saved
    /// one). Throws when there is no store, or it cannot write.
    public func persist() throws {
        try exclusively("persist") { try current.persist() }
    }

    /// Replaces the tree with the saved one: false when there was nothing to restore.
    @discardableResult
    public func restore() throws -> Bool {
        try exclusively("restore") { try current.restore() }
    }

    /// Grows with every change to the tree: a program saves the state only when it moved.
    public var changeCount: Int { exclusivelyOrStop("read changeCount") { current.navigator.changeCount } }

    /// The navigation tree as it is now, as plain values (what every event carries as the tree
    /// after its change).
    public var tree: NavigationSnapshot { exclusivelyOrStop("read the tree") { NavigationSnapshot(current.navigator.tree) } }

    // MARK: Navigating

    /// Opens `url` as the app's map says (docs/lua-api.md, "The navigator"): the controller it
    /// made or brought forward, nil for an action (mode `none`) or an external URL. A failed open
    /// (no route, a veto, a constructor's error, a limit reached) throws and changes nothing.
    @discardableResult
    public func open(_ url: String) throws -> LuaController? {
        try exclusively("open") {
            try checkNotTelling("open")
            return try opening(url) { try current.navigator.open(url) }
        }
    }

    /// Opens `request` (a URL with what an action adds: its query, parent, saved state and
    /// presentation, docs/lua-api.md, "Presentation"), as ``open(_:)`` opens a URL.
    @discardableResult
    public func open(_ request: NavigationRequest) throws -> LuaController? {
        try exclusively("open") {
            try checkNotTelling("open")
            return try opening(request.url) { try current.navigator.open(request) }
        }
    }

    /// Opens `url` in the visible screen's place (presentation `replace`): back goes where it
    /// went before.
    @discardableResult
    public func replace(_ url: String) throws -> LuaController? {
        try exclusively("replace") {
            try checkNotTelling("replace")
            return try opening(url) { try current.navigator.replace(url) }
        }
    }

    /// A link from outside the app (a notification, a web page): opens only a route marked
    /// `external`, an old URL of a moved route rewritten first, on top of the tree as it is
    /// (call it after ``launch()`` for a link the app was started with); a guard that stops it
    /// keeps it waiting (``pendingOpen``), saved with the state (`Navigator.handleLink`).
    @discardableResult
    public func handleLink(_ url: String) throws -> LuaController? {
        try exclusively("open a link") {
            try checkNotTelling("open a link")
            return try opening(url) { try current.navigator.handleLink(url) }
        }
    }

    /// The open a route's guard keeps waiting, if any; it opens by itself once the guard lets it
    /// through (docs/lua-api.md, "Guards").
    public var pendingOpen: PendingOpen? { exclusivelyOrStop("read pendingOpen") { current.navigator.pendingOpen } }

    /// Asks the waiting open's guard again now.
    @discardableResult
    public func resume() throws -> ResumeOutcome<LuaController> {
        try exclusively("resume") {
            try checkNotTelling("resume")
            guard let url = current.navigator.pendingOpen?.request.url else { return try current.navigator.resume() }
            return try opening(url) { try current.navigator.resume() }
        }
    }

    /// Forgets the waiting open; whether there was one.
    @discardableResult
    public func dropPending() -> Bool {
        exclusivelyOrStop("drop the pending open") { current.navigator.dropPending() }
    }

    /// Closes the popover and pops the visible stack to its first screen. False when there was
    /// nothing to close or pop.
    @discardableResult
    public func popToRoot() throws -> Bool {
        try exclusively("pop to root") {
            try checkNotTelling("pop to root")
            return try current.navigator.popToRoot()
        }
    }

    /// Pops the visible stack (closes the popover when one shows). False when there is nothing
    /// to pop.
    @discardableResult
    public func back() throws -> Bool {
        try exclusively("back") {
            try checkNotTelling("back")
            return try current.navigator.back()
        }
    }

    /// Closes the popover, else the top modal. False when there is neither.
    @discardableResult
    public func dismiss() throws -> Bool {
        try exclusively("dismiss") {
            try checkNotTelling("dismiss")
            return try current.navigator.dismiss()
        }
    }

    /// Selects the tab at `index`, counting from 0 as the tree's tabs, events and snapshots do
    /// (`.selectedTab(index)`, `.tabs(_, selected:)`). False when there is no such tab.
    @discardableResult
    public func selectTab(at index: Int) throws -> Bool {
        try exclusively("select") {
            try checkNotTelling("select")
            return try current.navigator.select(index)
        }
    }

    /// Selects the tab numbered `number`, from 1. False when there is none.
    @available(*, deprecated, message: "use selectTab(at:), which counts from 0 as events and snapshots do: selectTab(at: number - 1)")
    @discardableResult
    public func select(tabNumber number: Int64) throws -> Bool {
        guard let index = TabNumber.index(of: number) else { return false }
        return try selectTab(at: index)
    }

    // MARK: Screens and controllers

    /// The controller of the tree's entry `entry` (by its id), nil when the entry is not in the
    /// tree or its controller is not made yet (a restored entry, a tab not selected yet, until
    /// it is about to be seen: a `.loaded` event says when).
    public func controller(for entry: NavigationSnapshot.Entry) -> LuaController? {
        exclusivelyOrStop("find a controller") { current.navigator.tree.allEntries.first { $0.id == entry.id }?.controller }
    }

    /// The title an entry not made yet was saved with (what its `render()` last gave), to show
    /// it by until it is made.
    public func savedTitle(of entry: NavigationSnapshot.Entry) -> String? {
        exclusivelyOrStop("read a saved title") { current.navigator.tree.allEntries.first { $0.id == entry.id }?.pending?.saved.title }
    }

    /// The title `wf.app` gave the tab whose stack is `stack` (`{ "Menu", url }`), nil when it gave
    /// none: a tab bar shows it whether or not the tab's screen is made.
    public func tabTitle(of stack: [NavigationSnapshot.Entry]) -> String? {
        stack.first.flatMap { config.tabTitles[$0.url] }
    }

    /// What `controller` shows: its `render()` result (a native screen's title), or nil when it
    /// has no render method.
    public func render(_ controller: LuaController) throws(ScriptError) -> RenderedScreen? {
        try exclusively("render", refusing: Self.scriptRefusal) { () throws(ScriptError) in try current.bridge.render(controller) }
    }

    /// The controller's class name (`wf.controller`'s, a native screen's name), else its Lua type.
    public func describe(_ controller: LuaController) -> String {
        exclusivelyOrStop("describe a controller") { current.bridge.describe(controller) }
    }

    /// The controller's field `name`, read as a script reads it (through its class, so a method
    /// is a field too): plain data as it is; a function, or a table with a metatable, as a handle.
    /// Protected as every call into Lua is: an `__index` that raises or runs past the time
    /// budget throws, naming its file and line.
    public func field(_ name: String, of controller: LuaController) throws(ScriptError) -> Value {
        try exclusively("read a field", refusing: Self.scriptRefusal) { () throws(ScriptError) in try current.bridge.field(name, of: controller) }
    }

    /// Calls the controller's method `method` with `arguments` (`controller:method(...)`) and
    /// answers what it returned, under the state's time budget and memory limit; its error, or a
    /// field that is not a method, throws (the message names the file and line).
    @discardableResult
    public func call(_ method: String, on controller: LuaController, with arguments: [Value] = []) throws(ScriptError) -> [Value] {
        try exclusively("call a method", refusing: Self.scriptRefusal) { () throws(ScriptError) in
            try current.bridge.call(method, on: controller, with: arguments)
        }
    }

    // MARK: Reloading

    /// Makes the app again from its files (a directory's, read afresh) or from `newSource` (an app
    /// held in memory gets new sources this way), keeping the user's place: the tree carried
    /// over by URL, the visible controller made again by the new code with what its `persist`
    /// saved (docs/design.md, "Hot reload"). The host stays the same object, with its
    /// observers, lent modules, native screens, store and handlers. A reload that fails (a
    /// script's error, a route map that does not compile) throws and leaves everything as it was.
    @discardableResult
    public func reload(from newSource: AppSource? = nil) throws(ReloadError) -> ReloadReport {
        try exclusively("reload", refusing: { ReloadError(message: $0.description) }) { () throws(ReloadError) in
            if telling { throw ReloadError(message: NavigationError.busy("reload", during: "telling observers of a change").description) }
            let (fresh, report) = try current.reloaded(from: newSource)
            replaceApp(with: fresh, because: .reload)
            return report
        }
    }

    /// The app as the program's next start would find it: the navigation state saved (when there
    /// is a store), the app loaded again from its files, and launched. A relaunch that fails (the
    /// app does not load, its launch throws) leaves the running app as it was.
    public func relaunch() throws {
        try exclusively("relaunch") { try relaunching() }
    }

    private func relaunching() throws {
        try checkNotTelling("relaunch")
        if current.stateStore != nil { try current.persist() }
        let sinks = self.sinks
        let fresh = try AppHost(loader: current.loader, embedder: current.embedder, warnSink: { sinks.warn($0) })
        fresh.clock = current.clock
        fresh.stateStore = current.stateStore
        fresh.openExternal = current.openExternal
        try fresh.launch()
        replaceApp(with: fresh, because: .relaunch)
    }

    /// Runs an open of `url`: a script's error on the way (its constructor's, a guard's, a
    /// delegate hook's) arrives as the navigation error it is, `controllerFailed`, with the
    /// `ScriptError` as its cause; the navigator's own errors arrive as they are.
    private func opening<T>(_ url: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ScriptError {
            throw NavigationError.controllerFailed(url, reason: error.message, cause: NavigationError.Cause(error))
        }
    }

    /// Swaps in an app made again (a reload's, a relaunch's), and tells the observers.
    private func replaceApp(with fresh: AppHost, because replacement: NavigationChange.Replacement) {
        let old = current
        current = fresh
        moveObservers(from: old, to: fresh, because: replacement)
    }
}
