import Wayfinder

/// A bound on one crossing of Lua values into Swift below the memory limit, for
/// output that goes on from the host: a screen to a terminal or a page, a saved state to its file.
/// Counted as the reader counts: each string's bytes and 32 bytes for every value and key.
package struct CrossingCap: Sendable {
    /// The most bytes the crossing may copy.
    package var bytes: Int
    /// What the error says was passed.
    package var reached: String

    /// A cap of `bytes`; `reached` names, in the error, what was passed.
    package init(bytes: Int, reached: String) {
        self.bytes = bytes
        self.reached = reached
    }

    /// What one `render()` may hand over: the screen `wayfinder run` prints and `serve` sends.
    package static let screen = CrossingCap(bytes: 1 << 20, reached: "more than 1 MiB of text (a screen's cap)")

    /// What one `persist` may hand over: no more than a state file may hold.
    package static let savedState = CrossingCap(
        bytes: FileStateStore.maximumSize, reached: "more than \(FileStateStore.maximumSize >> 20) MiB (a state file's cap)")
}
