import Foundation
import Testing

/// `wayfinder open` on a state file other launches use at the same time, with things planted at
/// the names of its temporary files, and with a saved state whose screens can no longer be made.
@Suite("wayfinder open: one owner of a state file, its temporary files, entries it cannot restore")
struct StateOwnerCLITests {
    let directory: TemporaryDirectory
    let state: String

    init() throws {
        directory = try TemporaryDirectory()
        state = directory.subpath("state.json")
    }

    /// An app whose pages take a while to make (`work` rounds of a loop), so launches overlap;
    /// with `broken`, a page's constructor raises (an edit that broke it).
    func writeApp(work: Int = 0, broken: Bool = false, root: String? = nil) throws {
        try directory.write("app/app.lua", """
            local wf = require "wayfinder"
            local Page = wf.controller "Page"
            function Page:init(route)
              \(broken ? "error(\"this page can no longer be made\")" : "")
              local n = 0
              for i = 1, \(work) do n = n + i end
              self.url = route.url
            end
            function Page:render() return { title = "Page", lines = { self.url } } end
            local Home = wf.controller "Home"
            function Home:render() return { title = "Home", lines = {} } end
            wf.map:from("tt://page/(id)", Page)
            wf.map:from("tt://home", Home)
            wf.app { name = "owned"\(root.map { ", root = \"\($0)\"" } ?? "") }
            """)
    }

    var app: String { directory.subpath("app") }

    /// Everything in the state's directory besides the app.
    func besideState() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "app" }.sorted()
    }

    @Test func launchesAtTheSameTimeWaitForEachOtherAndNoneTakesAnotherForACrash() throws {
        try writeApp(work: 2_000_000)
        let first = try WayfinderCLI.run(["open", app, "tt://page/1", "--state", state, "--time-limit", "60000"])
        #expect(first.status == 0, "\(first.stderr)")
        let launches = try (2...7).map { try LiveProcess(["open", app, "tt://page/\($0)", "--state", state, "--time-limit", "60000"]) }
        var opened = 0
        for launch in launches {
            let status = launch.exitStatus()
            // Each either waited for the others and ran, or says plainly that the state is in use.
            if status == 0 {
                opened += 1
            } else {
                #expect(status == 2 && launch.text.contains("cannot use the navigation state in \(state): it is in use by another running Wayfinder app (process "),
                        "\(launch.text)")
            }
            #expect(!launch.text.contains("stopped the last"), "\(launch.text)")
            #expect(!launch.text.contains("did not get to its first screen"), "\(launch.text)")
        }
        #expect(opened >= 1)
        #expect(try besideState() == ["state.json", "state.json.lock"], "nothing was moved aside, no mark is left")
        let after = try WayfinderCLI.run(["open", app, "--state", state])
        #expect(after.status == 0 && after.stderr.isEmpty, "\(after.stderr)")
        #expect(after.stdout.hasPrefix("stack: tt://page/1 (not loaded) > tt://page/"), "\(after.stdout)")
    }

    @Test func aLaunchWhileAnotherProcessOwnsTheStateSaysSoNamingItAndChangesNothing() throws {
        try writeApp()
        #expect(try WayfinderCLI.run(["open", app, "tt://page/1", "--state", state]).status == 0)
        let saved = try Data(contentsOf: URL(fileURLWithPath: state))
        // This test process owns the state as a running app would.
        try #"{"format":"wayfinder.lock","pid":\#(getpid())}"#.write(toFile: state + ".lock", atomically: true, encoding: .utf8)
        let held = open(state + ".lock", O_RDWR | O_CLOEXEC)
        defer { close(held) }
        #expect(flock(held, LOCK_EX | LOCK_NB) == 0)
        let refused = try WayfinderCLI.run(["open", app, "tt://page/2", "--state", state])
        #expect(refused.status == 2)
        #expect(refused.stderr == "wayfinder: cannot launch '\(app)': cannot use the navigation state in \(state): it is in use by another running "
            + "Wayfinder app (process \(getpid())); waited 10 s for it (\(state).lock is its lock)\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == saved)
    }

    @Test func aMarkOfALaunchWhoseProcessStillRunsIsNoFailedLaunch() throws {
        try writeApp()
        #expect(try WayfinderCLI.run(["open", app, "tt://page/1", "--state", state]).status == 0)
        // Two launches counted, by this test's process (running, and not the launch's own).
        let me = ProcessInfo.processInfo.processIdentifier
        let started = try String(contentsOfFile: "/proc/\(me)/stat", encoding: .utf8).split(separator: ")").last!
            .split(separator: " ")[19]
        try #"{"format":"wayfinder.launch","launches":2,"url":"tt://page/1","pid":\#(me),"started":\#(started)}"#
            .write(toFile: state + ".launching", atomically: true, encoding: .utf8)
        let launched = try WayfinderCLI.run(["open", app, "--state", state])
        #expect(launched.status == 0 && launched.stderr.isEmpty, "\(launched.stderr)")
        #expect(launched.stdout == "stack: tt://page/1\nvisible: tt://page/1\n")
        #expect(try besideState() == ["state.json", "state.json.lock"])
    }

    /// Runs `wayfinder open` with `arguments` as a process whose id is known before it starts: a
    /// shell plants `plant` (a shell command, `$$` being that id) and then becomes the binary. A
    /// save that waited forever is stopped after two minutes (exit 124).
    func openPlanting(_ plant: String, _ arguments: [String]) throws -> WayfinderCLI.Result {
        try WayfinderCLI.run(["120", "/bin/sh", "-c", "cd \"$1\" && \(plant) && shift && exec \"$@\"", "sh", directory.path,
                              WayfinderCLI.executable.path, "open"] + arguments,
                             binary: URL(fileURLWithPath: "/usr/bin/timeout"))
    }

    @Test func aFIFOAtTheTemporaryFilesNamesBlocksNeitherTheSaveNorTheLaunchMark() throws {
        try writeApp()
        #expect(try WayfinderCLI.run(["open", app, "tt://page/1", "--state", state]).status == 0)
        let opened = try openPlanting("mkfifo .state.json.tmp-$$ .state.json.launching.tmp-$$", [app, "tt://page/2", "--state", state])
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(opened.stdout.hasSuffix("> tt://page/2\nvisible: tt://page/2\n"), "\(opened.stdout)")
        #expect(try besideState().filter { $0.hasPrefix(".") }.count == 2, "the FIFOs stay while their process runs")
        // Its process has ended: the next start clears what is named like its temporary files.
        let next = try WayfinderCLI.run(["open", app, "--state", state])
        #expect(next.status == 0 && next.stderr.isEmpty, "\(next.stderr)")
        #expect(try besideState() == ["state.json", "state.json.lock"])
    }

    @Test func aLinkAtTheTemporaryFilesNameLeavesItsTargetUntouched() throws {
        try writeApp()
        try directory.write("precious.txt", "precious")
        #expect(try WayfinderCLI.run(["open", app, "tt://page/1", "--state", state]).status == 0)
        let opened = try openPlanting("ln -s precious.txt .state.json.tmp-$$ && ln -s precious.txt .state.json.launching.tmp-$$",
                                      [app, "tt://page/2", "--state", state])
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(try String(contentsOfFile: directory.subpath("precious.txt"), encoding: .utf8) == "precious")
        #expect(try String(contentsOfFile: state, encoding: .utf8).contains(#"{"url":"tt://page/2""#))
        #expect(try WayfinderCLI.run(["open", app, "--state", state]).status == 0)
        #expect(try besideState() == ["precious.txt", "state.json", "state.json.lock"], "the links went, never what they lead to")
        #expect(try String(contentsOfFile: directory.subpath("precious.txt"), encoding: .utf8) == "precious")
    }

    @Test func aLaunchThatCanMakeNoScreenOfTheSavedStateFailsAndLeavesItByteForByte() throws {
        try writeApp()
        #expect(try WayfinderCLI.run(["open", app, "tt://page/1", "tt://page/2", "--state", state]).status == 0)
        let saved = try Data(contentsOf: URL(fileURLWithPath: state))
        try writeApp(broken: true)
        for launch in 1...2 {
            let failed = try WayfinderCLI.run(["open", app, "--state", state])
            #expect(failed.status == 2, "\(failed.stdout)")
            #expect(failed.stderr.contains("warning: dropped 'tt://page/2': app.lua:4: this page can no longer be made"), "\(failed.stderr)")
            #expect(failed.stderr.contains("cannot launch '\(app)': no screen of the saved navigation state could be made again "
                + "(all 2 entries were dropped); the saved state in \(state) is left as it is"), "\(failed.stderr)")
            #expect(failed.stderr.contains("(\(launch) in a row)"), "the launch guard counts it: \(failed.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == saved)
        }
        let third = try WayfinderCLI.run(["open", app, "--state", state])
        #expect(third.status == 0, "\(third.stderr)")
        #expect(third.stderr.contains("it was moved to \(state).crashed-"), "\(third.stderr)")
    }

    @Test func entriesALaunchCouldNotRestoreStayInTheFileUntilTheAppNavigatesAndAreThenKeptAside() throws {
        try writeApp(root: "tt://home")
        #expect(try WayfinderCLI.run(["open", app, "tt://page/1", "tt://page/2", "--state", state]).status == 0)
        let saved = try Data(contentsOf: URL(fileURLWithPath: state))
        try writeApp(broken: true, root: "tt://home")
        let launched = try WayfinderCLI.run(["open", app, "--state", state])
        #expect(launched.status == 0, "\(launched.stderr)")
        #expect(launched.stdout == "stack: tt://home\nvisible: tt://home\n")
        #expect(launched.stderr.contains("warning: 2 entries of the saved navigation state could not be restored; the saved state (\(state)) "
            + "stays as it is until the app navigates, and is then kept aside before it is saved over"), "\(launched.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == saved)

        let navigated = try WayfinderCLI.run(["open", app, "tt://home", "--state", state])
        #expect(navigated.status == 0, "\(navigated.stderr)")
        let range = try #require(navigated.stderr.range(of: #"it was kept at (\S+) before this save"#, options: .regularExpression))
        let kept = String(navigated.stderr[range].dropFirst("it was kept at ".count).dropLast(" before this save".count))
        #expect(kept.hasPrefix(state + ".unrestorable-"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: kept)) == saved)
        let now = try String(contentsOfFile: state, encoding: .utf8)
        #expect(now.contains(#""url":"tt://home""#) && !now.contains("tt://page/"), "\(now)")
    }
}
