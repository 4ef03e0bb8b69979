import Foundation
import Wayfinder
import WayfinderLua

/// The state of one `wayfinder run`: the app, the links on the screen, and what the last command
/// had to say. Every command's failure becomes a message on the next screen; nothing ends the
/// session but `q` or the end of input. The app is embedded through `WayfinderHost` alone, as any
/// Swift program embeds one.
final class RunSession {
    /// The running app; a hot reload swaps the app inside it.
    let host: WayfinderHost
    private(set) var messages: [String] = []
    private var links: [RenderedScreen.Link] = []
    private let view: ScreenView
    private let styled: Bool
    /// Why the last reload was refused: shown on every screen until a reload succeeds.
    private(set) var reloadFailure: String?

    static let help = "commands: a link's number, b (back), d (dismiss), t N (select tab N), o [VERB] URL (open), l URL (a link from outside), f N TEXT (fill field N), p N (press button N), root (pop to root), s (print the tree), r (reload), h (help), q (quit)"

    /// What `h` shows: every command and what it does.
    static let helpLines = [
        "commands:",
        "  N        follow link N of the screen",
        "  b        back: close the popover, else pop the visible stack",
        "  d        dismiss: close the popover, else the top modal",
        "  t N      select tab N",
        "  o URL    open any URL (tt://..., or an external one)",
        "  o VERB URL  open it with a presentation: " + Presentation.listedChoices,
        "  l URL    a link from outside the app: only routes marked external open",
        "  f N TEXT type TEXT into field N (a toggle: on or off; a choice: one of its choices)",
        "  p N      press button N",
        "  root     pop the visible stack to its first screen (and close the popover)",
        "  s        print the whole navigation tree",
        "  r        reload the app's scripts, keeping your place",
        "  h        this help",
        "  q        quit (the end of input quits too); the state is saved after every change",
        "on a terminal: Up/Down recall earlier commands, Left/Right/Home/End move in the line,",
        "  Backspace/Delete, Ctrl-U/Ctrl-K delete to the start/end, Ctrl-W the word before; Ctrl-D or Ctrl-C quits",
    ]

    init(host: WayfinderHost, styled: Bool) {
        self.host = host
        self.styled = styled
        self.view = ScreenView(host: host, styled: styled)
        host.warn = { [unowned self] in note("warning: " + $0) }
        host.openExternal = { [unowned self] in note("opened outside the app: " + $0) }
    }

    /// Makes the app again from its files and swaps it in, keeping the user's place; on failure
    /// the running app stays as it was and the reason stays on screen.
    func reload(because files: [String] = []) {
        do {
            let report = try host.reload()
            savedChangeCount = nil
            reloadFailure = nil
            let cause = files.isEmpty ? "" : " (" + files.joined(separator: ", ") + ")"
            note("reloaded\(cause): " + report.changes.summary)
            for warning in report.warnings { note("warning: " + warning) }
        } catch {
            reloadFailure = error.message
        }
    }

    /// At most this many lines wait for the next screen: a script printing in a loop cannot grow
    /// the queue without end.
    static let messageLimit = 1000

    /// Queues a line for the next screen (script output, warnings).
    func note(_ line: String) {
        if messages.count < Self.messageLimit {
            messages.append(line)
        } else if messages.count == Self.messageLimit {
            messages.append("(more lines left out)")
        }
    }

    func launch() {
        do {
            try host.launch()
        } catch let refused as PersistenceError {
            // Another app's state file: the session runs from the app's start and saves nothing,
            // so the file stays as it is.
            note("! \(StateFileAdvice.message(for: refused)); this session saves nothing")
            host.stateStore = nil
            do { try host.start() } catch { note("! cannot launch: \(error)") }
        } catch {
            // The saved state stays as it is: the next launch counts this one as a launch that
            // never got to a screen, and sets the state aside when it keeps happening.
            note("! cannot launch: \(error)" + (host.stateStore == nil ? "" : "; this session saves nothing"))
            host.stateStore = nil
        }
    }

    /// The navigator's change count at the last save.
    var savedChangeCount: Int?

    /// Saves the navigation state when the app has a state store and the tree changed since the
    /// last save; why it could not, if it could not.
    func save() -> String? {
        guard host.stateStore != nil, savedChangeCount != host.changeCount else { return nil }
        do {
            try host.persist()
            savedChangeCount = host.changeCount
            return nil
        } catch {
            return "! cannot save the navigation state: \(StateFileAdvice.message(for: error))"
        }
    }

    /// The screen, which clears the messages it shows.
    func screen() -> [String] {
        let (text, links) = view.render(messages: messages + (reloadFailure.map { ["! " + $0] } ?? []))
        self.links = links
        messages = []
        return text
    }

    enum Outcome { case `continue`, quit }

    func execute(_ input: String) -> Outcome {
        let line = input.trimmingCharacters(in: .whitespaces)
        let (command, argument) = split(line)
        switch command {
        case "":
            break
        case "q", "quit":
            return .quit
        case "b", "back":
            attempt("back") { try host.back() ? nil : nothingToGoBackTo() }
        case "d", "dismiss":
            attempt("dismiss") { try host.dismiss() ? nil : "nothing to dismiss" }
        case "t", "tab":
            guard let number = Int(argument), number >= 1 else {
                note("! t needs a tab number, as in 't 2'")
                break
            }
            attempt("tab") { try host.selectTab(at: number - 1) ? nil : "there is no tab \(number)" }
        case "o", "open":
            guard !argument.isEmpty else {
                note("! o needs a URL, as in 'o tt://menu/1' or 'o replace tt://menu/1'")
                break
            }
            let (first, rest) = split(argument)
            if !rest.isEmpty, let presentation = Presentation(rawValue: first) {
                open(rest, as: presentation)
            } else {
                open(argument)
            }
        case "l", "link":
            guard !argument.isEmpty else {
                note("! l needs a URL, as in 'l tt://menu/1'")
                break
            }
            handleLink(argument)
        case "root":
            attempt("pop to root") { try host.popToRoot() ? nil : "nothing to pop" }
        case "r", "reload":
            reload()
        case "s", "tree":
            messages += TreeText.lines(host.tree.value, tabTitles: host.config.tabTitles)
        case "h", "help", "?":
            messages += Self.helpLines
        case "f", "fill":
            fill(argument)
        case "p", "press":
            press(argument)
        default:
            if let number = Int(command), argument.isEmpty {
                guard links.indices.contains(number - 1) else {
                    note("! there is no link \(number) on this screen" + (links.isEmpty ? "" : " (1-\(links.count))"))
                    break
                }
                open(links[number - 1].url)
            } else {
                note("! unknown command '\(line)'; " + Self.help)
            }
        }
        return .continue
    }

    private func open(_ url: String, as presentation: Presentation? = nil) {
        do {
            try host.open(NavigationRequest(url: url, presentation: presentation))
        } catch {
            note("! " + OpenCommand.reason(error, url: url))
        }
    }

    /// A link from outside the app (`l URL`, and `--link` at launch).
    func handleLink(_ url: String) {
        do {
            try host.handleLink(url)
        } catch {
            note("! " + OpenCommand.reason(error, url: url))
        }
    }

    /// Why `b` did nothing; on a modal's only screen, back cannot close it but `d` can.
    private func nothingToGoBackTo() -> String {
        let tree = host.tree
        guard tree.popover == nil, let modal = tree.modals.last, modal.count <= 1 else { return "nothing to go back to" }
        return "nothing to go back to in this modal: d dismisses it"
    }

    /// Runs a navigation whose answer is nil when it did something, else why it did nothing.
    private func attempt(_ what: String, _ body: () throws -> String?) {
        do {
            if let nothing = try body() { note("! " + nothing) }
        } catch {
            note("! \(what): \(error)")
        }
    }

    private func split(_ line: String) -> (String, String) {
        guard let space = line.firstIndex(of: " ") else { return (line.lowercased(), "") }
        return (line[..<space].lowercased(), line[space...].trimmingCharacters(in: .whitespaces))
    }
}
