import Wayfinder
import WayfinderLua

/// One screen of `wayfinder run` as text: where you are (tabs, the stack as a breadcrumb, the
/// modals and the popover), the visible controller's title, lines and numbered links, and the
/// messages of the last command. Styling (bold, dim) only when writing to a terminal; the text
/// scripts give (titles, lines, links, what they print) shows control characters escaped.
struct ScreenView {
    let host: WayfinderHost
    let styled: Bool
    /// One screen asks each controller once: the visible one appears in the breadcrumb too.
    private let renderings = Renderings()

    private final class Renderings {
        var results: [ObjectIdentifier: Result<RenderedScreen?, ScriptError>] = [:]
    }

    /// The screen and the links its numbers open.
    func render(messages: [String]) -> (text: [String], links: [RenderedScreen.Link]) {
        renderings.results = [:]
        defer { renderings.results = [:] }
        var text = [bold("== \(host.config.name ?? appName) ==")]
        let tree = host.tree
        switch tree.root {
        case .tabs(let tabs, let selected):
            let labels = tabs.enumerated().map { i, tab in
                let label = "\(TabNumber.number(of: i)) " + VisibleText.escaped(host.tabTitle(of: tab) ?? title(of: tab.first))
                return i == selected ? "[" + label + "]" : label
            }
            text.append("Tabs:    " + labels.joined(separator: "  "))
            text.append("Stack:   " + breadcrumb(tabs[selected]))
        case .stack(let stack):
            text.append("Stack:   " + breadcrumb(stack))
        }
        for (i, modal) in tree.modals.enumerated() {
            text.append("Modal \(i + 1): " + breadcrumb(modal))
        }
        if let popover = tree.popover {
            text.append("Popover: " + VisibleText.escaped(title(of: popover)))
        }
        text.append(String(repeating: "-", count: 60))

        var links: [RenderedScreen.Link] = []
        var problems: [String] = []
        if let visible = tree.visible {
            let screen = screen(of: visible, problems: &problems)
            text.append(bold(VisibleText.escaped(screen.title ?? visible.url)))
            text.append(dim(VisibleText.escaped(visible.url)))
            if !screen.lines.isEmpty {
                text.append("")
                text += screen.lines.map { "  " + VisibleText.escaped($0) }
            }
            links = screen.links
            if !links.isEmpty {
                text.append("")
                let titles = links.map { VisibleText.escaped($0.title) }
                let width = titles.map(\.count).max() ?? 0
                for (i, link) in links.enumerated() {
                    let number = "[\(i + 1)]".padding(toLength: links.count >= 10 ? 5 : 4, withPad: " ", startingAt: 0)
                    text.append("  \(number) " + titles[i].padding(toLength: width, withPad: " ", startingAt: 0) + "  " + dim(VisibleText.escaped(link.url)))
                }
            }
            text += formLines(screen)
        } else {
            text.append("(nothing is open: 'o URL' opens a screen)")
        }
        text.append(String(repeating: "-", count: 60))
        if let pending = host.pendingOpen { text.append(dim(PendingText.line(pending))) }
        // What scripts print and the reasons they give, a line each, never a terminal escape sequence.
        text += (messages + problems).flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false).map { VisibleText.escaped(String($0)) } }
        text.append(dim("number: open link | f N TEXT: fill | p N: press | b back | d dismiss | t N: tab | o URL: open | l URL: link | s: tree | r: reload | h: help | q: quit"))
        return (text, links)
    }

    private var appName: String {
        host.source.name
    }

    /// What an entry shows: its render() result; a render error becomes a problem line.
    private func screen(of entry: NavigationSnapshot.Entry, problems: inout [String]) -> RenderedScreen {
        guard let controller = host.controller(for: entry) else {
            return RenderedScreen(title: nil, lines: ["(this screen could not be made; see the warnings)"])
        }
        do {
            return try rendered(controller).get() ?? RenderedScreen(title: host.describe(controller), lines: ["(no render method)"])
        } catch {
            problems.append("! " + error.message)
            return RenderedScreen(title: host.describe(controller), lines: ["(render failed)"])
        }
    }

    private func breadcrumb(_ stack: [NavigationSnapshot.Entry]) -> String {
        stack.isEmpty ? "(empty)" : stack.map { VisibleText.escaped(title(of: $0)) }.joined(separator: " > ")
    }

    /// An entry's title when it is made and renders one; a restored entry not made yet has the
    /// title it had when saved; else its URL.
    private func title(of entry: NavigationSnapshot.Entry?) -> String {
        guard let entry else { return "(empty)" }
        guard let controller = host.controller(for: entry) else { return host.savedTitle(of: entry) ?? entry.url }
        return (try? rendered(controller).get())??.title ?? entry.url
    }

    private func rendered(_ controller: LuaController) -> Result<RenderedScreen?, ScriptError> {
        let key = ObjectIdentifier(controller)
        if let known = renderings.results[key] { return known }
        let result = Result { () throws(ScriptError) in try host.render(controller) }
        renderings.results[key] = result
        return result
    }

    private func bold(_ text: String) -> String { styled ? "\u{1B}[1m" + text + "\u{1B}[0m" : text }
    func dim(_ text: String) -> String { styled ? "\u{1B}[2m" + text + "\u{1B}[0m" : text }
}
