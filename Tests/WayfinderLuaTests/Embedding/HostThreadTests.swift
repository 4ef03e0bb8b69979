import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua
import TestSupport

/// The host's threading rule held at run time: a call from a thread while another thread is in a
/// call is refused with the rule, before it touches the Lua state.
@Suite("WayfinderHost: one thread at a time")
struct HostThreadTests {
    /// What the compiler cannot stop: a host handed to another thread.
    private final class Box: @unchecked Sendable {
        let host: WayfinderHost
        init(_ host: WayfinderHost) { self.host = host }
    }

    /// Signals between the thread in a call and the test.
    private final class Gate: @unchecked Sendable {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        var error: Error?
    }

    @Test func aCallFromAnotherThreadWhileOneRunsIsRefusedWithTheRuleAndTheRunningCallEndsWell() throws {
        let gate = Gate()
        var configuration = WayfinderHost.Configuration(app: try AppSource(sources: ["app.lua": """
            local wf = require "wayfinder"
            local Page = wf.controller "Page"
            function Page:init(route) self.url = route.url end
            local Waiting = wf.controller "Waiting"
            function Waiting:init() print("waiting") end
            wf.map:from("tt://page/(id)", Page)
            wf.map:from("tt://waiting", Waiting)
            """]))
        // The script's print holds the call under way until the test lets it go.
        configuration.printSink = { _ in
            gate.entered.signal()
            gate.release.wait()
        }
        let box = Box(try WayfinderHost(configuration))
        Thread {
            do { try box.host.open("tt://waiting") } catch { gate.error = error }
            gate.finished.signal()
        }.start()
        gate.entered.wait()

        let refused = try #require(throws: HostThreadError.self) { try box.host.open("tt://page/1") }
        #expect(refused.description == "cannot open: the host is in a call on another thread (a WayfinderHost belongs to one thread or actor "
            + "at a time; calls from two threads at once are refused)")
        #expect(throws: HostThreadError.self) { try box.host.back() }
        #expect(throws: HostThreadError.self) { try box.host.persist() }
        let typed = try #require(throws: ScriptError.self) { try box.host.match("tt://page/1") }
        #expect(typed.message.hasPrefix("cannot match: the host is in a call on another thread"))
        let reload = try #require(throws: ReloadError.self) { try box.host.reload() }
        #expect(reload.message.hasPrefix("cannot reload: the host is in a call on another thread"))

        gate.release.signal()
        gate.finished.wait()
        #expect(gate.error == nil, "\(String(describing: gate.error))")
        // The call under way ended as if alone, and the host is this thread's now.
        #expect(box.host.tree.visible?.url == "tt://waiting")
        try box.host.open("tt://page/2")
        #expect(box.host.tree.visible?.url == "tt://page/2")
    }

    /// Tallies what the threads' calls came to.
    private final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var opened = 0
        private(set) var refused = 0
        private(set) var other: [String] = []
        func record(_ outcome: Result<Bool, Error>) {
            lock.lock()
            defer { lock.unlock() }
            switch outcome {
            case .success(let didOpen): if didOpen { opened += 1 }
            case .failure(is HostThreadError): refused += 1
            // Members whose errors are typed as a script's carry the rule's refusal as one.
            case .failure(let error as ScriptError) where error.message.hasPrefix(HostThreadError(operation: "match").description):
                refused += 1
            case .failure(let error): other.append("\(error)")
            }
        }
    }

    /// Threads in any number calling at once, in orders a seeded generator draws: each call either
    /// runs as if alone or is refused with the rule, and the tree holds exactly the opens that ran.
    @Test(arguments: [(threads: 2, seed: UInt64(1)), (threads: 4, seed: 2), (threads: 8, seed: 3)])
    func threadsCallingAtOnceAreEachRunOrRefusedNeverRaced(_ round: (threads: Int, seed: UInt64)) throws {
        let box = Box(try WayfinderHost(WayfinderHost.Configuration(app: try AppSource(sources: ["app.lua": """
            local wf = require "wayfinder"
            local Page = wf.controller "Page"
            function Page:init(route) self.url = route.url; self.work = string.rep("x", 1000):upper() end
            wf.map:from("tt://page/(id)", Page)
            """]))))
        let tally = Tally()
        let done = DispatchGroup()
        for thread in 0..<round.threads {
            var generator = SeededGenerator(seed: round.seed &* 1000 &+ UInt64(thread))
            let calls = (0..<40).map { _ in generator.next() % 3 }
            done.enter()
            Thread {
                for (index, call) in calls.enumerated() {
                    let url = "tt://page/\(thread)-\(index)"
                    tally.record(Result {
                        switch call {
                        case 0: _ = try box.host.match(url); return false
                        default: _ = try box.host.open(url); return true
                        }
                    })
                }
                done.leave()
            }.start()
        }
        done.wait()
        #expect(tally.other.isEmpty, "\(tally.other.prefix(3))")
        guard case .stack(let entries) = box.host.tree.root else {
            Issue.record("the root is no longer one stack")
            return
        }
        #expect(entries.count == tally.opened, "\(tally.refused) refused")
        #expect(tally.opened + tally.refused > 0)
        try box.host.open("tt://page/after")
        #expect(box.host.tree.visible?.url == "tt://page/after")
    }

    @Test func aMemberThatCannotThrowStopsTheProgramWithTheRule() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let gate = Gate()
            var configuration = WayfinderHost.Configuration(app: try AppSource(sources: ["app.lua": """
                local wf = require "wayfinder"
                local Waiting = wf.controller "Waiting"
                function Waiting:init() print("waiting") end
                wf.map:from("tt://waiting", Waiting)
                """]))
            configuration.printSink = { _ in
                gate.entered.signal()
                gate.release.wait()
            }
            let box = Box(try WayfinderHost(configuration))
            Thread { _ = try? box.host.open("tt://waiting") }.start()
            gate.entered.wait()
            _ = box.host.tree
        }
        let text = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(text.contains("cannot read the tree: the host is in a call on another thread (a WayfinderHost belongs to one thread or actor at a time"),
                "\(text)")
    }

    @Test func aCallBackFromTheSameThreadIsTheCallUnderWay() throws {
        let app = try EmbeddedApp("""
            local wf = require "wayfinder"
            local Page = wf.controller "Page"
            function Page:init(route) self.url = route.url end
            wf.map:from("tt://page/(id)", Page)
            """)
        var seen: [String] = []
        app.host.observe { _ in seen.append(app.host.tree.visible?.url ?? "-") }
        try app.host.open("tt://page/1")
        #expect(seen == ["tt://page/1"])
    }
}
