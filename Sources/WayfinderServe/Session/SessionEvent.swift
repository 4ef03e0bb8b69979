import Foundation
import OrderedCollections
import Wayfinder

/// One line of the devtools' event log: what was asked (an open, back, dismiss, a tab
/// selected, a reload, a restore), or what the app said on its own (a URL it handed outside,
/// what a script printed, a warning, a screen whose render failed); how it went, with the URL,
/// the route that matched and its params, the time it took, the changes to the tree the host
/// reported for it (its navigation events, in order), and for a failure the reason and the Lua
/// traceback.
struct SessionEvent {
    enum Kind: String {
        case launch, open, back, dismiss, select, reload, restore
        /// A field typed into (a secret's value masked) and a button pressed.
        case fill, press
        /// A screen's `render()` raised or ran out of time (reported once per entry).
        case render
        /// A URL the app handed outside (`tel:`, `mailto:`): "opened outside".
        case external
        /// What a script printed.
        case print
        case warning
        /// A link from outside the app, through the host's door for them (`handleLink`).
        case link
        /// A state file imported (restored as a launch restores one).
        case `import`
    }

    enum Outcome: String {
        /// The host reported changes to the navigation tree.
        case changed
        /// It worked and the host reported no change (back at the bottom of a stack, an action
        /// that did nothing, a message).
        case unchanged
        case failed
        /// A guard stopped the open and keeps it waiting (pending) until it lets it through.
        case waiting
    }

    let id: Int
    let kind: Kind
    var outcome: Outcome
    /// When it happened.
    let at: Date
    /// How long the navigator (or the reload) took.
    var duration: Duration?
    var url: String?
    /// The route the URL matched: pattern, mode, params, query.
    var route: Value?
    /// What it did, or why it failed.
    var message: String?
    var traceback: String?
    /// The visible URL after it.
    var visible: String?
    /// The navigation events the host reported for it, as the log shows them (`HeardChange`).
    var changes: [Value] = []

    var json: Value {
        var fields = OrderedDictionary<String, Value>()
        fields["id"] = .int(Int64(id))
        fields["kind"] = .string(kind.rawValue)
        fields["outcome"] = .string(outcome.rawValue)
        fields["at"] = .string(Self.clockTime(at))
        fields["ms"] = duration.map { .double((Self.milliseconds($0) * 10).rounded() / 10) } ?? .null
        fields["url"] = url.map(Value.string) ?? .null
        fields["route"] = route ?? .null
        fields["message"] = message.map(Value.string) ?? .null
        fields["traceback"] = traceback.map(Value.string) ?? .null
        fields["visible"] = visible.map(Value.string) ?? .null
        fields["changes"] = .array(changes)
        return .map(fields)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    /// The local time of day, to the millisecond.
    static func clockTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss.SSS"
        return formatter.string(from: date)
    }

    /// A time of day as `clockTime` writes it, back as a date (of any day: only the time shows);
    /// nil for anything else.
    static func clockDate(_ text: String) -> Date? {
        guard text.utf8.count == 12 else { return nil }
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss.SSS"
        formatter.isLenient = false
        return formatter.date(from: text)
    }
}
