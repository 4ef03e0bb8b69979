/// Why a saved state was put aside rather than restored; the word ends the name it is kept under
/// (`<file>.<word>-<UTC time>`).
public enum SetAsideReason: String, Sendable {
    /// Launches with it stopped before the first screen, `LaunchMark.limit` times in a row.
    case crashed
    /// The app's migration to its version failed.
    case unmigrated
    /// A newer version of the app saved it.
    case newer
    /// It held entries the app could not make again, and the app saved another tree.
    case unrestorable
}
