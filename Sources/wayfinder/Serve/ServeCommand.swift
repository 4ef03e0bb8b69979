import ArgumentParser
import Foundation
import Wayfinder
import WayfinderLua
import WayfinderServe
import WayfinderUpdates

/// `wayfinder serve APP`: the app in a browser, on a phone-shaped simulator with devtools beside
/// it. Serves on 127.0.0.1 (or `--host`), on `--port` (default: one the system chooses), and
/// prints the address with its token; saving a script reloads the app unless `--no-watch`.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the app in a browser: a phone simulator with devtools, reloaded as you save.",
        discussion: """
            Prints the address to open, with a random token that every request must carry. \
            Listens on 127.0.0.1 unless --host gives another IP address; requests whose Host \
            is not localhost or an IP address, or whose Origin is another site, are refused. \
            The navigation state is restored and saved as with run. Ctrl-C stops the server.

            Example:
              wayfinder serve lua/examples/restaurant --open
            """
    )

    @Argument(help: "The app: a directory with app.lua, or a .lua file.")
    var app: String

    @Option(help: "The port to listen on (default: a free one the system chooses).")
    var port: Int?

    @Option(help: "The IP address to listen on (default: 127.0.0.1, this machine only).")
    var host: String?

    @Option(help: "The navigation state file (default: $XDG_STATE_HOME/wayfinder/<app name>.json).")
    var state: String?

    @Flag(name: .customLong("no-state"), help: "Start fresh and save nothing.")
    var noState = false

    @Flag(help: "Open the address in the system's browser (xdg-open, or open on macOS).")
    var open = false

    @Flag(name: .customLong("no-watch"), help: "Do not reload the app when its scripts change on disk.")
    var noWatch = false

    @Flag(help: "Look for changes by polling modification times instead of inotify.")
    var poll = false

    @OptionGroup var hostOptions: HostOptions

    @OptionGroup var updates: UpdateOptions

    func validate() throws {
        if state != nil && noState { throw ValidationError("give --state FILE or --no-state, not both") }
        if poll && noWatch { throw ValidationError("--poll chooses how changes are seen; it cannot go with --no-watch") }
        guard (0...65_535).contains(port ?? 0) else { throw ValidationError("--port must be between 0 and 65535") }
    }

    func run() throws {
        Self.acceptStopSignals()
        let stateFile: ServeOptions.StateFile
        if noState {
            stateFile = .none
        } else if let state {
            if let problem = FileStateStore(path: state).problemAsGiven {
                Terminal.error("cannot use the state file \(problem)")
                throw ExitCode(2)
            }
            stateFile = .path(state)
        } else {
            stateFile = .standard
        }
        var options = ServeOptions(app: app, limits: hostOptions.limits, state: stateFile)
        if let directory = updates.updates {
            _ = try UpdateOptions.keys(updates.trust)
            // Read again for each host the session makes (keys are not Sendable); each was read above.
            let paths = updates.trust
            options.updates = {
                BundleUpdates(directory: directory, trusting: paths.compactMap { try? BundleKeys.trustedKey(at: $0) }, warn: { Terminal.warning($0) })
            }
        }
        let session = ServeSession(options: options, hub: ClientHub())
        let watch = !noWatch
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let (app, address, port, poll, open) = (app, host ?? "127.0.0.1", UInt16(port ?? 0), poll, open)
        Task {
            defer { done.signal() }
            let watcher = watch && FileManager.default.fileExists(atPath: app) ? AppWatcher(app: app, session: session, polling: poll) : nil
            if let problem = await session.start() {
                guard let watcher else {
                    Terminal.error(problem)
                    outcome.status = 2
                    return
                }
                Terminal.error(problem + "\nwatching \(watcher.directory) for changes: save a fix and the page shows the app")
            }
            do {
                let server = try SimulatorServer(session: session, address: address, port: port)
                let bound = try await server.start()
                let signals = Self.stopOnSignals(server, watcher)
                let url = server.url(port: bound)
                Terminal.print("wayfinder serve: \(url)")
                if let watcher { Terminal.print("watching \(watcher.directory) for changes (\(watcher.mechanism.rawValue))") }
                Terminal.print("Ctrl-C stops the server")
                if open { Self.openInBrowser(url) }
                // Runs until the process is stopped.
                defer { withExtendedLifetime(signals) {} }
                while true { try await Task.sleep(for: .seconds(3600)) }
            } catch {
                Terminal.error("cannot serve on \(address):\(port): \(error)")
                outcome.status = 2
            }
        }
        done.wait()
        if outcome.status != 0 { throw ExitCode(outcome.status) }
    }

    /// Where the serving task leaves its exit status.
    private final class Outcome: Sendable {
        private let value = Locked<Int32>(0)
        var status: Int32 {
            get { value.withLock { $0 } }
            set { value.withLock { $0 = newValue } }
        }
    }

    /// Ctrl-C (SIGINT) and SIGTERM stop the server even when whatever started it had them
    /// blocked (a blocked mask is inherited): they are the only way it ends.
    private static func acceptStopSignals() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// Ctrl-C (SIGINT) and SIGTERM stop the server as `stop()` does (its socket's directory
    /// removed), then end the process by the signal itself, as without this. The sources
    /// returned must be kept for as long as the server runs.
    private static func stopOnSignals(_ server: SimulatorServer, _ watcher: AppWatcher?) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                watcher?.stop()
                Task {
                    await server.stop()
                    signal(number, SIG_DFL)
                    kill(getpid(), number)
                }
            }
            source.resume()
            return source
        }
    }

    /// Hands the address to the system's browser; a failure is said, not fatal.
    private static func openInBrowser(_ url: String) {
        let process = Process()
        #if os(macOS)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/open")
        process.arguments = [url]
        #else
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", url]
        #endif
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { Terminal.error("cannot open a browser (\(error)); open the address above yourself") }
    }
}
