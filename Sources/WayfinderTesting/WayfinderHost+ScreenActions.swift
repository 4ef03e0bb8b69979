import Wayfinder
import WayfinderLua

/// Acting on the visible screen by what it shows, as a user does: tapping a link, a button or a
/// tab by its title, filling a field by its name or label, and asking whether a text is shown.
/// The spec driver (`app:tap`, `app:fill`, `app:see`) and `wayfinder crawl` act through these, so a
/// title means the same thing in both. Each act is one of the host's own (open, select, press,
/// set a field), under its thread rule and told to its observers as any other.
extension WayfinderHost {
    /// What a tap did.
    enum Tap: Equatable, Sendable {
        /// Opened the URL of the link with that title.
        case link(url: String)
        /// Pressed the button with that title.
        case button(RenderedScreen.Button)
        /// Selected the tab at that index (from 0).
        case tab(index: Int)
    }

    /// The controller of the screen the user sees; nil when nothing is open or it is not made yet.
    var visibleController: LuaController? {
        tree.visible.flatMap(controller(for:))
    }

    /// The titles of the tab bar when it is shown (the root is tabs and nothing covers it): each
    /// tab's title as `wf.app` gave it, else its first screen's URL.
    var visibleTabTitles: [String] {
        let tree = tree
        guard case .tabs(let tabs, _) = tree.root, tree.modals.isEmpty, tree.popover == nil else { return [] }
        return tabs.map { stack in tabTitle(of: stack) ?? stack.first?.url ?? "" }
    }

    /// What the visible screen's `render()` gives; nil when nothing is open or it has no render.
    func visibleScreen() throws(ScriptError) -> RenderedScreen? {
        guard let controller = visibleController else { return nil }
        return try render(controller)
    }

    /// Taps what the visible screen shows titled `title`: a button, else a link, else a tab.
    /// Throws naming the titles that are on the screen when none has it.
    @discardableResult
    func tap(_ title: String) throws -> Tap {
        let screen = try visibleScreen()
        if let controller = visibleController, screen?.buttons.contains(where: { $0.title == title }) == true {
            return .button(try press(title, on: controller))
        }
        if let link = screen?.links.first(where: { $0.title == title }) {
            try open(link.url)
            return .link(url: link.url)
        }
        let tabs = visibleTabTitles
        if let index = tabs.firstIndex(of: title) {
            try selectTab(at: index)
            return .tab(index: index)
        }
        let titles = (screen?.buttons.map(\.title) ?? []) + (screen?.links.map(\.title) ?? []) + tabs
        throw ScriptError(kind: .runtime, message: "nothing titled '\(title)' on the screen (titles: "
                          + (titles.isEmpty ? "none" : titles.map { "'\($0)'" }.joined(separator: ", ")) + ")")
    }

    /// Sets the visible screen's field named or labelled `name` (``setField(_:to:on:)``).
    @discardableResult
    func fill(_ name: String, with value: Value) throws(ScriptError) -> RenderedScreen.Field {
        guard let controller = visibleController else {
            throw ScriptError(kind: .runtime, message: "no screen is open, so no field '\(name)'")
        }
        return try setField(name, to: value, on: controller)
    }

    /// Every text the visible screen shows: its title, lines, the titles of its links, buttons
    /// and tabs, its fields' labels and values (a secret's masked).
    func visibleTexts() throws(ScriptError) -> [String] {
        var texts = [String]()
        if let screen = try visibleScreen() {
            texts += [screen.title].compactMap { $0 } + screen.lines + screen.links.map(\.title) + screen.buttons.map(\.title)
            for field in screen.fields { texts += [field.label, field.shownValue] }
        } else if let controller = visibleController {
            texts.append(describe(controller))
        }
        return texts + visibleTabTitles
    }
}
