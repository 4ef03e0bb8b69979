import Foundation

/// Opens screens by URL into a navigation tree (docs/lua-api.md, "The navigator"), in the modes
/// create, share, modal, popover and none, with a presentation (push, replace, replace_root,
/// clear_all, refresh, pop, none), parents opened first and external URLs handed out. Links from
/// outside the app come in through `handleLink`; an open a route's guard stops waits as
/// `pendingOpen` until the guard lets it through. Works with any controller type: the Lua host
/// supplies Lua controllers, a Swift app its own.
///
/// Every operation works on a copy of the tree and keeps it only when it succeeds, so a failed
/// open (no route, a veto, a constructor error, a limit hit) leaves the tree exactly as it was.
/// Share mode finds its controller by searching the tree, so nothing keeps a controller alive
/// once it has left the tree.
///
/// A target of mode `none` runs after the rest of its open (parents) is committed, so it may
/// navigate itself (a "dismiss" or "show the tabs" action); when it fails, its open is taken back
/// whole, its own navigation included. Constructors,
/// delegate hooks, guards and appear/disappear run while the tree is being changed and may not navigate:
/// such a call fails with `NavigationError.busy` instead of losing one of the two changes.
///
/// Observers (`observe`) hear of every committed change once, as typed events, when the
/// operation that made it (with whatever its mode-none target navigated) has finished; a failed
/// operation sends none (docs/events.md).
public final class Navigator<Target, Controller: AnyObject> {
    /// The most times one open follows a delegate's `urlToOpen` to another URL before it fails:
    /// two URLs that redirect to each other cannot loop.
    public static var maximumRedirects: Int { 8 }
    /// The most parents one open places, each the parent of the next: each is opened inside the
    /// open of the screen above it, so the chain is bounded to bound that nesting.
    public static var maximumParents: Int { 100 }

    /// The URL map every open matches against; adding or removing routes takes effect at the
    /// next open.
    public let routes: RouteTable<Target>
    /// Routes that were renamed: an old URL that only they match opens where it moved.
    public let moves: RouteMoves
    // The fields every open and commit reads, some a dozen times, skip the run-time exclusivity
    // check: a navigator is used from one thread, and no access to them spans a call out (a
    // closure of the factory or the delegate is read first, then called), so none can overlap.
    /// How controllers are made and told they appear, disappear and leave.
    @exclusivity(unchecked) public var factory: ControllerFactory<Target, Controller>
    /// The app's say in each open: veto, redirect, external URLs.
    @exclusivity(unchecked) public var delegate = NavigatorDelegate<Controller>()
    /// Told about entries dropped because their URL no longer opens (after the route map changed).
    public var warn: (String) -> Void = { _ in }
    /// What is shown: the stacks, tabs and presented screens with their controllers. It changes
    /// only when an operation succeeds.
    @exclusivity(unchecked) public private(set) var tree = NavigationTree<Controller>()
    /// `tree.visible`, kept by `commit` (the only place the tree changes): it is asked for on
    /// every open and commit, and finding it walks generic types at run time.
    @exclusivity(unchecked) private var visibleEntry: NavigationEntry<Controller>?
    /// Counts commits, so an action that fails can tell whether its own open changed the tree.
    @exclusivity(unchecked) private(set) var generation = 0
    /// The operation under way, while the tree is being changed.
    @exclusivity(unchecked) private var changing: (operation: String, url: String?)?
    /// Asked before a matched URL opens, when set: a route's guard (docs/lua-api.md, "Guards").
    /// It runs while the tree is being changed, so it may not navigate.
    public var routeGuard: ((RouteMatch<Target>, NavigationRequest) throws -> GuardVerdict)?
    /// Asked for the parent of a matched route, when set (a host whose routes may compute their
    /// parent); unset, the route's `parent` option is used, filled from the match's params
    /// (`filledParent(of:)`). Nil opens no parent.
    public var routeParent: ((RouteMatch<Target>) throws -> String?)?
    /// The open a guard stopped, waiting for the guard to let it through.
    public internal(set) var pendingOpen: PendingOpen?
    /// Told after `pendingOpen` changed (kept, replaced, opened or dropped): a host that charges
    /// what it keeps for a script charges the open waiting now.
    public var pendingChanged: (() -> Void)?
    /// Seconds after which a pending open is dropped instead of opened; 0 keeps it for ever.
    public var pendingExpiration: Double = 3600
    /// Where the navigator reads the time (when an open was stopped, whether it expired).
    public var clock: () -> Date = { Date() }
    /// Counts changes to `pendingOpen`, which a host saves with the tree.
    var pendingRevision = 0
    /// `pendingRevision` when a guard last stopped an open.
    var stopRevision = -1
    /// `generation` and `pendingRevision` when the outermost operation under way began: when it
    /// ends having committed a change, a pending open is asked for again.
    private var outermostStart = (generation: 0, pending: 0)
    // The two below are looked at by every operation, on one thread: unchecked, they cost no
    // exclusivity check at run time.
    /// The operations under way and the restored entries they made.
    @exclusivity(unchecked) private var operations = OperationsUnderWay()
    /// Who hears of the changes, told when no operation is under way any more.
    @exclusivity(unchecked) private var observers = NavigationObservers()
    private var notifying = false

    /// A navigator with an empty tree over `routes`; the moves start empty, so add them to
    /// ``moves`` before the first open.
    public init(routes: RouteTable<Target>, factory: ControllerFactory<Target, Controller>) {
        self.routes = routes
        moves = RouteMoves(routes: routes)
        self.factory = factory
    }

    /// Grows with every change kept (an open, back, a tab switch, a restore, an open kept or
    /// dropped as pending): a host saves the state only when it moved.
    public var changeCount: Int { generation &+ pendingRevision }

    /// Grows with every entry of a saved state dropped because it could not be made again (its
    /// URL no longer opens a screen, its constructor failed): a host does not save over them.
    public internal(set) var droppedSavedEntries = 0

    /// The controller of the visible screen; nil before the first open (or when it has none).
    public var top: Controller? { visibleEntry?.controller }
    /// The URL of the visible screen, as it was opened (after redirects and moves).
    public var url: String? { visibleEntry?.url }

    // MARK: Opening

    /// Opens `url` by its route's mode and presentation, as `open(_:)` with a request that
    /// carries only the URL.
    @discardableResult
    public func open(_ url: String) throws -> Controller? {
        try open(NavigationRequest(url: url))
    }

    /// Opens the request. A guard that stops it keeps it pending (`pendingOpen`) and opens what
    /// it names instead, if anything: the answer is then that screen's controller, or, when it
    /// names nothing, `NavigationError.waiting` with the tree unchanged.
    @discardableResult
    public func open(_ request: NavigationRequest) throws -> Controller? {
        try operation { try open(request, resuming: false) }
    }

    /// Opens `url` in the visible screen's place (presentation `replace`): back goes where it
    /// went before.
    @discardableResult
    public func replace(_ url: String) throws -> Controller? {
        try open(NavigationRequest(url: url, presentation: .replace))
    }

    /// A link under one of these outside prefixes is read as the app URL under its inside one.
    public var linkPrefixes = LinkPrefixes()

    /// The one door for a URL from outside the app (a notification, a web page, the command
    /// line's `--link`), a web link read through `linkPrefixes` first: only a route marked
    /// `external` opens; any other, a URL no route matches and one handed outside the app (`tel:`)
    /// are refused, and nothing changes. An old URL of a moved route is rewritten first. It lands
    /// on top of the tree as it is (at launch: the restored one), its `parent` placed beneath it
    /// (brought forward in the tab that holds it, else opened in the selected one), and a guard
    /// that stops it keeps it pending, as any open.
    @discardableResult
    public func handleLink(_ url: String) throws -> Controller? {
        var request = NavigationRequest(url: linkPrefixes.appURL(for: url) ?? url)
        request.fromOutside = true
        return try open(request)
    }

    /// Opens `request`, following guards' redirects: the first request a guard stopped is kept
    /// pending once the open succeeds. `resuming` asks for a pending open: a guard that stops
    /// it is thrown (`GuardStop`) and nothing else happens.
    func open(_ request: NavigationRequest, resuming: Bool) throws -> Controller? {
        var attempt = request
        // The URLs guards stopped, in order: a guard's redirect counts toward the same limit as
        // the delegate's, so two guards sending each other's URLs are cut as a redirect loop.
        var stoppedAt: [String] = []
        while true {
            let mark = attemptMark
            do {
                let controller = try openOnce(attempt, redirects: stoppedAt)
                if !stoppedAt.isEmpty { keepPending(request) }
                return controller
            } catch let stop as GuardStop {
                takeBackAttempt(since: mark)
                if resuming { throw stop }
                stoppedAt.append(stop.url)
                guard let instead = stop.instead else {
                    keepPending(request)
                    throw NavigationError.waiting(request.url, guardedBy: stop.url)
                }
                guard stoppedAt.count < Self.maximumRedirects else {
                    throw NavigationError.redirectLoop(stoppedAt + [instead])
                }
                attempt = NavigationRequest(url: instead)
            }
        }
    }

    /// One open into a copy of the tree, kept when it succeeds; an action runs after.
    private func openOnce(_ request: NavigationRequest, redirects: [String]) throws -> Controller? {
        let before = (tree: tree, generation: generation)
        var action: Action?
        let controller = try exclusively("open", url: request.url) {
            var working = tree
            let controller = try open(request, into: &working, redirects: redirects, parents: [], action: &action)
            try commit(working)
            return controller
        }
        guard let action else { return controller }
        do {
            var request = action.request
            request.opener = visibleEntry?.controller
            return try factory.make(action.match, request)
        } catch {
            // A failed open changes nothing: the parents this open committed go again, and so
            // does whatever the action navigated before it failed.
            if generation != before.generation {
                try? exclusively("restore") { try commit(before.tree) }
            }
            throw error
        }
    }

    /// A mode-none target to run once the open's tree changes are committed.
    private struct Action {
        let match: RouteMatch<Target>
        let request: NavigationRequest
    }

    /// An open names its URL; the name is only spelled out when an error needs it.
    private func exclusively<T>(_ operation: String, url: String? = nil, _ body: () throws -> T) throws -> T {
        try refuseWhileChanging(operation, url: url)
        changing = (operation, url)
        defer { changing = nil }
        return try body()
    }

    /// Runs `body` with the navigator taken by `operation` (a host's work that must not
    /// navigate, such as migrating a saved state): an open, back or restore asked for meanwhile
    /// fails with `NavigationError.busy`, as from a constructor.
    public func reserved<T>(for operation: String, _ body: () throws -> T) throws -> T {
        try exclusively(operation, body)
    }

    /// Throws `NavigationError.busy` while the tree is being changed.
    func refuseWhileChanging(_ operation: String, url: String? = nil) throws {
        func spelled(_ operation: String, _ url: String?) -> String { url.map { "\(operation) '\($0)'" } ?? operation }
        if let changing { throw NavigationError.busy(spelled(operation, url), during: spelled(changing.operation, changing.url)) }
    }

    private func open(_ request: NavigationRequest, into working: inout NavigationTree<Controller>,
                      redirects: [String], parents: [String], action: inout Action?) throws -> Controller? {
        let url = request.url
        if let shouldOpen = delegate.shouldOpen, try !shouldOpen(url) { throw NavigationError.vetoed(url) }
        func redirect(to target: String) throws -> Controller? {
            let chain = redirects + [url]
            guard chain.count < Self.maximumRedirects else { throw NavigationError.redirectLoop(chain + [target]) }
            var next = request
            next.url = target
            return try open(next, into: &working, redirects: chain, parents: parents, action: &action)
        }
        if let urlToOpen = delegate.urlToOpen {
            guard let target = try urlToOpen(url) else { throw NavigationError.vetoed(url) }
            if target != url { return try redirect(to: target) }
        }
        // A refresh the open itself asks for makes the visible screen again from its own URL: the
        // URL opened names the instruction only, so it need not be one a route matches.
        if parents.isEmpty, request.presentation == .refresh { return try refreshVisible(for: url, in: &working) }
        let parsed: NavigationURL
        do { parsed = try NavigationURL(url) } catch { throw NavigationError.malformedURL(url, reason: error.description) }

        if isExternal(parsed) {
            if request.fromOutside {
                throw NavigationError.notExternal(url, reason: "no route uses the scheme '\(parsed.scheme)', so it is no screen of the app")
            }
            guard let openExternal = delegate.openExternal else { throw NavigationError.noExternalHandler(url) }
            try openExternal(url)
            return nil
        }

        let match: RouteMatch<Target>
        switch try routes.match(parsed) {
        case .noMatch(let reason):
            // An old URL (in data, in a link) opens where its route moved.
            let rewrite = try moves.rewrite(parsed)
            if case .moved(let target) = rewrite { return try redirect(to: target) }
            // A link to no screen is refused as a link to a screen it may not open is: one rule at
            // the door from outside.
            var why = reason
            if case .failed(let moveFailure) = rewrite { why += "; " + moveFailure }
            if request.fromOutside { throw NavigationError.notExternal(url, reason: why + ", so it is no screen of the app") }
            try delegate.didNotMatch?(url)
            throw NavigationError.noRoute(url, reason: why)
        case .matched(let found):
            if found.route.pattern.isDefault, case .moved(let target) = try moves.rewrite(parsed) { return try redirect(to: target) }
            match = found
        }
        if request.fromOutside, !match.route.options.external {
            throw NavigationError.notExternal(url, reason: "its route '\(match.route.pattern.text)' is not marked external")
        }
        if let routeGuard, case .stop(let instead) = try routeGuard(match, request) {
            throw GuardStop(url: url, instead: instead)
        }
        let key = URLNormalization.key(for: parsed)

        // The open's presentation; a parent opened on the way is placed plainly.
        let presentation = parents.isEmpty ? request.presentation ?? match.route.options.presentation : .push
        switch presentation {
        case .none: return nil
        case .refresh: return try refreshVisible(for: url, in: &working)
        case .push, .replace, .replaceRoot, .clearAll, .pop: break
        }

        // A fragment acts on the screen already showing its base URL.
        if parsed.fragment != nil, let location = working.location(of: key), let entry = working.entry(at: location) {
            let controller = try load(entry, in: working)
            try factory.handleFragment?(controller, match)
            working.bringToFront(location)
            return controller
        }

        guard presentation != .push else {
            return try place(match, request, key: key, into: &working, parents: parents, action: &action)
        }
        let sizes = working.rootStackSizes
        switch presentation {
        case .replace: _ = working.takeOutVisible()
        case .replaceRoot: working.emptyVisibleStack()
        case .clearAll: working.clearToRoot()
        case .pop: _ = working.backOne()
        case .push, .refresh, .none: break
        }
        // pop and clear_all open the URL only when it is not the screen they went back to.
        if presentation == .pop || presentation == .clearAll, let visible = working.visible, visible.key == key {
            return try load(visible, in: working)
        }
        let controller = try place(match, request, key: key, into: &working, parents: parents, action: &action)
        working.removingEmptyModals()
        let after = working.rootStackSizes
        if sizes.count == after.count, let emptied = sizes.indices.first(where: { sizes[$0] > 0 && after[$0] == 0 }) {
            let stack = working.selectedTab == nil ? "the root stack" : "tab \(emptied + 1)"
            throw NavigationError.presentation(url, presentation, reason: "it would leave \(stack) without a screen")
        }
        return controller
    }

    /// Places the matched screen as its mode says: its parent first, a shared screen brought
    /// forward, an action kept for after the commit, else a new controller made and pushed,
    /// presented modally or as the popover.
    private func place(_ match: RouteMatch<Target>, _ request: NavigationRequest, key: String, into working: inout NavigationTree<Controller>,
                       parents: [String], action: inout Action?) throws -> Controller? {
        let url = request.url
        if let parent = try request.parent ?? parent(of: match) {
            try openParent(parent, of: url, key: key, into: &working, parents: parents)
        }

        let mode = match.route.options.mode
        if mode == .share, let location = working.location(of: key), let entry = working.entry(at: location) {
            let controller = try load(entry, in: working)
            working.bringToFront(location)
            return controller
        }
        if mode == .none {
            action = Action(match: match, request: request)
            return nil
        }
        var made = request
        made.opener = working.visible?.controller
        guard let controller = try factory.make(match, made) else {
            throw NavigationError.controllerFailed(url, reason: "its target made no controller")
        }
        try delegate.willOpen?(url, controller)
        let entry = NavigationEntry(url: url, key: key, mode: mode, query: request.query, controller: controller)
        switch mode {
        case .modal: working.presentModal(entry)
        case .popover: working.presentPopover(entry)
        case .create, .share, .none: working.push(entry)
        }
        return controller
    }

    /// `refresh`: the visible screen made again from its own URL, in its place, handed what the
    /// factory's `remaking` says its controller keeps (its saved state). The URL opened names
    /// the instruction only.
    private func refreshVisible(for url: String, in working: inout NavigationTree<Controller>) throws -> Controller {
        guard let entry = working.visible else {
            throw NavigationError.presentation(url, .refresh, reason: "no screen shows, so none can be made again")
        }
        guard case .matched(let match) = try routes.match(entry.url) else {
            throw NavigationError.noRoute(entry.url, reason: MatchResult<Target>.noRouteReason)
        }
        var request = entry.pending?.request ?? NavigationRequest(url: entry.url, query: entry.query)
        if let old = entry.controller, let remaking = factory.remaking { request = try remaking(old, request) }
        var below = working
        _ = below.takeOutVisible()
        request.opener = below.visible?.controller
        guard let controller = try factory.make(match, request) else {
            throw NavigationError.controllerFailed(entry.url, reason: "its target made no controller")
        }
        try delegate.willOpen?(entry.url, controller)
        working.replaceVisible(with: NavigationEntry(url: entry.url, key: entry.key, mode: entry.mode, query: entry.query, controller: controller))
        return controller
    }

    private func parent(of match: RouteMatch<Target>) throws -> String? {
        if let routeParent { return try routeParent(match) }
        return try filledParent(of: match)
    }

    /// The route's `parent` option, filled from the match's params when it is a pattern.
    public func filledParent(of match: RouteMatch<Target>) throws -> String? {
        do { return try routes.parentURL(of: match) } catch {
            throw NavigationError.malformedURL(match.route.options.parent ?? "", reason: "parent of '\(match.url.text)': \(error)")
        }
    }

    private func openParent(_ parent: String, of url: String, key: String, into working: inout NavigationTree<Controller>,
                            parents: [String]) throws {
        let parentKey: String
        do { parentKey = URLNormalization.key(for: try NavigationURL(parent)) } catch {
            throw NavigationError.malformedURL(parent, reason: "parent of '\(url)': \(error)")
        }
        if parentKey == key || parents.contains(parentKey) {
            throw NavigationError.parentCycle(parents + [key, parentKey])
        }
        if let location = working.location(of: parentKey) {
            if let entry = working.entry(at: location) { _ = try load(entry, in: working) }
            working.bringToFront(location)
        } else {
            guard parents.count < Self.maximumParents else {
                throw NavigationError.parentChainTooLong(parents.first ?? key, limit: Self.maximumParents)
            }
            var action: Action?
            _ = try open(NavigationRequest(url: parent), into: &working, redirects: [], parents: parents + [key], action: &action)
            if action != nil { throw NavigationError.parentIsAction(parent, of: url) }
        }
    }

    /// External: a scheme no route uses; http and https go to `*` when it is registered. `open`
    /// hands these to the app's `open_external`, and `wayfinder match` reports them so.
    /// A URL a move takes into the app (`https://example.com/items/(id)` moved to
    /// `tt://item/(id)`) is not.
    public func isExternal(_ url: NavigationURL) -> Bool {
        if routes.usesScheme(url.scheme) { return false }
        if moves.usesScheme(url.scheme), case .moved = (try? moves.rewrite(url)) ?? .unmoved { return false }
        if url.scheme == "http" || url.scheme == "https" { return !routes.hasDefaultRoute }
        return true
    }

    // MARK: Moving around

    /// Pops the visible stack. False when there is nothing to pop.
    @discardableResult
    public func back() throws -> Bool {
        try change("back") { $0.pop() }
    }

    /// Closes the popover and pops the visible stack back to its first screen. False when
    /// there was nothing to close or pop.
    @discardableResult
    public func popToRoot() throws -> Bool {
        try change("pop to root") { $0.popVisibleStackToRoot() }
    }

    /// Closes the popover, else the top modal. False when there is neither.
    @discardableResult
    public func dismiss() throws -> Bool {
        try change("dismiss") { $0.dismiss() }
    }

    /// Selects the tab numbered `number` as people count them, from 1. False when there is none.
    @discardableResult
    public func select(tabNumber number: Int64) throws -> Bool {
        guard let index = TabNumber.index(of: number) else { return false }
        return try select(index)
    }

    /// The same, by 0-based index. False when the root is not tabs or there is no such tab.
    /// A tab whose screen cannot be made now (its constructor fails) throws and stays, the
    /// selection as before, so a later select can try again; an entry whose URL no longer opens
    /// is dropped, as on every reveal. Tab numbers as scripts, specs and the CLI give them (from 1)
    /// go through `select(tabNumber:)`, the one place they become indexes.
    @discardableResult
    public func select(_ index: Int) throws -> Bool {
        try change("select", retrying: true) { $0.select(index) }
    }

    /// Applies a change that may have nothing to do (false), committing it when it did something.
    private func change(_ name: String, retrying: Bool = false, _ body: (inout NavigationTree<Controller>) -> Bool) throws -> Bool {
        var changed = false
        try operation {
            try exclusively(name) {
                var working = tree
                guard body(&working) else { return }
                try commit(working, retrying: retrying)
                changed = true
            }
        }
        return changed
    }

    /// The root becomes tabs, one stack per URL, the first selected. Only the visible tab's
    /// controller is made now; the others when they are first selected.
    public func setTabs(_ urls: [String]) throws {
        var stacks = [NavigationStack<Controller>]()
        for url in urls {
            let parsed: NavigationURL
            do { parsed = try NavigationURL(url) } catch { throw NavigationError.malformedURL(url, reason: error.description) }
            guard case .matched(let match) = try routes.match(parsed) else {
                throw NavigationError.noRoute(url, reason: MatchResult<Target>.noRouteReason)
            }
            if match.route.options.mode == .none {
                throw NavigationError.controllerFailed(url, reason: "its route '\(match.route.pattern.text)' is an action (mode none); a tab needs a screen")
            }
            let entry = NavigationEntry<Controller>(url: url, key: URLNormalization.key(for: parsed), mode: match.route.options.mode, controller: nil)
            stacks.append(NavigationStack(entries: [entry]))
        }
        try operation {
            try exclusively("tabs") {
                var working = tree
                working.setTabs(stacks, selected: 0)
                try commit(working)
            }
        }
    }

    /// Replaces the whole tree (a restored one). Entries without controllers are made when they
    /// become visible. With `strict`, a visible controller that cannot be made fails the
    /// replacement (the tree stays as it was) instead of being dropped. Observers hear one
    /// `.replacedTree(replacement)`.
    public func replaceTree(_ newTree: NavigationTree<Controller>, strict: Bool = false,
                            as replacement: NavigationChange.Replacement = .restore) throws {
        try replaceTree(newTree, strict: strict, as: replacement, matches: RestoredMatches())
    }

    /// `replaceTree`, its entries made from what the restore that made them matched.
    func replaceTree(_ newTree: NavigationTree<Controller>, strict: Bool, as replacement: NavigationChange.Replacement,
                     matches: RestoredMatches<Target>) throws {
        try operation {
            try exclusively("replace the tree") { try commit(newTree, strict: strict, matches: matches) }
            if !observers.isEmpty { observers.noteReplacement(replacement) }
        }
    }

    // MARK: Observing

    /// Calls `observer` with every change committed from now on, as typed events, each with the
    /// tree after it, until the observer is removed (docs/events.md). An operation's events
    /// come when it has finished, whole (a mode-none target's own navigation included), in
    /// the order the changes apply; a failed operation, or one that changed nothing, sends
    /// none. Observers are called in the order they were added, each with all of a batch's
    /// events before the next; while they are called `tree` is the committed tree, and
    /// navigating (open, back, dismiss, select, setTabs, replaceTree) fails with
    /// `NavigationError.busy`: an observer that wants to navigate in answer schedules it for
    /// after it returns. Adding and removing observers is allowed at any time.
    public func observe(_ observer: @escaping (NavigationEvent) -> Void) -> NavigationObserverToken {
        observers.add(observer, seeing: NavigationSnapshot(tree))
    }

    /// Stops calling the observer `token` names, from its next event on (also in the middle
    /// of a batch). False when it is not observing this navigator.
    @discardableResult
    public func removeObserver(_ token: NavigationObserverToken) -> Bool {
        observers.remove(token)
    }

    /// Runs one public operation. A failed one takes back the entries it made: a failed open
    /// changes nothing, not even which restored screens are made. When the outermost one
    /// ends, observers hear what it changed, and then, if it succeeded having committed a
    /// change, the guard of a pending open is asked again (Navigator+Pending.swift).
    @discardableResult
    func operation<T>(_ body: () throws -> T) throws -> T {
        if !operations.isUnderWay { outermostStart = (generation, pendingRevision) }
        let mark = operations.begin()
        let result: T
        do {
            result = try body()
        } catch {
            failOperation(since: mark)
            throw error
        }
        if endOperation() { resumeAfterChange(since: outermostStart) }
        return result
    }

    /// Ends an operation; true when it was the outermost, its observers told.
    @discardableResult
    private func endOperation() -> Bool {
        guard operations.end() else { return false }
        if !observers.isEmpty { notifyObservers() }
        return true
    }

    /// Unmakes what an attempt of an open made before a guard stopped it: the open goes on
    /// from the tree as it was.
    func takeBackAttempt(since mark: Int) {
        takeBack(operations.takeMade(since: mark))
    }

    /// Where the entries an attempt makes from now on begin (`takeBackAttempt(since:)`).
    var attemptMark: Int { operations.mark }

    private func failOperation(since mark: Int) {
        takeBack(operations.takeMade(since: mark))
        endOperation()
    }

    /// Unmakes the entries a failed operation made that are in the tree (it leaves the tree as
    /// it was, so they were unmade before it), their controllers leaving.
    private func takeBack(_ made: [OperationsUnderWay.MadeEntry]) {
        guard !made.isEmpty else { return }
        let inTree = Set(tree.allEntries.map(ObjectIdentifier.init))
        var leaving: [Controller] = []
        for record in made where inTree.contains(ObjectIdentifier(record.entry)) {
            let entry = unsafeDowncast(record.entry, to: NavigationEntry<Controller>.self)
            guard let controller = entry.controller else { continue }
            entry.controller = nil
            entry.pending = record.pending
            leaving.append(controller)
        }
        guard let leave = factory.leave, !leaving.isEmpty else { return }
        let outer = changing
        changing = ("take back a failed open", nil)
        defer { changing = outer }
        for controller in leaving { leave(controller) }
    }

    /// Tells each observer what changed since it last heard.
    private func notifyObservers() {
        guard !notifying else { return }
        notifying = true
        let outer = changing
        changing = ("telling observers of a change", nil)
        defer {
            notifying = false
            changing = outer
        }
        for delivery in observers.deliveries(now: NavigationSnapshot(tree)) {
            for event in delivery.events {
                guard observers.contains(delivery.token) else { break }
                delivery.notify(event)
            }
        }
    }

    // MARK: Committing

    private static func urlNoLongerOpens(_ error: Error) -> Bool {
        if case .noRoute? = error as? NavigationError { return true }
        return false
    }

    /// Makes the controller of an entry of `working` that has none yet: a restored entry with its
    /// saved query and state, or a tab's first screen. It opens over the visible controller of
    /// `working` (none when the entry is itself the visible one), never over what the committed
    /// tree shows, which the change may be taking away.
    /// `matches` holds what a restore matched its entries by.
    private func load(_ entry: NavigationEntry<Controller>, in working: NavigationTree<Controller>,
                      matches: RestoredMatches<Target> = RestoredMatches()) throws -> Controller {
        if let controller = entry.controller { return controller }
        guard let match = try matches.match(of: entry) ?? routes.match(entry.url).match else {
            throw NavigationError.noRoute(entry.url, reason: MatchResult<Target>.noRouteReason)
        }
        var request = entry.pending?.request ?? NavigationRequest(url: entry.url)
        request.opener = working.visible?.controller
        guard let controller = try factory.make(match, request) else {
            throw NavigationError.controllerFailed(entry.url, reason: "its target made no controller")
        }
        operations.noteMade(entry, pending: entry.pending)
        entry.controller = controller
        entry.pending = nil
        return controller
    }

    /// Keeps `working` as the tree, making the newly visible controller if it is not made yet, and
    /// tells the old and new visible controllers. An entry whose controller cannot be made (its
    /// URL no longer opens, its constructor fails) is dropped with a warning and the next one
    /// down is tried; with `strict`, the error is thrown and the tree stays as it was. With
    /// `retrying`, only entries whose URL no longer opens are dropped: any other error is thrown,
    /// and the entry stays for a later try. A tab whose own screen cannot be made now (its URL
    /// still opens) is not dropped either: it stays unmade, as a failed select leaves it, and
    /// another tab is selected, so a later select can try it again.
    /// A restore's `matches` make its entries without matching their URLs again.
    private func commit(_ working: NavigationTree<Controller>, strict: Bool = false, retrying: Bool = false,
                matches: RestoredMatches<Target> = RestoredMatches()) throws {
        var working = working
        var visible = working.visible
        var unmadeTabs = Set<Int>()
        while let entry = visible, entry.controller == nil {
            do {
                _ = try load(entry, in: working, matches: matches)
            } catch {
                if strict { throw error }
                if retrying, !Self.urlNoLongerOpens(error) { throw error }
                if !Self.urlNoLongerOpens(error), let tab = working.visibleTabRoot {
                    unmadeTabs.insert(tab)
                    if working.selectTab(avoiding: unmadeTabs) {
                        warn("kept the tab '\(entry.url)' unmade (a later select tries again): \(error)")
                        visible = working.visible
                        continue
                    }
                }
                warn("dropped '\(entry.url)': \(error)")
                if entry.pending != nil { droppedSavedEntries += 1 }
                working.removeVisible()
                visible = working.visible
            }
        }
        let before = visibleEntry?.controller
        let previous = tree
        tree = working
        visibleEntry = visible
        generation += 1
        let after = visibleEntry?.controller
        if before !== after {
            if let before { factory.disappear?(before) }
            if let after { factory.appear?(after) }
        }
        if let leave = factory.leave {
            let kept = Set(tree.allEntries.compactMap { $0.controller.map(ObjectIdentifier.init) })
            for entry in previous.allEntries {
                if let controller = entry.controller, !kept.contains(ObjectIdentifier(controller)) { leave(controller) }
            }
        }
    }
}
