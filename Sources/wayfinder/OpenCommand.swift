import ArgumentParser
import Wayfinder
import WayfinderLua

/// `wayfinder open APP URL... [--state FILE]`: launches the app (restoring the state in FILE),
/// opens the URLs in order (saving the state after each), and prints the tree. Exit status 1
/// when any open failed (each reason on standard error), 2 when the app cannot be loaded or
/// launched.
struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open URLs in the app, in order, and print the navigation tree.",
        discussion: """
            The app launches first: from the navigation state saved in --state FILE when there \
            is one, else its wf.app tabs or root. A failed open changes nothing and the next URL \
            is still opened. With --state, the state is saved after every URL, so the file \
            always holds the last complete state. External URLs (tel:, mailto:) that the app does \
            not handle itself are reported on standard error as opened outside the app.

            Example:
              wayfinder open lua/examples/restaurant tt://menu/1 tt://food/pizza --json
            """
    )

    @Argument(help: "The app: a directory with app.lua, or a .lua file.")
    var app: String

    @Argument(help: "URLs to open, in order.")
    var urls: [String] = []

    @Flag(help: "Print the tree as one line of JSON, in nav:tree()'s shape.")
    var json = false

    @Option(help: "The navigation state file to restore from and save to (without it, nothing is restored or saved).")
    var state: String?

    @OptionGroup var host: HostOptions

    func run() throws {
        let appHost = try host.load(app)
        appHost.warn = { Terminal.warning($0) }
        appHost.openExternal = { Terminal.warning("opened outside the app: \($0)") }
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
            Terminal.error("cannot launch '\(app)': \(error)")
            throw ExitCode(2)
        }
        var failed = false
        for url in urls {
            if let reason = RawArguments.notUTF8[url] {
                failed = true
                Terminal.error("cannot open '\(url)': \(reason)")
                continue
            }
            do {
                try appHost.navigator.open(url)
            } catch {
                failed = true
                Terminal.error(Self.reason(error, url: url))
            }
            failed = !save(appHost) || failed
        }
        if urls.isEmpty { failed = !save(appHost) || failed }
        let tree = appHost.navigator.tree.snapshot
        if json {
            Terminal.print(try JSON.encode(tree))
        } else {
            for line in TreeText.lines(tree) { Terminal.print(line) }
        }
        if failed { throw ExitCode(1) }
    }

    /// Saves the state when there is a state file; false when that failed (reported).
    private func save(_ appHost: AppHost) -> Bool {
        guard state != nil else { return true }
        do {
            try appHost.persist()
            return true
        } catch {
            Terminal.error("\(error)")
            return false
        }
    }

    /// Why an open failed, naming the URL.
    static func reason(_ error: Error, url: String) -> String {
        OpenFailure.reason(error, url: url)
    }
}
