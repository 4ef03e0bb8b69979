import Foundation
import OrderedCollections

/// What a made controller says about itself when the tree is saved (the Lua host asks its
/// `persist(state)` hook and its model identifiers).
public struct ControllerRecord {
    /// false: leave this entry out (`persist` returned false).
    public var persists: Bool
    /// The state to save with the screen.
    public var state: Value?
    /// Whether the screen is kept even where the persistence mode drops unimportant ones.
    public var important: Bool
    /// The context the screen runs in.
    public var context: ContextChain?
    /// The list position to bring back.
    public var model: NavigationState.ModelPosition?
    /// What the screen is called now (its rendered title), saved for when it is restored unmade.
    public var title: String?

    /// What a controller keeps of itself.
    public init(persists: Bool = true, state: Value? = nil, important: Bool = false, context: ContextChain? = nil,
                model: NavigationState.ModelPosition? = nil, title: String? = nil) {
        self.title = title
        self.persists = persists
        self.state = state
        self.important = important
        self.context = context
        self.model = model
    }
}

extension NavigationTree {
    /// The tree as a `NavigationState`. `mode` `.top` keeps the containers and the first entry
    /// of each stack (no popover); `.none` keeps nothing. Made controllers are described by
    /// `record`; restored entries not made yet keep what was saved for them. `appContext` is the
    /// host's shared innermost context, saved as the app layer. Values that cannot be written
    /// (functions, userdata, infinities) are left out and named in `leftOut`.
    public func captured(mode: PersistenceMode, app: String? = nil, savedAt: Date = Date(), appContext: ContextChain? = nil,
                         record: (NavigationEntry<Controller>, Controller) -> ControllerRecord) -> (state: NavigationState, leftOut: [String]) {
        var capture = StateCapture<Controller>(appContext: appContext)
        var state = NavigationState(app: app, savedAt: savedAt, mode: mode)
        guard mode != .none else { return (state, []) }
        let keep: ([NavigationEntry<Controller>]) -> ArraySlice<NavigationEntry<Controller>> = { entries in
            mode == .top ? entries.prefix(1) : entries[...]
        }
        switch root {
        case .stack(let stack):
            state.root = .stack(keep(stack.entries).compactMap { capture.entry($0, record) })
        case .tabs(let tabs, let selected):
            state.root = .tabs(tabs.map { keep($0.entries).compactMap { capture.entry($0, record) } }, selected: selected)
        }
        state.modals = modals.map { keep($0.entries).compactMap { capture.entry($0, record) } }
        if mode == .all, let popover { state.popover = capture.entry(popover, record) }
        state.contexts = capture.contexts
        return (state, capture.leftOut)
    }
}

/// The work of one capture: entries in, saved entries out, each context chain numbered once.
private struct StateCapture<Controller: AnyObject> {
    let appContext: ContextChain?
    var contexts: [NavigationState.Context] = []
    var leftOut: [String] = []
    private var numbers: [ObjectIdentifier: Int] = [:]

    init(appContext: ContextChain?) {
        self.appContext = appContext
    }

    mutating func entry(_ entry: NavigationEntry<Controller>,
                        _ record: (NavigationEntry<Controller>, Controller) -> ControllerRecord) -> NavigationState.Entry? {
        if let controller = entry.controller {
            let described = record(entry, controller)
            guard described.persists else { return nil }
            return NavigationState.Entry(
                url: entry.url,
                query: query(of: entry),
                state: described.state.flatMap { plain($0, at: "\(entry.url): state") },
                context: described.context.map { number($0) },
                important: described.important,
                model: described.model.map { model in
                    NavigationState.ModelPosition(selected: model.selected.flatMap { plain($0, at: "\(entry.url): selected item") },
                                                  anchor: model.anchor.flatMap { plain($0, at: "\(entry.url): scroll anchor") })
                },
                title: described.title)
        } else if let pending = entry.pending {
            var kept = pending.saved
            kept.context = pending.context.map { number($0) }
            return kept
        }
        return NavigationState.Entry(url: entry.url, query: query(of: entry))
    }

    /// The plain part of the query an action added; nil when there is none.
    private mutating func query(of entry: NavigationEntry<Controller>) -> OrderedDictionary<String, Value>? {
        guard !entry.query.isEmpty, let kept = plain(.map(entry.query), at: "\(entry.url): query")?.mapValue, !kept.isEmpty else { return nil }
        return kept
    }

    private mutating func plain(_ value: Value, at path: String) -> Value? {
        value.persistable(at: path, leftOut: &leftOut)
    }

    /// The number of `context` in the document, saving it (after the layers it chains to) the
    /// first time it is met. The chain is walked in a loop, not by recursion: its length is the
    /// script's to choose.
    private mutating func number(_ context: ContextChain) -> Int {
        // The layers not numbered yet, from `context` inward, up to one that is (or the app's,
        // which ends the saved chain, or the chain's end).
        var unnumbered = [ContextChain]()
        var current: ContextChain? = context
        while let layer = current, numbers[ObjectIdentifier(layer)] == nil {
            unnumbered.append(layer)
            current = layer === appContext ? nil : layer.inner
        }
        for layer in unnumbered.reversed() {
            let isApp = layer === appContext
            let inner = isApp ? nil : layer.inner.flatMap { numbers[ObjectIdentifier($0)] }
            let label = isApp ? "the app context" : "context '\(layer.name ?? "(unnamed)")'"
            var values = OrderedDictionary<String, Value>()
            for (key, value) in layer.entries {
                if let kept = plain(value, at: "\(label): \(key)") { values[key] = kept }
            }
            contexts.append(NavigationState.Context(name: layer.name, fields: layer.fields.isEmpty ? nil : layer.fields,
                                                    values: values, inner: inner, isApp: isApp))
            numbers[ObjectIdentifier(layer)] = contexts.count - 1
        }
        return numbers[ObjectIdentifier(context)] ?? 0
    }
}
