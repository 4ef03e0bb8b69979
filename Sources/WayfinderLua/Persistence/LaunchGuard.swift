import Wayfinder

/// The guard of one launch against a saved state that stops every launch (docs/persistence.md,
/// "A state that stops every launch"). Before anything of a saved state runs (its migration, its
/// contexts, its visible constructor), the launch is marked in the store, in a mark that outlives
/// the process; once the app has shown its first screen the mark goes. A mark found at launch
/// therefore counts launches that never got there: the process ended (killed, crashed) or the
/// launch failed. After `LaunchMark.limit` of them in a row, the next launch sets the state aside
/// and starts fresh.
final class LaunchGuard {
    private let store: GuardedStateStore
    private let warn: (String) -> Void
    /// The mark found when this launch began: the launches before it that never got to a screen.
    let found: LaunchMark?
    /// The mark this launch wrote when it began restoring a state.
    private var written: LaunchMark?

    /// Nil when the store keeps no marks, or the mark's path holds something that is not a mark
    /// (left as it is, with a warning): the launch then runs unguarded.
    init?(store: StateStore?, warn: @escaping (String) -> Void) {
        guard let store = store as? GuardedStateStore else { return nil }
        do {
            let mark = try store.launchMark()
            // Another process's launch that still runs has not failed (a program on the same
            // file that does not claim it): its mark counts nothing.
            found = mark?.isAnotherRunningLaunch == true ? nil : mark
        } catch {
            warn("launches are not guarded against a saved state that stops them: \(error.path): \(error.reason)")
            return nil
        }
        self.store = store
        self.warn = warn
    }

    /// Whether the launch may restore `saved`: false after `LaunchMark.limit` launches in a row
    /// that never got to a screen (the caller sets it aside). Otherwise the launch is marked.
    func admits(_ saved: NavigationState) -> Bool {
        let before = found?.launches ?? 0
        guard before < LaunchMark.limit else { return false }
        let mark = LaunchMark(launches: before + 1, url: saved.visibleURL, owner: .current)
        do {
            try store.writeLaunchMark(mark)
            written = mark
        } catch {
            warn("this launch is not guarded against a saved state that stops it: \(error.path): \(error.reason)")
        }
        return true
    }

    /// The launch showed its first screen: the mark goes.
    func reached() {
        guard written != nil || found != nil else { return }
        do { try store.removeLaunchMark() } catch { warn("the mark of this launch could not be removed: \(error.path): \(error.reason)") }
        written = nil
    }

    /// The launch failed before its first screen: the mark stays, with the reason, and counts.
    func failed(_ error: Error) {
        guard var mark = written else { return }
        mark.error = "\(error)"
        try? store.writeLaunchMark(mark)
        let next = mark.launches < LaunchMark.limit
            ? "the next launch restores it again; after \(LaunchMark.limit) such launches in a row, the one after sets it aside"
            : "the next launch sets it aside and starts fresh"
        warn("this launch did not get to its first screen with the saved navigation state (\(mark.launches) in a row); \(next)")
    }
}

extension AppHost {
    /// Runs a launch (`body`: restore, else start) under the guard, when the app has a store
    /// that keeps marks and saves its state.
    func guardingLaunch(_ body: (LaunchGuard?) throws -> Void) throws {
        try claimState()
        let launching = config.persistence == .none ? nil : LaunchGuard(store: stateStore, warn: warn)
        do {
            try body(launching)
        } catch {
            launching?.failed(error)
            throw error
        }
        launching?.reached()
    }

    /// Whether this launch may restore `saved`. After `LaunchMark.limit` launches in a row that
    /// never got to a screen, the state is set aside with a warning naming the entry they were
    /// restoring and why the last one failed, and the app starts fresh.
    func admits(_ saved: NavigationState, launching: LaunchGuard?) -> Bool {
        guard let launching, !launching.admits(saved) else { return true }
        let found = launching.found.map { "stopped the last \($0.launches) launches before they showed a screen (\($0.failure))" } ?? "stopped launches"
        setStateAside(.crashed, because: found)
        launching.reached()
        return false
    }
}

extension NavigationState {
    /// The URL of the entry a restore makes first: the popover's, else the top modal's top, else
    /// the top of the selected tab or of the stack.
    var visibleURL: String? {
        if let popover { return popover.url }
        if let modal = modals.last(where: { !$0.isEmpty }) { return modal.last?.url }
        switch root {
        case .stack(let entries): return entries.last?.url
        case .tabs(let tabs, let selected): return tabs.indices.contains(selected) ? tabs[selected].last?.url : nil
        }
    }
}
