import FlyingFox
import Foundation
import Testing
import Wayfinder
@testable import WayfinderServe

/// The server's budget: how many connections it holds and for how long, how many bytes wait
/// for a page, and what the front door lets through.
@Suite("serve budget")
struct ServeBudgetTests {
    typealias Address = ServeServerTests.Address

    /// The page's status, asked on a connection of its own.
    static func page(_ address: Address) throws -> Int? {
        let client = try RawClient(port: address.port)
        try client.write("GET /?token=\(address.token) HTTP/1.1\r\nHost: \(address.host)\r\n\r\n")
        return try client.response()?.status
    }

    // MARK: Connections

    @Test func theStandardBudgetStaysWellBelowTheDescriptorLimit() {
        for descriptors in [100, 256, 1_024, 4_096, 1 << 20] {
            let budget = ServeBudget.forDescriptors(descriptors)
            let slack = DoorConnections.slack(budget)
            // Three descriptors a connection, the cut ones still closing included, and 64 left.
            #expect((budget.connections + slack) * 3 + ServeBudget.reserved <= descriptors, "\(descriptors)")
            #expect(budget.perClient <= budget.connections)
        }
        #expect(ServeBudget.forDescriptors(1_024).connections == 240)
        #expect(ServeBudget.forDescriptors(1 << 20).connections == ServeBudget.mostConnections)
        #expect(ServeBudget.forDescriptors(10).connections == 4)
    }

    @Test func idleConnectionsUpToTheDescriptorLimitNeverStopThePageBeingServed() async throws {
        let app = try TestApp.make()
        let served = try ServedProcess(app: app.path, descriptors: 100)
        defer { served.stop() }
        let address = try served.address()
        let (during, after, opened) = try await blocking {
            // Twice the process's descriptors: every one it can hold, and more.
            var flood: [RawClient] = []
            for _ in 0..<200 { if let client = try? RawClient(port: address.port) { flood.append(client) } }
            let opened = flood.count
            let during = try Self.page(address)
            flood.removeAll()
            return (during, try Self.page(address), opened)
        }
        #expect(opened > 100, "\(served.text)")
        #expect(during == 200, "\(served.text)")
        #expect(after == 200)
        #expect(served.process.isRunning)
    }

    @Test func oneClientsConnectionsPushEachOtherOutAndNeverOneThatShowedTheToken() async throws {
        let budget = ServeBudget(connections: 6, perClient: 4)
        let (page, flooded, welcome, held) = try await serving(budget) { address, server in
            try await blocking {
                let page = try ServeServerTests().connectedPage(address)
                var flood: [RawClient] = []
                for _ in 0..<20 { flood.append(try RawClient(port: address.port)) }
                // The oldest of them were closed to make room for the newest.
                let flooded = try flood[0].closedByServer()
                // The page's WebSocket, which showed the token, still works.
                try page.sendText(#"{"type":"open","url":"tt://page/ax"}"#)
                let welcome = try JSON.decode(try page.textMessage())
                return (try Self.page(address), flooded, welcome, server.doorConnections)
            }
        }
        #expect(page == 200)
        #expect(flooded)
        #expect(welcome[path: "screen", "visible"] == "tt://page/ax")
        #expect(held <= budget.connections + DoorConnections.slack(budget))
    }

    @Test func aConnectionThatSendsNoHeadIsClosedAfterTheHeadDeadline() async throws {
        let budget = ServeBudget(connections: 16, perClient: 16, headDeadline: .milliseconds(200),
                                 unauthenticatedDeadline: .milliseconds(300), idleDeadline: .milliseconds(300))
        let (silent, partial, after) = try await serving(budget) { address, _ in
            try await blocking {
                let silent = try RawClient(port: address.port)
                let partial = try RawClient(port: address.port)
                try partial.write("GET /?token=\(address.token) HTTP/1.1\r\nHost: \(address.host)\r\n")
                return (try silent.closedByServer(), try partial.closedByServer(), try Self.page(address))
            }
        }
        #expect(silent)
        #expect(partial)
        #expect(after == 200)
    }

    @Test func aRequestWithoutTheTokenIsClosedAfterItsDeadlineWhateverItWaitsFor() async throws {
        let budget = ServeBudget(connections: 16, perClient: 16, headDeadline: .milliseconds(200),
                                 unauthenticatedDeadline: .milliseconds(300), idleDeadline: .seconds(600))
        let (closed, after) = try await serving(budget) { address, _ in
            try await blocking {
                // A body announced and never sent: the server would wait for it.
                let client = try RawClient(port: address.port)
                try client.write("POST / HTTP/1.1\r\nHost: \(address.host)\r\nContent-Length: 1000\r\n\r\nab")
                return (try client.closedByServer(), try Self.page(address))
            }
        }
        #expect(closed)
        #expect(after == 200)
    }

    @Test func aRequestWithTheTokenThatStopsMovingIsClosedAfterTheIdleDeadline() async throws {
        let budget = ServeBudget(connections: 16, perClient: 16, headDeadline: .seconds(600),
                                 unauthenticatedDeadline: .seconds(600), idleDeadline: .milliseconds(300))
        let closed = try await serving(budget) { address, _ in
            try await blocking {
                let client = try RawClient(port: address.port)
                try client.write("POST /?token=\(address.token) HTTP/1.1\r\nHost: \(address.host)\r\nContent-Length: 1000\r\n\r\nab")
                return try client.closedByServer()
            }
        }
        #expect(closed)
    }

    // MARK: What the front door lets through

    @Test func twoHostHeadersOrATargetThatIsNotAPathAreAnswered400() async throws {
        let answers = try await serving(.standard) { address, _ in
            try await blocking {
                let token = "?token=\(address.token)"
                let requests = [
                    "GET /\(token) HTTP/1.1\r\nHost: attacker.example:\(address.port)\r\nHost: \(address.host)\r\n\r\n",
                    "GET /\(token) HTTP/1.1\r\nHost: \(address.host)\r\nhost: \(address.host)\r\n\r\n",
                    "GET http://attacker.example/\(token) HTTP/1.1\r\nHost: \(address.host)\r\n\r\n",
                    "GET http://\(address.host)/\(token) HTTP/1.1\r\nHost: \(address.host)\r\n\r\n",
                    "CONNECT \(address.host) HTTP/1.1\r\nHost: \(address.host)\r\n\r\n",
                    "OPTIONS * HTTP/1.1\r\nHost: \(address.host)\r\n\r\n",
                ]
                return try requests.map { request in
                    let client = try RawClient(port: address.port)
                    try client.write(request)
                    let answer = try client.response()
                    return "\(answer?.status ?? 0) \(answer?.body ?? "")"
                }
            }
        }
        #expect(answers[0].hasPrefix("400 ") && answers[0].contains("2 Host headers"), "\(answers[0])")
        #expect(answers[1].hasPrefix("400 "), "\(answers[1])")
        for answer in answers[2...] {
            #expect(answer.hasPrefix("400 ") && answer.contains("must be a path"), "\(answer)")
        }
    }

    @Test func theHeadSaysWhetherItsTargetIsAPathWithOneHostAndTheToken() {
        func read(_ text: String) -> RequestHead.Reading { RequestHead.read(Array(text.utf8)) }
        guard case .malformed(let reason) = read("GET / HTTP/1.1\r\nHost: a:1\r\nHOST : a:1\r\n\r\n") else {
            Issue.record("two Host headers read as a head")
            return
        }
        #expect(reason.contains("2 Host headers"))
        for text in ["GET http://a:1/ HTTP/1.1\r\nHost: a:1\r\n\r\n", "CONNECT a:1 HTTP/1.1\r\nHost: a:1\r\n\r\n",
                     "OPTIONS * HTTP/1.1\r\nHost: a:1\r\n\r\n", "GET ?token=x HTTP/1.1\r\n\r\n"] {
            guard case .malformed(let reason) = read(text) else {
                Issue.record("\(text.debugDescription) read as a head")
                continue
            }
            #expect(reason.contains("must be a path"))
        }
        let token = AccessToken(text: "abc")
        guard case .head(let head, _) = read("GET /ws?x=1&token=abc HTTP/1.1\r\nHost: a:1\r\n\r\n") else {
            Issue.record("a plain head refused")
            return
        }
        #expect(head.target == "/ws?x=1&token=abc")
        #expect(head.carries(token))
        for target in ["/?token=abd", "/?token=abc&token=abc", "/", "/token=abc", "/?xtoken=abc"] {
            guard case .head(let other, _) = read("GET \(target) HTTP/1.1\r\nHost: a:1\r\n\r\n") else {
                Issue.record("\(target) refused")
                continue
            }
            #expect(!other.carries(token), "\(target)")
        }
    }

    // MARK: Memory

    @Test func aPageThatDoesNotReadIsLetGoOnceItsQueueIsFull() async throws {
        let app = try TestApp.make()
        let hub = ClientHub(pageQueueBytes: 20_000)
        let session = ServeSession(options: ServeOptions(app: app.path, state: .none), hub: hub)
        await session.start()
        let reading = await SessionProbe(session)
        let stuck = await SessionProbe(session)
        _ = try await reading.next()
        var peak = 0
        for step in 0..<200 {
            _ = try await reading.perform(.open(url: "tt://page/\(step)", from: nil, title: nil))
            peak = max(peak, stuck.queue.bytes)
            if stuck.queue.isFinished { break }
        }
        #expect(stuck.queue.isFinished)
        #expect(peak <= hub.pageQueueBytes)
        #expect(hub.count == 1)
        // The page that reads hears of it, with the next change.
        let next = try await reading.perform(.back)
        #expect(next.events.contains { $0["kind"] == "warning" && ($0["message"]?.stringValue?.contains("page \(stuck.id) was disconnected") ?? false) })
        // What the page that stopped had waiting is dropped, and it gets nothing more.
        #expect(stuck.queue.bytes == 0)
        #expect(try await stuck.next() == nil)
    }

    @Test func aQueueTakesOneMessageOfAnySizeAndEndsPastItsLimit() async {
        let queue = PageQueue(byteLimit: 100)
        #expect(queue.push(String(repeating: "a", count: 500)))
        #expect(!queue.push("b"))
        #expect(queue.isFinished)
        #expect(queue.bytes == 0)
        #expect(await queue.next() == nil)
        // A queue read as it fills holds nothing back.
        let read = PageQueue(byteLimit: 100)
        for index in 0..<50 {
            let text = String(repeating: "c", count: 60) + "\(index)"
            #expect(read.push(text))
            #expect(await read.next() == .text(text))
            // Taken but not yet written, it still counts.
            #expect(read.bytes == text.utf8.count)
            read.written(text.utf8.count)
        }
        #expect(!read.isFinished)
        // Taken and never written: the next message that does not fit ends the queue.
        let unwritten = PageQueue(byteLimit: 100)
        #expect(unwritten.push(String(repeating: "d", count: 60)))
        #expect(await unwritten.next() != nil)
        #expect(!unwritten.push(String(repeating: "e", count: 60)))
        #expect(unwritten.isFinished)
    }

    @Test func theEventLogKeepsWithinItsBytesDroppingTheOldestFirst() {
        var log = EventLog(byteLimit: 100_000)
        let big = Value.string(String(repeating: "x", count: 30_000))
        for index in 1...50 {
            _ = log.append({ SessionEvent(id: $0, kind: .open, outcome: .changed, at: Date(), url: "tt://page/\(index)") },
                           snapshot: EventLog.Snapshot(screen: big, tree: .string("tree \(index)"), state: nil))
            #expect(log.bytes <= log.byteLimit)
        }
        // Three trees of 30,000 bytes fit, with their events; the newest stay.
        #expect(log.events.count == 3)
        #expect(log.events.first?.id == 48)
        #expect(log.lastID == 50)
        #expect(log.snapshot(at: 47) == nil)
        #expect(log.snapshot(at: 48)?.tree == "tree 48")
        #expect(log.snapshot(at: 50)?.tree == "tree 50")
        // A tree larger than the whole limit is kept alone: the newest event is never dropped.
        let huge = Value.string(String(repeating: "y", count: 300_000))
        _ = log.append({ SessionEvent(id: $0, kind: .open, outcome: .changed, at: Date()) },
                       snapshot: EventLog.Snapshot(screen: huge, tree: "huge", state: nil))
        #expect(log.events.count == 1)
        #expect(log.snapshot(at: 51)?.tree == "huge")
        // Events without trees carry the tree in force as the older ones go.
        for _ in 0..<5 { _ = log.append({ SessionEvent(id: $0, kind: .back, outcome: .unchanged, at: Date()) }, snapshot: nil) }
        #expect(log.events.count == 1)
        #expect(log.snapshot(at: 56)?.tree == "huge")
    }
}
