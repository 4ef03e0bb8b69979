import Wayfinder
import WayfinderLua

/// What each entry's `render()` gave, remembered by entry until that entry leaves the tree, has
/// its controller made again, or the app is replaced (a reload, a restore): the page is built
/// after every change, and a render that raises or runs out its time budget must not be run
/// again at every push, each costing up to the budget, nor be reported each time.
///
/// - The screen on top of a layer is rendered again at every build, since what it shows may have
///   changed with the app's state, unless its last render failed: that failure stands.
/// - An entry under others is named by its last render's title; it is rendered only when it
///   never was (made on the way to another screen, restored), once.
///
/// A failure is handed to the session once, when it first happens (``takeFailures()``).
final class RenderMemory {
    enum Outcome {
        case screen(RenderedScreen)
        /// The controller has no `render` method.
        case noRenderMethod
        case failed(ScriptError)
    }

    private struct Known {
        /// The controller the outcome is of: an entry whose controller was made again is
        /// rendered again.
        let controller: ObjectIdentifier
        let outcome: Outcome
    }

    private var known: [Int: Known] = [:]
    private var failures: [(url: String, error: ScriptError)] = []

    /// What `controller`, on top of its layer, shows: see the type's comment.
    func top(_ entry: NavigationSnapshot.Entry, _ controller: LuaController, in host: WayfinderHost) -> Outcome {
        if let remembered = remembered(entry, controller), case .failed = remembered { return remembered }
        return render(entry, controller, in: host)
    }

    /// What names `controller` under other screens: its last render, or a first one.
    func under(_ entry: NavigationSnapshot.Entry, _ controller: LuaController, in host: WayfinderHost) -> Outcome {
        remembered(entry, controller) ?? render(entry, controller, in: host)
    }

    /// The app's changes: an entry made again is forgotten, and everything when the whole tree
    /// was replaced.
    func heard(_ events: [NavigationEvent]) {
        for event in events {
            switch event.change {
            case .loaded(let entry, _): known[entry.id] = nil
            case .replacedTree: known = [:]
            default: break
            }
        }
    }

    /// Forgets the entries that are not in `tree` any more.
    func keep(only tree: NavigationSnapshot) {
        guard !known.isEmpty else { return }
        var ids = Set<Int>()
        switch tree.root {
        case .stack(let entries): ids.formUnion(entries.map(\.id))
        case .tabs(let tabs, _): for tab in tabs { ids.formUnion(tab.map(\.id)) }
        }
        for modal in tree.modals { ids.formUnion(modal.map(\.id)) }
        if let popover = tree.popover { ids.insert(popover.id) }
        known = known.filter { ids.contains($0.key) }
    }

    /// Forgets everything (another app is running).
    func forgetAll() {
        known = [:]
    }

    /// The renders that failed since the last call, each once: the URL and the error.
    func takeFailures() -> [(url: String, error: ScriptError)] {
        defer { failures = [] }
        return failures
    }

    private func remembered(_ entry: NavigationSnapshot.Entry, _ controller: LuaController) -> Outcome? {
        guard let found = known[entry.id], found.controller == ObjectIdentifier(controller) else { return nil }
        return found.outcome
    }

    private func render(_ entry: NavigationSnapshot.Entry, _ controller: LuaController, in host: WayfinderHost) -> Outcome {
        let outcome: Outcome
        do {
            outcome = try host.render(controller).map(Outcome.screen) ?? .noRenderMethod
        } catch {
            outcome = .failed(error)
            failures.append((entry.url, error))
        }
        known[entry.id] = Known(controller: ObjectIdentifier(controller), outcome: outcome)
        return outcome
    }
}
