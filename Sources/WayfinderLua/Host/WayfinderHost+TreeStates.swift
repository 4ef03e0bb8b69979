import Foundation
import Wayfinder

/// The tree kept as a saved state and brought back later, as persistence keeps it between
/// launches but held by the program: devtools' time travel takes one after each change and
/// makes an earlier one the app's tree again.
extension WayfinderHost {
    /// The whole tree as a saved state (the document a state store writes), every entry kept
    /// whatever the app's persistence mode and its controllers' `persist` hooks answer, each
    /// controller's record as its hook gives it. What cannot be written is left out with a
    /// warning, as at a save. Hand it back to ``restore(from:)``.
    public func capturedState() -> NavigationState {
        exclusivelyOrStop("capture the state") { current.capturedState(everyEntry: true) }
    }

    /// Replaces the tree with `saved`, as a launch restores what its store kept
    /// (`Navigator.restore`): moved routes followed, the tabs made to follow `wf.app`'s list as
    /// it is now, only the visible controller made now (handed the state its record holds), the
    /// rest when they are about to be seen, an entry whose URL no longer opens dropped with a
    /// warning, and the saved waiting open waiting again. Observers hear
    /// `.replacedTree(.restore)`. False when nothing of `saved` could be restored (the tree is
    /// as it was, or empty when no entry could be made).
    @discardableResult
    public func restore(from saved: NavigationState) throws -> Bool {
        try restore(from: saved, strict: false)
    }
}
