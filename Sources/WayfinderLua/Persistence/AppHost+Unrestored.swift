import Wayfinder

/// Saved entries the app could not make again (docs/persistence.md, "Entries that cannot be
/// restored"): no save replaces them unseen. A launch that can make no screen at all fails (the
/// launch guard counts it); one that shows some leaves the state file as it is until the tree
/// changes, and the first save after that keeps the file aside first, naming where.
struct UnrestoredEntries {
    /// The navigator's dropped saved entries already answered for.
    var seen = 0
    /// Whether the file holds entries that were dropped and not kept aside yet.
    var waiting = false
    /// The tree's change count when the launch that dropped them ended: until it moves, a save
    /// would only write less than the file holds, and is skipped.
    var unchangedAt: Int?
}

extension AppHost {
    /// At the end of a launch's restore and start: dropped saved entries make a launch that shows
    /// nothing fail, and otherwise keep the file from the next saves (`keepsStateFile`).
    func keepUnrestored(droppedSince before: Int) throws {
        let dropped = navigator.droppedSavedEntries - before
        guard dropped > 0 else { return }
        unrestored.seen = navigator.droppedSavedEntries
        guard navigator.tree.visible != nil else {
            throw PersistenceError.nothingRestored(dropped: dropped, path: (stateStore as? FileStateStore)?.path)
        }
        unrestored.waiting = true
        unrestored.unchangedAt = navigator.changeCount
        let file = (stateStore as? FileStateStore).map { " (\($0.path))" } ?? ""
        warn("\(dropped == 1 ? "an entry" : "\(dropped) entries") of the saved navigation state could not be restored; "
            + "the saved state\(file) stays as it is until the app navigates, and is then kept aside before it is saved over")
    }

    /// Whether a save now must be skipped: the file holds dropped entries and nothing moved since
    /// the launch. When something moved, the file is kept aside first (a store that cannot keep
    /// it says its next save replaces it).
    func keepsStateFile() -> Bool {
        if navigator.droppedSavedEntries > unrestored.seen {
            unrestored.seen = navigator.droppedSavedEntries
            unrestored.waiting = true
        }
        guard unrestored.waiting else { return false }
        if unrestored.unchangedAt == navigator.changeCount { return true }
        unrestored.waiting = false
        unrestored.unchangedAt = nil
        guard let store = stateStore as? GuardedStateStore else {
            warn("the saved navigation state held entries that could not be restored; this save replaces them")
            return false
        }
        do {
            let kept = try store.setAside(.unrestorable)
            warn("the saved navigation state held entries that could not be restored; it was kept at \(kept) before this save")
        } catch {
            warn("the saved navigation state held entries that could not be restored and could not be kept aside (\(error.reason)); this save replaces them")
        }
        return false
    }
}
