import ArgumentParser
import Foundation
import Wayfinder
import WayfinderLua

/// `wayfinder run APP`: the app in the terminal. Shows the visible screen and reads commands;
/// when standard input is not a terminal it reads them line by line, echoing each after the
/// screen it acted on, so a session can be scripted and its transcript read back. The navigation
/// state is restored at launch and saved after every command that changed it, in
/// `$XDG_STATE_HOME/wayfinder/<app>.json` unless `--state FILE` names another file or
/// `--no-state` turns it off.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the app in the terminal: see the visible screen, follow links, go back.",
        discussion: RunSession.help
    )

    @Argument(help: "The app: a directory with app.lua, or a .lua file.")
    var app: String

    @Option(help: "The navigation state file (default: $XDG_STATE_HOME/wayfinder/<app name>.json).")
    var state: String?

    @Flag(name: .customLong("no-state"), help: "Start fresh and save nothing.")
    var noState = false

    @OptionGroup var host: HostOptions

    func validate() throws {
        if state != nil && noState { throw ValidationError("give --state FILE or --no-state, not both") }
    }

    func run() throws {
        let interactive = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        var printed: [String] = []
        let appHost = try host.load(app, printSink: { printed.append($0) })
        if !noState { appHost.stateStore = FileStateStore(path: state ?? FileStateStore.defaultPath(app: appHost.stateName)) }
        let session = RunSession(host: appHost, styled: interactive)
        appHost.state.printSink = { [unowned session] in session.note($0) }
        for line in printed { session.note(line) }
        session.launch()
        while true {
            let screen = session.screen()
            if interactive {
                Terminal.write("\u{1B}[H\u{1B}[2J" + screen.joined(separator: "\n") + "\n> ")
            } else {
                Terminal.write(screen.joined(separator: "\n") + "\n")
            }
            guard let line = readLine(strippingNewline: true) else { break }
            if !interactive { Terminal.write("> \(line)\n\n") }
            if session.execute(line) == .quit { break }
            if let failure = session.save() { session.note(failure) }
        }
        if let failure = session.save() { Terminal.error(failure) }
    }
}
