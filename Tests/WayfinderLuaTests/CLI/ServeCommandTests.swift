import Foundation
import Testing

/// `wayfinder serve` as a user starts it: what it prints, and the calls it refuses before it
/// serves anything. What it serves is tested in WayfinderServeTests and Tests/Browser.
@Suite("serve command")
struct ServeCommandTests {
    static let restaurant = WayfinderCLI.repositoryRoot.path + "/lua/examples/restaurant"

    @Test func itPrintsTheAddressWithItsTokenWatchesAndStopsAtSIGTERM() throws {
        // The server's socket goes in a directory of its own under the temporary directory.
        let temporary = try TemporaryDirectory()
        let serve = try LiveProcess(["serve", Self.restaurant, "--no-state"], environment: ["TMPDIR": temporary.path])
        defer { stop(serve) }
        #expect(serve.waitFor("Ctrl-C stops the server"))
        let address = try #require(serve.text.firstMatch(of: /wayfinder serve: http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]{64})\n/))
        #expect(Int(address.output.1).map { $0 > 0 } == true)
        #expect(serve.text.contains("watching \(URL(fileURLWithPath: Self.restaurant).standardizedFileURL.path) for changes"))
        // The test process starts it with SIGTERM blocked (a blocked mask is inherited): serve
        // takes the signal all the same.
        let made = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
        #expect(made.count == 1 && made[0].hasPrefix("wayfinder-serve-"), "\(made)")
        serve.process.terminate()
        #expect(serve.exitStatus() == SIGTERM)
        #expect(serve.process.terminationReason == .uncaughtSignal)
        // It stopped the server first, which removed that directory.
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
    }

    /// Ends `serve` if it still runs (a test that failed early, or one done with it), so no
    /// server outlives its test: SIGTERM, which stops it cleanly, then SIGKILL if it has not
    /// ended within 30 seconds (an outer guard).
    private func stop(_ serve: LiveProcess) {
        if serve.process.isRunning { serve.process.terminate() }
        let deadline = Date().addingTimeInterval(30)
        while serve.process.isRunning && Date() < deadline { usleep(20_000) }
        if serve.process.isRunning { kill(serve.process.processIdentifier, SIGKILL) }
        _ = serve.exitStatus()
    }

    @Test func aPortInUseEndsWithStatus2() throws {
        let first = try LiveProcess(["serve", Self.restaurant, "--no-state", "--no-watch"])
        defer { stop(first) }
        #expect(first.waitFor("Ctrl-C stops the server"))
        let port = try #require(first.text.firstMatch(of: /127\.0\.0\.1:(\d+)\//)).output.1
        let second = try WayfinderCLI.run(["serve", Self.restaurant, "--no-state", "--no-watch", "--port", String(port)])
        #expect(second.status == 2)
        #expect(second.stderr.contains("cannot serve on 127.0.0.1:\(port)"), "\(second.stderr)")
        #expect(!first.text.contains("Ctrl-C stops the server\nwayfinder"))
    }

    @Test(arguments: [
        (["--host", "example.com"], "'example.com' is not an IP address"),
        (["--host", "999.1.1.1"], "'999.1.1.1' is not an IP address"),
        (["--port", "70000"], "--port must be between 0 and 65535"),
        (["--no-watch", "--poll"], "--poll chooses how changes are seen"),
        (["--state", "/no/such/directory/state.json"], "cannot use the state file"),
        (["--state", "x.json", "--no-state"], "give --state FILE or --no-state, not both"),
    ])
    func wrongCallsEndWithStatus2AndTheReason(arguments: [String], reason: String) throws {
        let result = try WayfinderCLI.run(["serve", Self.restaurant] + arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(reason), "\(result.stderr)")
        #expect(!result.stdout.contains("wayfinder serve: http"))
    }

    @Test func anAppThatDoesNotLoadEndsWithStatus2WithoutWatching() throws {
        let missing = try WayfinderCLI.run(["serve", "/no/such/app", "--no-state"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot load app '/no/such/app'"))
        let broken = try TemporaryDirectory()
        try broken.write("app.lua", "local x = \n")
        let result = try WayfinderCLI.run(["serve", broken.path, "--no-state", "--no-watch"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("app.lua:2:"), "\(result.stderr)")
    }

    @Test func anAppThatDoesNotLoadIsServedWhileWatching() throws {
        let broken = try TemporaryDirectory()
        try broken.write("app.lua", "local x = \n")
        let serve = try LiveProcess(["serve", broken.path, "--no-state"])
        defer { stop(serve) }
        #expect(serve.waitFor("Ctrl-C stops the server"))
        #expect(serve.text.contains("app.lua:2:"))
        #expect(serve.text.contains("save a fix and the page shows the app"))
    }
}
