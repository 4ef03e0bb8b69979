import ArgumentParser
import Foundation
import Wayfinder
import WayfinderLua
import WayfinderUpdates

/// `wayfinder run APP`: the app in the terminal. Shows the visible screen and reads commands;
/// when standard input is not a terminal it reads them line by line, echoing each after the
/// screen it acted on, so a session can be scripted and its transcript read back. The navigation
/// state is restored at launch and saved after every command that changed it, in
/// `$XDG_STATE_HOME/wayfinder/<app>.json` unless `--state FILE` names another file or
/// `--no-state` turns it off. With `--watch`, saving a script of the app hot-reloads it.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the app in the terminal: see the visible screen, follow links, go back.",
        discussion: RunSession.help + "\n\nExample:\n  wayfinder run lua/examples/restaurant --watch"
    )

    @Argument(help: "The app: a directory with app.lua, or a .lua file.")
    var app: String

    @Option(help: "The navigation state file (default: $XDG_STATE_HOME/wayfinder/<app name>.json).")
    var state: String?

    @Flag(name: .customLong("no-state"), help: "Start fresh and save nothing.")
    var noState = false

    @Option(help: "A link from outside the app, opened once the app has launched (on its restored tree): only routes marked external open.")
    var link: String?

    @Flag(help: "Reload the app's scripts when they change on disk (hot reload), keeping your place.")
    var watch = false

    @Flag(help: "With --watch: look for changes by polling modification times instead of inotify.")
    var poll = false

    @OptionGroup var host: HostOptions

    @OptionGroup var updates: UpdateOptions

    func validate() throws {
        if state != nil && noState { throw ValidationError("give --state FILE or --no-state, not both") }
        if poll && !watch { throw ValidationError("--poll chooses how --watch looks for changes; give --watch too") }
    }

    func run() throws {
        let interactive = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        var printed: [String] = []
        let watcher = watch ? appWatcher() : nil
        let input = CommandInput(watcher: watcher, editing: interactive)
        defer { input.close() }
        let embedded: WayfinderHost
        if let watcher {
            embedded = try loadWatching(watcher, input, printSink: { printed.append($0) })
        } else {
            do {
                embedded = try embed(printSink: { printed.append($0) })
            } catch {
                Terminal.error("cannot load app '\(app)': \(error)")
                throw ExitCode(2)
            }
        }
        if !noState {
            let store = FileStateStore(path: state ?? FileStateStore.defaultPath(app: embedded.stateName))
            if let problem = state == nil ? store.problem : store.problemAsGiven {
                Terminal.error("cannot use the state file \(problem)")
                throw ExitCode(2)
            }
            embedded.stateStore = store
        }
        let session = RunSession(host: embedded, styled: interactive)
        input.shown = { [unowned session] in session.echoed($0) }
        embedded.printSink = { [unowned session] in session.note($0) }
        for line in printed { session.note(line) }
        session.launch()
        if let link {
            if let reason = RawArguments.notUTF8[link] { session.note("! cannot open '\(link)': \(reason)") } else { session.handleLink(link) }
        }
        if let watcher { session.note("watching \(watcher.directory) for changes (\(watcher.mechanism.rawValue))") }
        loop: while true {
            let screen = session.screen()
            if interactive {
                Terminal.write("\u{1B}[H\u{1B}[2J" + screen.joined(separator: "\n") + "\n> ")
            } else {
                Terminal.write(screen.joined(separator: "\n") + "\n")
            }
            switch input.next() {
            case .end:
                break loop
            case .filesChanged(let files):
                if !interactive { Terminal.write("~ changed: \(files.joined(separator: ", "))\n\n") }
                session.reload(because: files)
            case .line(let line):
                if !interactive { Terminal.write("> \(session.echoed(line))\n\n") }
                if session.execute(line) == .quit { break loop }
            }
            if let failure = session.save() { session.note(failure) }
        }
        if let failure = session.save() { Terminal.error(failure) }
    }

    /// The app, embedded as any Swift program embeds one (``WayfinderHost``).
    private func embed(printSink: @escaping (String) -> Void) throws -> WayfinderHost {
        var configuration = WayfinderHost.Configuration(app: try AppSource(path: app))
        configuration.limits = host.limits
        configuration.printSink = printSink
        configuration.updates = try updates.bundleUpdates()
        return try WayfinderHost(configuration)
    }

    /// The watcher of the app's directory (a file's own directory), made before the app loads
    /// so that a save made while it loads, or while it cannot, is seen. A path that does not
    /// exist has nothing to watch (nil): its load fails as without `--watch`.
    private func appWatcher() -> DirectoryWatcher? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: app, isDirectory: &isDirectory) else { return nil }
        let url = URL(fileURLWithPath: app).standardizedFileURL
        return DirectoryWatcher(directory: isDirectory.boolValue ? url.path : url.deletingLastPathComponent().path, polling: poll)
    }

    /// With `--watch`, an app that does not load yet is not the end: its error is shown and every
    /// save of its files is tried until one loads. `q` or the end of input gives up (status 2).
    private func loadWatching(_ watcher: DirectoryWatcher, _ input: CommandInput, printSink: @escaping (String) -> Void) throws -> WayfinderHost {
        while true {
            do {
                return try embed(printSink: printSink)
            } catch {
                Terminal.write("! cannot load app '\(app)': \(error)\n"
                    + "watching \(watcher.directory) for changes (\(watcher.mechanism.rawValue)): save a fix to run it, q quits\n")
            }
            waiting: while true {
                switch input.next() {
                case .end:
                    throw ExitCode(2)
                case .filesChanged(let files):
                    Terminal.write("~ changed: \(files.joined(separator: ", "))\n")
                    break waiting
                case .line(let line):
                    if ["q", "quit"].contains(line.trimmingCharacters(in: .whitespaces).lowercased()) { throw ExitCode(2) }
                    Terminal.write("! the app is not loaded yet: save a fix to its files (q quits)\n")
                }
            }
        }
    }
}
