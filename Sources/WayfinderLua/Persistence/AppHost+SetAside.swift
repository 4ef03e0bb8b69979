import Wayfinder

extension AppHost {
    /// Keeps the saved state out of the way rather than restoring it (a crash loop's, a failed
    /// migration's, a newer app's), and says why and where it went; the app starts fresh. A store
    /// that cannot keep a state aside does not restore it, and its next save replaces it.
    func setStateAside(_ reason: SetAsideReason, because why: String) {
        var kept = "it is not restored, and the next save replaces it; "
        if let store = stateStore as? GuardedStateStore {
            do {
                kept = "it was moved to \(try store.setAside(reason)) and "
            } catch {
                kept = "it could not be moved aside (\(error.reason)), so the next save replaces it; "
            }
        }
        warn("the saved navigation state \(why); \(kept)the app starts fresh")
    }
}
