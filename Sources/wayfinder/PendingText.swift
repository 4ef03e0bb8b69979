import Wayfinder
import WayfinderLua

/// How `open` and `run` say that an open waits for its guard: the URL (escaped, as any text
/// that reaches the terminal), and whether it came from outside the app.
enum PendingText {
    static func line(_ pending: PendingOpen) -> String {
        let origin = pending.request.fromOutside ? " (a link from outside)" : ""
        return "pending: \(VisibleText.escaped(pending.request.url))\(origin) opens once its guard lets it through"
    }
}
