import Foundation
import Testing

/// `wayfinder open` and `run` with a saved state that stops every launch, and with a state of an
/// older or newer version of the app.
@Suite("wayfinder open and run: a state that stops every launch, versions")
struct LaunchGuardCLITests {
    static let moody = WayfinderCLI.repositoryRoot.appendingPathComponent("lua/spec/apps/moody").path
    static let shop = WayfinderCLI.repositoryRoot.appendingPathComponent("lua/spec/apps/shop").path

    let directory: TemporaryDirectory
    let state: String

    init() throws {
        directory = try TemporaryDirectory()
        state = directory.subpath("moody.json")
    }

    /// A state saved with tt://page/7 on screen, in `mood`.
    func save(mood: String) throws -> String {
        let saved = try WayfinderCLI.run(["open", Self.moody, "tt://page/7", "tt://mood/\(mood)", "--state", state])
        #expect(saved.status == 0, "\(saved.stderr)")
        return try String(contentsOfFile: state, encoding: .utf8)
    }

    /// The file the warning says the state was moved to.
    func aside(in text: String) throws -> String {
        let range = try #require(text.range(of: #"it was moved to (\S+) and the app starts fresh"#, options: .regularExpression))
        return String(text[range].dropFirst("it was moved to ".count).dropLast(" and the app starts fresh".count))
    }

    @Test func theThirdOpenOfAStateWhoseVisibleConstructorRaisesSetsItAside() throws {
        let saved = try save(mood: "broken")
        for launch in 1...2 {
            let failed = try WayfinderCLI.run(["open", Self.moody, "--state", state])
            #expect(failed.status == 2, "\(failed.stdout)")
            #expect(failed.stderr.contains("warning: dropped 'tt://page/7': app.lua:10: no screen can be made in a broken mood"), "\(failed.stderr)")
            #expect(failed.stderr.contains("this launch did not get to its first screen with the saved navigation state (\(launch) in a row)"), "\(failed.stderr)")
            #expect(failed.stderr.contains("cannot launch"))
            #expect(try String(contentsOfFile: state, encoding: .utf8) == saved)
        }
        let third = try WayfinderCLI.run(["open", Self.moody, "--state", state])
        #expect(third.status == 0, "\(third.stderr)")
        #expect(third.stdout == "stack: tt://home\nvisible: tt://home\n")
        #expect(third.stderr.contains("warning: the saved navigation state stopped the last 2 launches before they showed a screen "
            + "(restoring 'tt://page/7': the last one failed with app.lua:10: no screen can be made in a broken mood); it was moved to "
            + state + ".crashed-"), "\(third.stderr)")
        #expect(try String(contentsOfFile: try aside(in: third.stderr), encoding: .utf8) == saved)
        #expect(!FileManager.default.fileExists(atPath: state + ".launching"))
        let fourth = try WayfinderCLI.run(["open", Self.moody, "tt://page/8", "--state", state])
        #expect(fourth.status == 0 && fourth.stderr.isEmpty, "\(fourth.stderr)")
    }

    @Test func aLaunchKilledBeforeItsFirstScreenCountsAsAFailedLaunch() throws {
        let saved = try save(mood: "dizzy")
        for count in 1...2 {
            // The visible constructor never finishes within this budget: the launch is under way
            // from the moment its mark counts it until the process is killed.
            let launch = try LiveProcess(["open", Self.moody, "--state", state, "--time-limit", "600000"])
            let marked = #""launches":\#(count),"#
            func counted() -> Bool { (try? String(contentsOfFile: state + ".launching", encoding: .utf8))?.contains(marked) == true }
            let deadline = Date().addingTimeInterval(30)
            while !counted() && Date() < deadline { usleep(10_000) }
            #expect(counted(), "the launch never marked itself")
            kill(launch.process.processIdentifier, SIGKILL)
            #expect(launch.exitStatus() == SIGKILL)
            #expect(launch.process.terminationReason == .uncaughtSignal)
        }
        // The mark names the killed launch's process, which no longer runs.
        let mark = try String(contentsOfFile: state + ".launching", encoding: .utf8)
        #expect(mark.hasPrefix(#"{"format":"wayfinder.launch","launches":2,"url":"tt://page/7","pid":"#), "\(mark)")
        let third = try WayfinderCLI.run(["open", Self.moody, "--state", state])
        #expect(third.status == 0, "\(third.stderr)")
        #expect(third.stderr.contains("the saved navigation state stopped the last 2 launches before they showed a screen "
            + "(restoring 'tt://page/7': the last one ended before it got there)"), "\(third.stderr)")
        #expect(try String(contentsOfFile: try aside(in: third.stderr), encoding: .utf8) == saved)
    }

    @Test func runKeepsTheStateOfAFailedLaunchAndTheThirdSetsItAside() throws {
        let saved = try save(mood: "broken")
        for _ in 1...2 {
            let (screens, result) = try RunAndOpenTests.screens(["o tt://page/9", "q"], app: Self.moody, options: ["--state", state])
            #expect(result.status == 0)
            #expect(screens[0].contains("! cannot launch: app.lua:10: no screen can be made in a broken mood; this session saves nothing"), "\(screens[0])")
            #expect(try String(contentsOfFile: state, encoding: .utf8) == saved, "the session saved nothing")
        }
        let (screens, _) = try RunAndOpenTests.screens(["o tt://page/9", "q"], app: Self.moody, options: ["--state", state])
        #expect(screens[0].contains("warning: the saved navigation state stopped the last 2 launches"), "\(screens[0])")
        let again = try WayfinderCLI.run(["open", Self.moody, "--state", state])
        #expect(again.stdout == "stack: tt://home (not loaded) > tt://page/9\nvisible: tt://page/9\n", "\(again.stderr)")
    }

    @Test func openMigratesAVersionTwoStateToVersionThree() throws {
        let path = directory.subpath("shop.json")
        try #"{"format":"wayfinder.navigation","version":1,"app":"shop","app_version":2,"saved_at":"2026-01-01T00:00:00Z","mode":"all","root":{"kind":"stack","entries":[{"url":"tt://home"},{"url":"tt://item/4"},{"url":"tt://cart/ann","state":{"count":"2 pears"}}]},"modals":[]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let result = try WayfinderCLI.run(["open", Self.shop, "--state", path])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout == "stack: tt://home (not loaded) > tt://product/4 (not loaded) > tt://cart?owner=ann\nvisible: tt://cart?owner=ann\n")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#""app_version":3"#) && text.contains(#""lines":[{"name":"pears","quantity":2}]"#), "\(text)")
    }

    @Test func openMigratesTheWaitingOpenOfAVersionTwoStateAndItOpensOnceLetThrough() throws {
        let path = directory.subpath("shop.json")
        let formatter = ISO8601DateFormatter()
        let now = formatter.string(from: Date())
        try (#"{"format":"wayfinder.navigation","version":1,"app":"shop","app_version":2,"saved_at":""# + now + #"","mode":"all","root":{"kind":"stack","entries":[{"url":"tt://home"}]},"modals":[],"#
            + #""pending":{"url":"tt://basket/4","state":{"count":"1 fig"},"link":true,"since":""# + now + #""}}"#)
            .write(toFile: path, atomically: true, encoding: .utf8)
        let waiting = try WayfinderCLI.run(["open", Self.shop, "--state", path])
        #expect(waiting.status == 0, "\(waiting.stderr)")
        #expect(waiting.stderr == "pending: tt://checkout/4 (a link from outside) opens once its guard lets it through\n")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#""pending":{"url":"tt://checkout/4","state":{"lines":[{"name":"fig","quantity":1}]},"link":true,"#), "migrated, then moved: \(text)")
        let paid = try WayfinderCLI.run(["open", Self.shop, "tt://pay", "--state", path])
        #expect(paid.status == 0 && paid.stderr.isEmpty, "\(paid.stderr)")
        #expect(paid.stdout == "stack: tt://home > tt://checkout/4\nvisible: tt://checkout/4\n")
    }

    @Test func aMigrationThatSavesThenRaisesLeavesTheStateItKeepsAsideAsItWas() throws {
        try directory.write("app.lua", """
            local wf = require "wayfinder"
            wf.map:from("tt://home", wf.controller "Home")
            wf.map:from("tt://page/(id)", wf.controller "Page")
            wf.app { name = "careless", root = "tt://home", version = 3,
              migrate = function() assert(wf.navigator:persist()) end }
            """)
        let path = directory.subpath("careless.json")
        let text = #"{"format":"wayfinder.navigation","version":1,"app":"careless","app_version":2,"saved_at":"2026-01-01T00:00:00Z","mode":"all","root":{"kind":"stack","entries":[{"url":"tt://page/4"}]},"modals":[]}"#
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try WayfinderCLI.run(["open", directory.path, "--state", path])
        #expect(result.status == 0)
        #expect(result.stderr.contains("(migrate at app.lua:5) failed: app.lua:5: the navigation state cannot be saved while the saved one is being restored"),
                "\(result.stderr)")
        #expect(try String(contentsOfFile: try aside(in: result.stderr), encoding: .utf8) == text)
    }

    @Test func openSetsAsideAStateOfANewerVersion() throws {
        let path = directory.subpath("shop.json")
        let newer = #"{"format":"wayfinder.navigation","version":1,"app":"shop","app_version":9,"saved_at":"2026-01-01T00:00:00Z","mode":"all","root":{"kind":"stack","entries":[{"url":"tt://product/4"}]},"modals":[]}"#
        try newer.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try WayfinderCLI.run(["open", Self.shop, "--state", path])
        #expect(result.status == 0)
        #expect(result.stdout == "stack: tt://home\nvisible: tt://home\n")
        #expect(result.stderr.contains("warning: the saved navigation state was saved by version 9 of the app, newer than this one (version 3); it was moved to \(path).newer-"), "\(result.stderr)")
        #expect(try String(contentsOfFile: try aside(in: result.stderr), encoding: .utf8) == newer)
    }
}
