import ArgumentParser
import Wayfinder
import WayfinderLua
import WayfinderUpdates

extension Presentation: ExpressibleByArgument {}

/// `wayfinder open APP URL... [--link URL] [--presentation VERB] [--state FILE]`: launches the
/// app (restoring the state in FILE), opens the URLs in order, then the link from outside
/// (saving the state after each), and prints the tree. Exit status 1 when any open failed (each
/// reason on standard error), 2 when the app cannot be loaded or launched.
struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open URLs in the app, in order, and print the navigation tree.",
        discussion: """
            The app launches first: from the navigation state saved in --state FILE when there \
            is one, else its wf.app tabs or root. A failed open changes nothing and the next URL \
            is still opened. With --state, the state is saved after every URL, so the file \
            always holds the last complete state. External URLs (tel:, mailto:) that the app does \
            not handle itself are noted on standard error ("note: opened outside the app: URL"). --link \
            opens a link from outside the app after the URLs: only a route marked external opens \
            (the app's tree as it is, restored included, stays beneath it). A URL a guard keeps \
            waiting is reported on standard error and saved with the state; it opens by itself \
            once the guard lets it through.

            Example:
              wayfinder open lua/examples/restaurant tt://menu/1 tt://food/pizza --json
              wayfinder open lua/examples/restaurant --link tt://about/story --state mels.json
            """
    )

    @Argument(help: "The app: a directory with app.lua, or a .lua file.")
    var app: String

    @Argument(help: "URLs to open, in order.")
    var urls: [String] = []

    @Option(help: "A link from outside the app, opened after the URLs: only routes marked external open.")
    var link: String?

    @Option(help: "How each URL given opens (the link opens as its route says).")
    var presentation: Presentation?

    @Flag(help: "Print the tree as one line of JSON, in nav:tree()'s shape.")
    var json = false

    @Option(help: "The navigation state file to restore from and save to (without it, nothing is restored or saved).")
    var state: String?

    @OptionGroup var host: HostOptions

    @OptionGroup var updates: UpdateOptions

    func run() throws {
        let bundles = try updates.bundleUpdates()
        let appHost = try host.load(app, updates: bundles)
        appHost.warn = { Terminal.warning($0) }
        // Handing a URL to the system is what the app asked for, not a problem: a note.
        appHost.openExternal = { Terminal.note("note: opened outside the app: \($0)") }
        if let state {
            let store = FileStateStore(path: state)
            if let problem = store.problemAsGiven {
                Terminal.error("cannot use the state file \(problem)")
                throw ExitCode(2)
            }
            appHost.stateStore = store
        }
        do {
            try appHost.launch()
        } catch {
            Terminal.error("cannot launch '\(app)': \(StateFileAdvice.message(for: error))")
            throw ExitCode(2)
        }
        var failed = false
        let opens = urls.map { url in (url, { try appHost.open(NavigationRequest(url: url, presentation: presentation)) }) }
            + (link.map { url in [(url, { try appHost.handleLink(url) })] } ?? [])
        for (url, open) in opens {
            if let reason = RawArguments.notUTF8[url] {
                failed = true
                Terminal.error("cannot open '\(url)': \(reason)")
                continue
            }
            do {
                _ = try open()
            } catch {
                failed = true
                Terminal.error(Self.reason(error, url: url))
            }
            failed = !save(appHost) || failed
        }
        if opens.isEmpty { failed = !save(appHost) || failed }
        if let pending = appHost.pendingOpen {
            Terminal.note(PendingText.line(pending))
        }
        let tree = appHost.tree.value
        if json {
            Terminal.print(try JSON.encode(tree))
        } else {
            for line in TreeText.lines(tree, tabTitles: appHost.config.tabTitles) { Terminal.print(line) }
        }
        if failed { throw ExitCode(1) }
    }

    /// Saves the state when there is a state file; false when that failed (reported).
    private func save(_ appHost: WayfinderHost) -> Bool {
        guard state != nil else { return true }
        do {
            try appHost.persist()
            return true
        } catch {
            Terminal.error(StateFileAdvice.message(for: error))
            return false
        }
    }

    /// Why an open failed, naming the URL.
    static func reason(_ error: Error, url: String) -> String {
        OpenFailure.reason(error, url: url)
    }
}
