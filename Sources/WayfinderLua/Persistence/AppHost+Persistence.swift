import Foundation
import Wayfinder

/// Persistence for a Lua app (docs/persistence.md): the navigator's tree saved through the
/// state store, each controller asked what to keep (LuaControllerRecord.swift), and restored
/// lazily, each restored controller handed its saved state (`restore(state)`) before it appears.
extension AppHost {
    /// The name the state file is called by: `wf.app`'s name, else the app's (its directory's or
    /// file's, see ``AppSource/name``).
    package var stateName: String {
        config.name ?? source.name
    }

    /// The tree as a document, in the app's persistence mode. What cannot be written is left out
    /// with a warning (once per value, not at every save).
    /// `everyEntry` keeps the whole tree whatever the mode and whatever `persist` answered (a hot
    /// reload keeps the user's place).
    package func capturedState(savedAt: Date? = nil, everyEntry: Bool = false) -> NavigationState {
        let (saved, leftOut) = navigator.captured(mode: everyEntry ? .all : config.persistence, app: stateName, savedAt: savedAt ?? clock(),
                                                       appContext: appContext) { [unowned self] entry, controller in
            let described = bridge.record(of: controller, at: entry.url)
            return everyEntry && !described.persists ? ControllerRecord() : described
        }
        for item in leftOut { warnOnce("not saved: \(item) cannot be written to disk") }
        var versioned = saved
        versioned.appVersion = config.version
        return versioned
    }

    /// Writes the navigation state (persistence `none` removes a saved one). Fails when the app
    /// has no state store or the store cannot write.
    package func persist() throws {
        guard let stateStore else { throw PersistenceError.noStateStore }
        guard !restoringState else { throw PersistenceError.restoring("saved") }
        try claimState()
        if !stateOwnerChecked, case .loaded(let saved) = stateStore.load() { try checkOwner(of: saved) }
        stateOwnerChecked = true
        if config.persistence == .none {
            try stateStore.remove()
        } else if !keepsStateFile() {
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
    package func restore(now: Date? = nil) throws -> Bool {
        try restore(now: now, launching: nil)
    }

    /// A launch's restore: a state of a newer app version, or one that stopped the launches
    /// before, is set aside; an older one is migrated first.
    func restore(now: Date?, launching: LaunchGuard?) throws -> Bool {
        guard let stateStore, config.persistence != .none else { return false }
        guard !restoringState else { throw PersistenceError.restoring("restored") }
        try claimState()
        restoringState = true
        defer { restoringState = false }
        let found = stateStore.load()
        // What this load learned of the owner is kept: the first save does not read the file again.
        if case .loaded(let saved) = found { try checkOwner(of: saved) }
        stateOwnerChecked = true
        switch found {
        case .missing:
            return false
        case .unreadable(let reason, let keptAt):
            warn("the saved navigation state could not be read (\(reason)); "
                + (keptAt.map { "it was moved to \($0) and " } ?? "") + "the app starts fresh")
            return false
        case .loaded(let saved):
            guard admitsVersion(of: saved), saved.isRestorable(expiration: config.expiration, now: now ?? clock()),
                  admits(saved, launching: launching), let current = migratedForLaunch(saved)
            else { return false }
            return try restore(from: current)
        }
    }

    /// Replaces the tree with `saved`: contexts made again as saved, only the visible controller
    /// made now. With `strict`, a visible controller whose constructor fails throws.
    /// The tabs follow `wf.app`'s list as it is now (kept tabs keep their stacks, new ones
    /// appear, removed ones go, with a warning).
    @discardableResult
    package func restore(from saved: NavigationState, strict: Bool = false) throws -> Bool {
        var objects = [ObjectIdentifier: Value]()
        // The navigator follows the moved routes first, so a tab whose URL moved is still its tab.
        return try navigator.restore(saved, appContext: appContext, strict: strict, payload: { [unowned self] entry, context in
            try bridge.restoredAction(for: entry, context: context, made: &objects)
        }, adjusting: { [unowned self] moved in
            let (state, tabChange) = moved.following(tabs: config.tabs)
            if let tabChange { warn(tabChange) }
            return state
        })
    }

    /// Makes this process the owner of the store's state (StateClaim), once per store.
    func claimState() throws {
        guard stateClaim == nil, let store = stateStore as? GuardedStateStore else { return }
        do { stateClaim = try store.claim() } catch { throw PersistenceError.unclaimed(error) }
    }

    /// The app context's Swift layer: what every chain ends in.
    var appContext: ContextChain? { bridge.appContext }

    /// Reports `message` the first time only: saving happens after every change.
    func warnOnce(_ message: String) {
        guard warned.first(message) else { return }
        warn(message)
    }
}

/// Why the navigation state cannot be saved.
public enum PersistenceError: Error, CustomStringConvertible {
    /// The host was made without a state store.
    case noStateStore
    /// The store holds the state of the app named `owner`, not of `app`.
    /// `owner` is nil when the document names no app.
    case anotherApp(owner: String?, app: String, path: String?)
    /// Asked (by a migration, a restored screen's constructor) while the saved state is being
    /// restored; the verb says what was asked.
    case restoring(String)
    /// Another process owns the state, or its lock cannot be used.
    case unclaimed(StateStoreError)
    /// A launch dropped every entry of the saved state (`dropped` of them) and shows nothing.
    case nothingRestored(dropped: Int, path: String?)

    /// What went wrong, naming the state file where there is one.
    public var description: String {
        switch self {
        case .noStateStore: return "this app has no state store"
        case .anotherApp(let owner, let app, let path):
            let whose = owner.map { "belongs to the app '\($0)', not '\(app)'" } ?? "names no app, so it may not be '\(app)''s"
            return "the navigation state \(path.map { "in \($0) " } ?? "")\(whose); it is left untouched"
        case .unclaimed(let error):
            return "cannot use the navigation state in \(error.path): \(error.reason)"
        case .nothingRestored(let dropped, let path):
            return "no screen of the saved navigation state could be made again (\(dropped == 1 ? "its entry was" : "all \(dropped) entries were") dropped); "
                + "the saved state\(path.map { " in \($0)" } ?? "") is left as it is"
        case .restoring(let verb):
            return "the navigation state cannot be \(verb) while the saved one is being restored (by its migration or its screens' constructors)"
        }
    }
}
