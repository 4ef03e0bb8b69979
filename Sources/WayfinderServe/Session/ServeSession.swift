import Foundation
import OrderedCollections
import Wayfinder
import WayfinderLua

/// The app as `wayfinder serve` runs it, for every page connected at once: it performs what the
/// pages ask (open, a link from outside, back, dismiss, select, reload, restore, export and
/// import), keeps the event log and the flow
/// graph, saves the navigation state after every change, and pushes the new state to every page
/// after each change (`ClientHub`). An actor: the app's Lua state lives in its isolation alone.
///
/// The app is embedded through `WayfinderHost` alone, as any Swift program embeds one
/// (docs/embedding.md): the session navigates through it, learns of every change to the tree
/// from the navigation events it reports (`ChangeFeed`), reads screens and routes through it, and
/// restores an earlier tree through it as a launch restores a saved one.
///
/// Nothing the app's scripts do stops the session: a failed open, a render that raises, a reload
/// refused, an app that does not load at all (its error is shown over the screen until a save
/// loads it) each become an event with the reason, and the session goes on.
public actor ServeSession {
    public let options: ServeOptions
    nonisolated let hub: ClientHub
    private var host: WayfinderHost?
    /// Why the app's scripts were last refused (at load or reload): shown over the screen until a
    /// load or reload works.
    private var failure: (message: String, traceback: String?)?
    private var log = EventLog()
    private var flow = FlowRecorder()
    /// The host's navigation events, heard while the session calls into the app.
    private let feed = ChangeFeed()
    private let renders = RenderMemory()
    private let notes = SessionNotes()
    private var model: (screen: Value, tree: Value) = ScreenModel.empty
    private var routes: Value = []
    /// Events not yet pushed to the pages.
    private var unsent: [SessionEvent] = []
    private var sequence = 0
    /// Whether the host reported changes since the last save.
    private var unsaved = false
    /// What the Record button captures (SessionRecorder.swift).
    private var recorder = SessionRecorder()
    /// The file a page is importing, until its last part: one at a time in the session, so
    /// what parts hold stays within one file's bound.
    private var importing: (page: Int, file: SessionImport)?

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
    func attach(_ queue: PageQueue) -> Int {
        let id = hub.add(queue)
        deliver(message(events: log.events, reset: true), to: id)
        return id
    }

    func detach(_ id: Int) {
        hub.remove(id)
        if importing?.page == id { importing = nil }
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
        // The step a recording keeps when the command did what it asked.
        var done: SessionRecorder.Step?
        defer { if let done { recorder.add(done, shown: visibleTitle) } }
        switch command {
        case .open(let url, let from, let title):
            navigate(.open, url: url) { host in
                try host.open(url)
                if let from { flow.followed(from: from, to: url, title: title, in: host) }
                done = title.map(SessionRecorder.Step.tap) ?? .open(url)
                return nil
            }
        case .back:
            navigate(.back) { host in
                guard try host.back() else { return "nothing to go back to" }
                done = .back
                return nil
            }
        case .dismiss:
            navigate(.dismiss) { host in
                guard try host.dismiss() else { return "nothing to dismiss" }
                done = .dismiss
                return nil
            }
        case .select(let tab):
            let title = tabTitle(tab)
            navigate(.select, detail: "tab \(tab)") { host in
                // The page counts tabs from 1, as people do.
                guard try TabNumber.index(of: tab).map(host.selectTab(at:)) == true else { return "there is no tab \(tab)" }
                done = title.map(SessionRecorder.Step.tap)
                return nil
            }
        case .fill(let name, let value):
            navigate(.fill) { host in
                guard let controller = host.tree.visible.flatMap(host.controller(for:)) else { return "no screen is open" }
                // What the log says shows a secret masked.
                let field = try host.setField(name, to: value, on: controller).masked
                unsaved = true
                done = .fill(field, value)
                return "\(field.label) = \(field.shownValue)"
            }
        case .press(let title):
            navigate(.press, detail: title) { host in
                guard let controller = host.tree.visible.flatMap(host.controller(for:)) else { return "no screen is open" }
                try host.press(title, on: controller)
                unsaved = true
                done = .tap(title)
                return nil
            }
        case .record(let on):
            if on {
                recorder.start(shown: visibleTitle)
                reply(["type": "recording", "on": true], to: client)
            } else {
                reply(["type": "recording", "on": false, "spec": .string(recorder.stop())], to: client)
            }
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
        case .link(let url):
            navigate(.link, url: url) { host in
                try host.handleLink(url)
                return nil
            }
        case .export(let file):
            reply(exported(file), to: client)
        case .importPart(let file, let part, let parts, let text):
            receiveImport(file, part: part, of: parts, text: text, from: client)
        }
    }

    /// The title of the screen in view, as the page shows it.
    private var visibleTitle: String? {
        guard case .array(let layers)? = model.screen["layers"], let top = layers.last else { return nil }
        return top["screen"]?["title"]?.stringValue
    }

    /// The title of tab `number` (from 1), as the page's tab bar shows it.
    private func tabTitle(_ number: Int64) -> String? {
        guard case .array(let tabs)? = model.screen["tabs"], let index = TabNumber.index(of: number), tabs.indices.contains(index) else { return nil }
        return tabs[index]["title"]?.stringValue
    }

    /// The app's scripts changed on disk (`files`, relative to its directory; none when asked
    /// by hand): made again from them, keeping the tree, or the reason it was refused.
    public func reload(because files: [String]) {
        load(reason: .reload, files: files)
        publish()
    }

    // MARK: Running the app

    /// Runs one navigation of the app and records it: what it did (the changes the host
    /// reported), how long it took, what the app said meanwhile. `body` answers nil when it did
    /// what was asked, else why it did nothing.
    private func navigate(_ kind: SessionEvent.Kind, url: String? = nil, detail: String? = nil,
                          _ body: (WayfinderHost) throws -> String?) {
        guard let host else {
            record(kind, outcome: .failed, url: url, message: "the app is not loaded: " + (failure?.message ?? "no app"))
            publish()
            return
        }
        let route = url.flatMap { routeFields(of: $0, in: host) }
        let clock = ContinuousClock()
        let start = clock.now
        var failed = false
        // A guard that keeps the open waiting did not fail it: it opens once the guard lets it.
        var waiting = false
        var message = detail
        var traceback: String?
        let pendingBefore = host.pendingOpen.map { ($0.request.url, $0.since) }
        do {
            if let nothing = try body(host) { message = [detail, nothing].compactMap { $0 }.joined(separator: ": ") }
            // A guard that opened another screen instead keeps this open waiting too.
            if url != nil, let now = host.pendingOpen, pendingBefore.map({ $0 != (now.request.url, now.since) }) ?? true {
                waiting = true
                message = "'\(now.request.url)' waits: its guard opened '\(host.tree.visible?.url ?? "")' instead; "
                    + "it is kept pending and opens once the guard lets it through"
            }
        } catch {
            if case .waiting? = error as? NavigationError { waiting = true } else { failed = true }
            message = url.map { OpenFailure.reason(error, url: $0) } ?? "\(kind.rawValue): \(error)"
            traceback = ScriptError.carried(by: error)?.traceback
        }
        let duration = start.duration(to: clock.now)
        var changes = feed.take()
        let shown = refresh(adding: &changes)
        let outcome: SessionEvent.Outcome = waiting ? .waiting : failed ? .failed : changes.isEmpty ? .unchanged : .changed
        record(kind, outcome: outcome, url: url, route: route, message: message,
               traceback: traceback, duration: duration, changes: changes, snapshot: shown || !changes.isEmpty)
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
                let report = try host.reload()
                failure = nil
                flow.routesChanged()
                routes = routeTable(of: host)
                let duration = start.duration(to: clock.now)
                var changes = feed.take()
                let shown = refresh(adding: &changes)
                record(.reload, outcome: changes.isEmpty ? .unchanged : .changed, message: "reloaded\(cause): " + report.changes.summary,
                       duration: duration, changes: changes, snapshot: shown || !changes.isEmpty)
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
        let loaded: WayfinderHost
        do {
            loaded = try WayfinderHost(configuration())
        } catch {
            let message = "cannot load app '\(options.app)': \(error)"
            failure = (message, error.traceback)
            record(kind, outcome: .failed, message: message + cause, traceback: error.traceback, duration: start.duration(to: clock.now),
                   snapshot: log.events.isEmpty)
            recordNotes()
            return
        }
        loaded.observe { [feed] in feed.hear($0) }
        host = loaded
        failure = nil
        renders.forgetAll()
        flow.routesChanged()
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
            do { try loaded.start() } catch { launchFailure = error }
        } catch {
            launchFailure = error
        }
        let duration = start.duration(to: clock.now)
        var changes = feed.take()
        _ = refresh(adding: &changes)
        let message = launchFailure.map { "cannot launch: \($0)" } ?? (reason == .launch ? "launched" : "loaded\(cause)")
        record(kind, outcome: launchFailure != nil ? .failed : changes.isEmpty ? .unchanged : .changed, message: message,
               traceback: launchFailure.flatMap { ScriptError.carried(by: $0)?.traceback }, duration: duration, changes: changes, snapshot: true)
        recordNotes()
        save()
    }

    /// How the app is embedded: its files, limits, and its output going to the session's notes.
    private func configuration() throws(AppLoadError) -> WayfinderHost.Configuration {
        var configuration = WayfinderHost.Configuration(app: try AppSource(path: options.app))
        configuration.limits = options.limits
        configuration.updates = options.updates?()
        configuration.printSink = { [notes] in notes.add(.print, $0) }
        configuration.warn = { [notes] in notes.add(.warning, $0) }
        configuration.openExternal = { [notes] in notes.add(.external, $0) }
        return configuration
    }

    private func useStateStore(for host: WayfinderHost) {
        let store: FileStateStore?
        switch options.state {
        case .none:
            store = nil
        case .path(let path):
            store = FileStateStore(path: path)
        case .standard:
            let standard = FileStateStore(path: FileStateStore.defaultPath(app: host.stateName))
            if let problem = standard.problem {
                notes.add(.warning, "cannot use the state file \(problem); this session saves nothing")
                store = nil
            } else {
                store = standard
            }
        }
        host.stateStore = store
    }

    /// Saves the navigation state when the host reported changes since the last save.
    private func save() {
        guard let host, host.stateStore != nil, unsaved else { return }
        do {
            try host.persist()
            unsaved = false
        } catch {
            notes.add(.warning, "cannot save the navigation state: \(error)")
        }
        recordNotes()
    }

    /// Builds the page's model again, after the call into the app that reported `changes`;
    /// whether what the page shows changed. A render may navigate: what it changes is added to
    /// `changes`, and the model is built again then.
    private func refresh(adding changes: inout [NavigationEvent]) -> Bool {
        let before = model
        guard let host else {
            model = ScreenModel.empty
            return model != before
        }
        renders.heard(changes)
        for _ in 0..<3 {
            renders.keep(only: host.tree)
            let built = ScreenModel(host: host, renders: renders)
            model = (built.screen, built.tree)
            for screen in built.rendered { flow.saw(screen.url, links: screen.links, in: host) }
            let more = feed.take()
            guard !more.isEmpty else { break }
            renders.heard(more)
            changes += more
        }
        flow.show(host.tree.visible?.url, in: host)
        if !changes.isEmpty { unsaved = true }
        return model != before
    }

    // MARK: Events

    private func record(_ kind: SessionEvent.Kind, outcome: SessionEvent.Outcome, url: String? = nil, route: Value? = nil,
                        message: String? = nil, traceback: String? = nil, duration: Duration? = nil,
                        changes: [NavigationEvent] = [], snapshot: Bool = false) {
        let tree = snapshot ? EventLog.Snapshot(screen: model.screen, tree: model.tree, state: host?.capturedState()) : nil
        let visible = host?.tree.visible?.url
        let event = log.append({ id in
            SessionEvent(id: id, kind: kind, outcome: outcome, at: Date(), duration: duration, url: url, route: route,
                         message: message, traceback: traceback, visible: visible, changes: changes.map(HeardChange.json))
        }, snapshot: tree)
        unsent.append(event)
    }

    /// What the app said during the last call, as events: the renders that failed (each once),
    /// what its scripts printed, its warnings, the URLs it handed outside.
    private func recordNotes() {
        for (url, error) in renders.takeFailures() {
            record(.render, outcome: .failed, url: url, message: "render failed: " + error.message, traceback: error.traceback)
        }
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
    private func routeFields(of url: String, in host: WayfinderHost) -> Value? {
        guard let report = try? host.match(url), case .map(let fields) = report.json, fields["matched"] == .bool(true) else { return nil }
        var route = OrderedDictionary<String, Value>()
        for key in ["pattern", "mode", "params", "query", "fragment"] { route[key] = fields[key] ?? .null }
        return .map(route)
    }

    private func routeTable(of host: WayfinderHost) -> Value {
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
            let explanation = report.external ? nil : try? host.explain(report.matchedURL)
            answer["explain"] = .array(explanation?.entries.map(\.json) ?? [])
        } catch {
            answer["report"] = ["url": .string(url), "matched": false, "external": false, "reason": .string("script error: \(error.message)")]
            answer["explain"] = []
        }
        return .map(answer)
    }

    // MARK: Files

    /// The state or the event log as a file for page to save: `{"type":"export","what":W,
    /// "name":FILE,"text":CONTENTS}`, or the reason it cannot be.
    private func exported(_ file: SessionFile) -> Value {
        guard let host else {
            return ["type": "refused", "reason": .string("export: the app is not loaded: " + (failure?.message ?? "no app"))]
        }
        let name = host.stateName
        do {
            let text: String
            switch file {
            case .state: text = try FileStateStore.text(of: host.capturedState())
            case .log: text = try EventLogFile.text(app: name, log: log)
            }
            return ["type": "export", "what": .string(file.rawValue), "name": .string("\(name)-\(file.rawValue).json"), "text": .string(text)]
        } catch {
            return ["type": "refused", "reason": .string("export: cannot write the \(file.rawValue) as JSON: \(error)")]
        }
    }

    /// A part of a file page `client` imports; the whole file is read once its last part came. A
    /// refusal (a part out of order, a file too large, one that is not a valid state or log)
    /// goes to that page alone and leaves the session as it was. A page that begins an import
    /// ends any other page's import under way (whose next part is then refused).
    private func receiveImport(_ file: SessionFile, part: Int, of parts: Int, text: String, from client: Int?) {
        let key = client ?? -1
        if part == 1 { importing = (key, SessionImport(file: file, parts: parts)) }
        guard let current = importing, current.page == key else {
            refuse("import: part \(part) of \(parts) came without part 1", to: client)
            return
        }
        var buffer = current.file
        let whole: String?
        do { whole = try buffer.add(part: part, of: parts, file: file, text: text) } catch {
            importing = nil
            refuse(error.description, to: client)
            return
        }
        guard let whole else {
            importing = (key, buffer)
            return
        }
        importing = nil
        guard let host else {
            refuse("import: the app is not loaded: " + (failure?.message ?? "no app"), to: client)
            return
        }
        switch file {
        case .state: importState(whole, into: host, from: client)
        case .log: importLog(whole, app: host.stateName, from: client)
        }
    }

    /// A state file, read and checked as the state store reads one, made the app's tree as a
    /// launch restores it.
    private func importState(_ text: String, into host: WayfinderHost, from client: Int?) {
        let state: NavigationState
        do { state = try FileStateStore.state(from: Data(text.utf8)) } catch {
            refuse("import: the file is not a valid state: \(error)", to: client)
            return
        }
        if let other = state.app, other != host.stateName {
            refuse("import: the state is of the app '\(other)', not '\(host.stateName)'", to: client)
            return
        }
        navigate(.import, detail: "the state file") { host in
            try host.restore(from: state) ? nil : "no screen of that state opens any more"
        }
    }

    /// An event log, every event and tree checked, in place of the session's: time travel and
    /// restore then work on its events; the app's tree stays as it is.
    private func importLog(_ text: String, app: String, from client: Int?) {
        let events: [(SessionEvent, EventLog.Snapshot?)]
        do { events = try EventLogFile.read(text, app: app) } catch {
            refuse("import: " + error.description, to: client)
            return
        }
        log = EventLog(imported: events, byteLimit: log.byteLimit)
        record(.import, outcome: .unchanged, message: "imported an event log of \(events.count) events")
        unsent = []
        let dropped = hub.broadcast(message(events: log.events, reset: true))
        for id in dropped { recordLetGo(id) }
    }

    // MARK: Messages

    /// Pushes the state and the new events to every page.
    private func publish() {
        let dropped = hub.broadcast(message(events: unsent, reset: false))
        unsent = []
        for id in dropped { recordLetGo(id) }
    }

    /// Sends `text` to page `client` alone, noting in the log when the page was let go for it.
    private func deliver(_ text: String, to client: Int) {
        if !hub.send(text, to: client) { recordLetGo(client) }
    }

    /// A page was let go for not reading: the log says so (the other pages get it with the next
    /// change).
    private func recordLetGo(_ id: Int) {
        record(.warning, outcome: .unchanged, message: "page \(id) was disconnected: it did not read what was sent to it "
               + "(more than \(hub.pageQueueBytes) bytes were on their way to it)")
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
        deliver(encoded(value), to: client)
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
