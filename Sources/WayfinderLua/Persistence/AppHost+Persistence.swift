import Foundation
import OrderedCollections
import Wayfinder

/// Persistence for a Lua app (docs/persistence.md): the navigator's tree saved through the
/// state store, each controller asked what to keep (its `persist(state)` hook, whether it is
/// important, its context, its selection by model identifier), and restored lazily, each
/// restored controller handed its saved state (`restore(state)`) before it appears.
extension AppHost {
    /// The name the state file is called by: `wf.app`'s name, else the app's (its directory's or
    /// file's, see ``AppSource/name``).
    public var stateName: String {
        config.name ?? source.name
    }

    /// The tree as a document, in the app's persistence mode. What cannot be written is left out
    /// with a warning (once per value, not at every save).
    /// `everyEntry` keeps the whole tree whatever the mode and whatever `persist` answered (a hot
    /// reload keeps the user's place).
    public func capturedState(savedAt: Date? = nil, everyEntry: Bool = false) -> NavigationState {
        let (saved, leftOut) = navigator.tree.captured(mode: everyEntry ? .all : config.persistence, app: stateName, savedAt: savedAt ?? clock(),
                                                       appContext: appContext) { [unowned self] entry, controller in
            let described = record(of: controller, at: entry.url)
            return everyEntry && !described.persists ? ControllerRecord() : described
        }
        for item in leftOut { warnOnce("not saved: \(item) cannot be written to disk") }
        var versioned = saved
        versioned.appVersion = config.version
        return versioned
    }

    /// Writes the navigation state (persistence `none` removes a saved one). Fails when the app
    /// has no state store or the store cannot write.
    public func persist() throws {
        guard let stateStore else { throw PersistenceError.noStateStore }
        if !stateOwnerChecked, case .loaded(let saved) = stateStore.load() { try checkOwner(of: saved) }
        stateOwnerChecked = true
        if config.persistence == .none {
            try stateStore.remove()
        } else {
            try stateStore.save(capturedState())
        }
    }

    /// Refuses a state another app saved (its document names another app), or one that names no
    /// app (Wayfinder always writes the name, so such a document could be any app's): the file is
    /// left as it is, neither restored nor overwritten.
    func checkOwner(of saved: NavigationState) throws {
        guard saved.app != stateName else { return }
        throw PersistenceError.anotherApp(owner: saved.app, app: stateName, path: (stateStore as? FileStateStore)?.path)
    }

    /// Replaces the tree with the saved one. False when there is nothing to restore: no store,
    /// persistence `none`, nothing saved, a state that expired with no important entry, a file
    /// that could not be read (moved aside, with a warning), a state a newer version of the app
    /// saved or whose migration failed (set aside, with a warning), or no entry whose URL still
    /// opens.
    @discardableResult
    public func restore(now: Date? = nil) throws -> Bool {
        try restore(now: now, launching: nil)
    }

    /// A launch's restore: a state of a newer app version, or one that stopped the launches
    /// before, is set aside; an older one is migrated first.
    func restore(now: Date?, launching: LaunchGuard?) throws -> Bool {
        guard let stateStore, config.persistence != .none else { return false }
        switch stateStore.load() {
        case .missing:
            return false
        case .unreadable(let reason, let keptAt):
            warn("the saved navigation state could not be read (\(reason)); "
                + (keptAt.map { "it was moved to \($0) and " } ?? "") + "the app starts fresh")
            return false
        case .loaded(let saved):
            try checkOwner(of: saved)
            stateOwnerChecked = true
            guard admitsVersion(of: saved), saved.isRestorable(expiration: config.expiration, now: now ?? clock()),
                  admits(saved, launching: launching), let current = migratedForLaunch(saved)
            else { return false }
            return try restore(from: current)
        }
    }

    /// Replaces the tree with `saved`: contexts made again as saved, only the visible controller
    /// made now. With `strict`, a visible controller whose constructor fails throws.
    @discardableResult
    /// The tabs follow `wf.app`'s list as it is now (kept tabs keep their stacks, new ones
    /// appear, removed ones go, with a warning).
    public func restore(from saved: NavigationState, strict: Bool = false) throws -> Bool {
        // Moved routes first, so a tab whose URL moved is still its tab (the navigator warns
        // about a URL that cannot move when it restores).
        let (saved, tabChange) = try saved.following(moves: navigator.moves).state.following(tabs: config.tabs)
        if let tabChange { warn(tabChange) }
        var objects = [ObjectIdentifier: Value]()
        return try navigator.restore(saved, appContext: appContext, strict: strict) { [unowned self] entry, context in
            // What `make` receives as the open's action: the context, by its Lua object, and
            // the list position to find again by model identifier.
            var action = OrderedDictionary<String, Value>()
            if let context { action["context"] = try luaObject(for: context, made: &objects) }
            if let model = entry.model {
                var position = OrderedDictionary<String, Value>()
                position["selected"] = model.selected
                position["anchor"] = model.anchor
                action["model"] = .map(position)
            }
            return action.isEmpty ? nil : .map(action)
        }
    }

    // MARK: Helpers

    /// The app context's Swift layer: what every chain ends in.
    var appContext: ContextChain? {
        hostHooks.flatMap { state.object(.handle($0.appCore), as: ContextChain.self) }
    }

    /// What `controller` says about itself. A `persist` hook that fails is reported, and the
    /// entry is saved by its URL alone.
    private func record(of controller: LuaController, at url: String) -> ControllerRecord {
        guard let hostHooks else { return ControllerRecord() }
        do throws(ScriptError) {
            let answer = try state.call(hostHooks.persist, [.handle(controller.handle)]).first ?? .null
            // false: not saved; else a record by name (`persist` in lua/wayfinder/navigator.lua).
            guard case .map(let fields) = answer else {
                if answer == .bool(false) { return ControllerRecord(persists: false) }
                throw ScriptError(kind: .runtime, message: "the navigator's persist answered \(answer), not a record or false")
            }
            func field(_ name: PersistRecordField) -> Value? {
                guard let value = fields[name.rawValue], !value.isNull else { return nil }
                return value
            }
            let model = NavigationState.ModelPosition(selected: field(.selected), anchor: field(.anchor))
            return ControllerRecord(state: field(.state), important: field(.important)?.isTruthy ?? false,
                                    context: field(.context).flatMap { state.object($0, as: ContextChain.self) },
                                    model: model.selected == nil && model.anchor == nil ? nil : model, title: controller.renderedTitle)
        } catch {
            warn("\(url): persist: \(error.message); saved without its state")
            return ControllerRecord(title: controller.renderedTitle)
        }
    }

    /// The Lua object of a restored layer (and of the layers it chains to), made once each.
    private func luaObject(for context: ContextChain, made: inout [ObjectIdentifier: Value]) throws -> Value {
        guard let hostHooks else { return .null }
        if context === appContext { return .handle(hostHooks.appContext) }
        if let object = made[ObjectIdentifier(context)] { return object }
        let inner = try context.inner.map { try luaObject(for: $0, made: &made) } ?? .null
        let fields: Value = context.fields.isEmpty ? .null
            : .map(.init(uniqueKeysWithValues: context.fields.sorted { $0.key < $1.key }.map { ($0.key, Value.string($0.value.rawValue)) }))
        let core = try state.newObject(context, metatable: try contextMetatable())
        let object = try state.callHoldingResult(hostHooks.wrapContext, [core, .int(Int64(context.id)), context.name.map(Value.string) ?? .null, inner, fields],
                                                 kind: "context").map(Value.handle) ?? .null
        made[ObjectIdentifier(context)] = object
        return object
    }

    /// Reports `message` the first time only: saving happens after every change.
    func warnOnce(_ message: String) {
        guard warned.insert(message).inserted else { return }
        warn(message)
    }
}

/// The fields of the record `persist` in lua/wayfinder/navigator.lua answers for a controller.
enum PersistRecordField: String, CaseIterable {
    case state, important, context, selected, anchor
}

/// Why the navigation state cannot be saved.
public enum PersistenceError: Error, CustomStringConvertible {
    case noStateStore
    /// The store holds the state of the app named `owner`, not of `app`.
    /// `owner` is nil when the document names no app.
    case anotherApp(owner: String?, app: String, path: String?)

    public var description: String {
        switch self {
        case .noStateStore: return "this app has no state store (wayfinder run and open keep the state in a file; --state FILE names it)"
        case .anotherApp(let owner, let app, let path):
            let whose = owner.map { "belongs to the app '\($0)', not '\(app)'" } ?? "names no app, so it may not be '\(app)''s"
            return "the navigation state \(path.map { "in \($0) " } ?? "")\(whose); it is left untouched (give another state file, or --no-state)"
        }
    }
}
