import Foundation
import OrderedCollections
import Wayfinder
import WayfinderLua

/// The app as `wayfinder serve` runs it, for every page connected at once: it performs what the
/// pages ask (open, back, dismiss, select, reload, restore), keeps the event log and the flow
/// graph, saves the navigation state after every change, and pushes the new state to every page
/// after each change (`ClientHub`). An actor: the app's Lua state lives in its isolation alone.
///
/// Nothing the app's scripts do stops the session: a failed open, a render that raises, a reload
/// refused, an app that does not load at all (its error is shown over the screen until a save
/// loads it) each become an event with the reason, and the session goes on.
public actor ServeSession {
    public let options: ServeOptions
    let hub: ClientHub
    private var host: AppHost?
    /// Why the app's scripts were last refused (at load or reload): shown over the screen until a
    /// load or reload works.
    private var failure: (message: String, traceback: String?)?
    private var log = EventLog()
    private var flow = FlowRecorder()
    private var feed = ChangeFeed()
    private let notes = SessionNotes()
    private var model: (screen: Value, tree: Value) = ScreenModel.empty
    private var routes: Value = []
    /// Events not yet pushed to the pages.
    private var unsent: [SessionEvent] = []
    private var sequence = 0
    private var stateStore: FileStateStore?
    /// The host and its navigator's change count at the last save.
    private var saved: (host: ObjectIdentifier, count: Int)?

    public init(options: ServeOptions, hub: ClientHub) {
        self.options = options
        self.hub = hub
    }

    /// Loads and launches the app; the reason when it does not load (the session then runs
    /// without it, and a `reload` tries again).
    @discardableResult
    public func start() -> String? {
        load(reason: .launch, files: [])
        publish()
        return host == nil ? failure?.message : nil
    }

    /// Whether the app is loaded.
    public var isLoaded: Bool { host != nil }

    // MARK: Pages

    /// A page connected: it gets the whole state at once, then every change.
    func attach(_ client: ClientHub.Continuation) -> Int {
        let id = hub.add(client)
        hub.send(message(events: log.events, reset: true), to: id)
        return id
    }

    func detach(_ id: Int) {
        hub.remove(id)
    }

    /// A message from page `client`: a command, or a refusal sent back to it alone.
    func receive(_ text: String, from client: Int) {
        let command: ClientCommand
        do {
            command = try ClientCommand(json: text)
        } catch {
            refuse(error.reason, to: client)
            return
        }
        perform(command, from: client)
    }

    /// Tells page `client` alone why its message was not done.
    func refuse(_ reason: String, to client: Int?) {
        reply(["type": "refused", "reason": .string(reason)], to: client)
    }

    /// Performs `command`; answers meant for the asking page alone (inspect, explain, a refusal)
    /// go to `client`.
    func perform(_ command: ClientCommand, from client: Int? = nil) {
        switch command {
        case .open(let url, let from, let title):
            navigate(.open, url: url) { host in
                try host.navigator.open(url)
                if let from { flow.followed(from: from, to: url, title: title, in: host) }
                return nil
            }
        case .back:
            navigate(.back) { try $0.navigator.back() ? nil : "nothing to go back to" }
        case .dismiss:
            navigate(.dismiss) { try $0.navigator.dismiss() ? nil : "nothing to dismiss" }
        case .select(let tab):
            navigate(.select, detail: "tab \(tab)") { try $0.navigator.select(tabNumber: tab) ? nil : "there is no tab \(tab)" }
        case .reload:
            reload(because: [])
        case .inspect(let id):
            guard let snapshot = log.snapshot(at: id) else {
                refuse("there is no event \(id) in the log", to: client)
                return
            }
            reply(["type": "inspect", "event": .int(Int64(id)), "screen": snapshot.screen, "tree": snapshot.tree], to: client)
        case .restore(let id):
            guard let state = log.snapshot(at: id)?.state else {
                let reason = log.snapshot(at: id) == nil ? "there is no event \(id) in the log" : "the app was not loaded after event \(id)"
                record(.restore, outcome: .failed, message: "restore: " + reason)
                publish()
                return
            }
            navigate(.restore, detail: "to the tree after event \(id)") { host in
                try host.restore(from: state) ? nil : "no screen of that tree opens any more"
            }
        case .explain(let url):
            reply(explanation(of: url), to: client)
        }
    }

    /// The app's scripts changed on disk (`files`, relative to its directory; none when asked
    /// by hand): made again from them, keeping the tree, or the reason it was refused.
    public func reload(because files: [String]) {
        load(reason: .reload, files: files)
        publish()
    }

    // MARK: Running the app

    /// Runs one navigation of the app and records it: what it did, how long it took, what the
    /// app said meanwhile. `body` answers nil when it did something, else why it did nothing.
    private func navigate(_ kind: SessionEvent.Kind, url: String? = nil, detail: String? = nil,
                          _ body: (AppHost) throws -> String?) {
        guard let host else {
            record(kind, outcome: .failed, url: url, message: "the app is not loaded: " + (failure?.message ?? "no app"))
            publish()
            return
        }
        let route = url.flatMap { routeFields(of: $0, in: host) }
        let clock = ContinuousClock()
        let start = clock.now
        var outcome = SessionEvent.Outcome.changed
        var message = detail
        var traceback: String?
        do {
            if let nothing = try body(host) {
                outcome = .unchanged
                message = [detail, nothing].compactMap { $0 }.joined(separator: ": ")
            }
        } catch {
            outcome = .failed
            message = url.map { OpenFailure.reason(error, url: $0) } ?? "\(kind.rawValue): \(error)"
            traceback = (error as? ScriptError)?.traceback
        }
        let duration = start.duration(to: clock.now)
        let difference = refresh()
        if outcome == .changed && !difference.tree { outcome = .unchanged }
        record(kind, outcome: outcome, url: url, route: route, message: message, traceback: traceback, duration: duration,
               snapshot: difference.shown)
        recordNotes()
        save()
        publish()
    }

    private enum LoadReason { case launch, reload }

    /// Loads the app (the first time, or after a load that failed) or reloads it, and records
    /// what happened.
    private func load(reason: LoadReason, files: [String]) {
        let clock = ContinuousClock()
        let start = clock.now
        let cause = files.isEmpty ? "" : " (" + files.joined(separator: ", ") + ")"
        let kind: SessionEvent.Kind = reason == .launch ? .launch : .reload
        if let host {
            do {
                let (fresh, report) = try host.reloaded()
                adopt(fresh)
                self.host = fresh
                failure = nil
                flow.routesChanged()
                routes = routeTable(of: fresh)
                let duration = start.duration(to: clock.now)
                let difference = refresh()
                record(.reload, outcome: difference.tree ? .changed : .unchanged, message: "reloaded\(cause): " + report.changes.summary,
                       duration: duration, snapshot: difference.shown)
                for warning in report.warnings { notes.add(.warning, warning) }
            } catch {
                failure = (error.message, error.traceback)
                record(.reload, outcome: .failed, message: error.message + cause, traceback: error.traceback,
                       duration: start.duration(to: clock.now))
            }
            recordNotes()
            save()
            return
        }
        let loaded: AppHost
        do {
            loaded = try AppHost(path: options.app, limits: options.limits, printSink: { [notes] in notes.add(.print, $0) })
        } catch {
            let message = "cannot load app '\(options.app)': \(error)"
            failure = (message, error.traceback)
            record(kind, outcome: .failed, message: message + cause, traceback: error.traceback, duration: start.duration(to: clock.now),
                   snapshot: log.events.isEmpty)
            recordNotes()
            return
        }
        adopt(loaded)
        host = loaded
        failure = nil
        routes = routeTable(of: loaded)
        useStateStore(for: loaded)
        var launchFailure: Error?
        do {
            try loaded.launch()
        } catch let refused as PersistenceError {
            // Another app's state file: the session runs from the app's start and saves nothing,
            // so the file stays as it is.
            notes.add(.warning, "\(refused); this session saves nothing")
            loaded.stateStore = nil
            stateStore = nil
            do { try loaded.start() } catch { launchFailure = error }
        } catch {
            launchFailure = error
        }
        let duration = start.duration(to: clock.now)
        _ = refresh()
        let message = launchFailure.map { "cannot launch: \($0)" } ?? (reason == .launch ? "launched" : "loaded\(cause)")
        record(kind, outcome: launchFailure == nil ? .changed : .failed, message: message,
               traceback: (launchFailure as? ScriptError)?.traceback, duration: duration, snapshot: true)
        recordNotes()
        save()
    }

    /// Where the app's output goes: the session's notes.
    private func adopt(_ host: AppHost) {
        host.warn = { [notes] in notes.add(.warning, $0) }
        host.openExternal = { [notes] in notes.add(.external, $0) }
        host.state.printSink = { [notes] in notes.add(.print, $0) }
    }

    private func useStateStore(for host: AppHost) {
        switch options.state {
        case .none:
            stateStore = nil
        case .path(let path):
            stateStore = FileStateStore(path: path)
        case .standard:
            let store = FileStateStore(path: FileStateStore.defaultPath(app: host.stateName))
            if let problem = store.problem {
                notes.add(.warning, "cannot use the state file \(problem); this session saves nothing")
                stateStore = nil
            } else {
                stateStore = store
            }
        }
        host.stateStore = stateStore
    }

    /// Saves the navigation state when the tree changed since the last save.
    private func save() {
        guard let host, host.stateStore != nil else { return }
        let now = (ObjectIdentifier(host), host.navigator.changeCount)
        guard saved.map({ $0.host != now.0 || $0.count != now.1 }) ?? true else { return }
        do {
            try host.persist()
            saved = (now.0, now.1)
        } catch {
            notes.add(.warning, "cannot save the navigation state: \(error)")
        }
        recordNotes()
    }

    /// What a new model differs from the last in: the tree (its entries, titles, what is made,
    /// what is visible), and anything the page shows (the tree, or only a screen's lines).
    private struct Difference {
        let tree: Bool
        let shown: Bool
    }

    /// Builds the page's model again; how it differs from the last one. A render that navigates
    /// (it may) changes the tree once more: the model is built again then.
    private func refresh() -> Difference {
        let before = model
        guard let host else {
            model = ScreenModel.empty
            return Difference(tree: model.tree != before.tree, shown: model.screen != before.screen)
        }
        _ = feed.changed(host)
        for _ in 0..<3 {
            let built = ScreenModel(host: host)
            model = (built.screen, built.tree)
            for screen in built.rendered { flow.saw(screen.url, links: screen.links, in: host) }
            flow.show(host.navigator.url, in: host)
            guard feed.changed(host) else { break }
        }
        let tree = model.tree != before.tree
        return Difference(tree: tree, shown: tree || model.screen != before.screen)
    }

    // MARK: Events

    private func record(_ kind: SessionEvent.Kind, outcome: SessionEvent.Outcome, url: String? = nil, route: Value? = nil,
                        message: String? = nil, traceback: String? = nil, duration: Duration? = nil, snapshot: Bool = false) {
        let tree = snapshot ? EventLog.Snapshot(screen: model.screen, tree: model.tree, state: host?.capturedState(everyEntry: true)) : nil
        let visible = host?.navigator.url
        let event = log.append({ id in
            SessionEvent(id: id, kind: kind, outcome: outcome, at: Date(), duration: duration, url: url, route: route,
                         message: message, traceback: traceback, visible: visible)
        }, snapshot: tree)
        unsent.append(event)
    }

    /// What the app said during the last call, as events.
    private func recordNotes() {
        let (items, leftOut) = notes.drain()
        for item in items {
            switch item.kind {
            case .external: record(.external, outcome: .unchanged, url: item.text, message: "opened outside the app")
            default: record(item.kind, outcome: .unchanged, message: item.text)
            }
        }
        if leftOut > 0 { record(.warning, outcome: .unchanged, message: "\(leftOut) more lines left out") }
    }

    /// The route a URL opens, as the log shows it: pattern, mode, params, query.
    private func routeFields(of url: String, in host: AppHost) -> Value? {
        guard let report = try? host.match(url), case .map(let fields) = report.json, fields["matched"] == .bool(true) else { return nil }
        var route = OrderedDictionary<String, Value>()
        for key in ["pattern", "mode", "params", "query", "fragment"] { route[key] = fields[key] ?? .null }
        return .map(route)
    }

    private func routeTable(of host: AppHost) -> Value {
        guard let reports = try? host.routeReports() else { return [] }
        return .array(reports.map(\.json))
    }

    private func explanation(of url: String) -> Value {
        guard let host else {
            return ["type": "refused", "reason": .string("the app is not loaded: " + (failure?.message ?? "no app"))]
        }
        var answer = OrderedDictionary<String, Value>()
        answer["type"] = "explain"
        answer["url"] = .string(url)
        do {
            let report = try host.match(url)
            answer["report"] = report.json
            let explanation = report.external ? nil : try? host.explain(url)
            answer["explain"] = .array(explanation?.entries.map(\.json) ?? [])
        } catch {
            answer["report"] = ["url": .string(url), "matched": false, "external": false, "reason": .string("script error: \(error.message)")]
            answer["explain"] = []
        }
        return .map(answer)
    }

    // MARK: Messages

    /// Pushes the state and the new events to every page.
    private func publish() {
        hub.broadcast(message(events: unsent, reset: false))
        unsent = []
    }

    /// The state message: the phone, the tree, the events (all of them when `reset`), the flow
    /// graph, the route table, and the reason the scripts were refused, if they were.
    private func message(events: [SessionEvent], reset: Bool) -> String {
        sequence += 1
        var fields = OrderedDictionary<String, Value>()
        fields["type"] = "state"
        fields["seq"] = .int(Int64(sequence))
        fields["reset"] = .bool(reset)
        fields["screen"] = model.screen
        fields["tree"] = model.tree
        fields["events"] = .array(events.map(\.json))
        fields["flow"] = flow.json
        fields["routes"] = routes
        fields["failure"] = failure.map { ["message": .string($0.message), "traceback": $0.traceback.map(Value.string) ?? .null] } ?? .null
        return encoded(.map(fields))
    }

    private func reply(_ value: Value, to client: Int?) {
        guard let client else { return }
        hub.send(encoded(value), to: client)
    }

    /// JSON for the page; a value JSON cannot hold (a number that is not finite) is replaced by
    /// the reason, never dropped in silence.
    private func encoded(_ value: Value) -> String {
        do {
            return try JSON.encode(value)
        } catch {
            return (try? JSON.encode(["type": "refused", "reason": .string("cannot write the answer as JSON: \(error)")])) ?? "{}"
        }
    }
}
