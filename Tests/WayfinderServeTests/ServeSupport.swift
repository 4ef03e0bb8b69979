import FlyingFox
import Foundation
import Testing
import Wayfinder
@testable import WayfinderServe

/// A fresh directory, removed when the value goes.
final class ScratchDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-serve-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func write(_ name: String, _ text: String) throws {
        let url = URL(fileURLWithPath: path).appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Written as editors save, by rename: a watcher never sees the file half written.
        try Data(text.utf8).write(to: url, options: .atomic)
    }
}

/// A small app with the shapes the simulator draws: two tabs, pages that push, a sheet (modal),
/// a tip (popover), a constructor that raises, and a link that goes outside the app.
enum TestApp {
    static let source = """
        local wf = require "wayfinder"

        local Page = wf.controller "Page"
        function Page:initWithName(name) self.name = name end
        function Page:render()
          print("rendering " .. self.name)
          return {
            title = "Page " .. self.name,
            lines = { "This is page " .. self.name .. "." },
            links = { { "Next", "tt://page/" .. self.name .. "x" }, { "Sheet", "tt://sheet/s" }, { "Call", "tel:555" } },
          }
        end

        local Broken = wf.controller "Broken"
        function Broken:initWithNumber(n)
          error("broken constructor " .. n)
        end

        wf.map:from("tt://page/(initWithName:)", Page)
        wf.map:from("tt://sheet/(initWithName:)", Page, { mode = "modal" })
        wf.map:from("tt://tip/(initWithName:)", Page, { mode = "popover" })
        wf.map:from("tt://broken/(initWithNumber:)", Broken)
        wf.app { name = "serve-test", tabs = { "tt://page/a", "tt://page/b" } }
        """

    /// The app written into a new directory.
    static func make() throws -> ScratchDirectory {
        let directory = try ScratchDirectory()
        try directory.write("app.lua", source)
        return directory
    }
}

/// A page attached to a session without a network: what the session pushes to it, message by
/// message, as JSON values.
final class SessionProbe {
    let session: ServeSession
    let id: Int
    let queue: PageQueue

    init(_ session: ServeSession) async {
        self.session = session
        queue = session.hub.makeQueue()
        id = await session.attach(queue)
    }

    /// The first message that passes `test`, waiting at most `limit` (an outer guard, not a
    /// measure): past it the stream is ended and the test fails.
    func first(within limit: Duration = .seconds(60), where test: (Value) -> Bool) async throws -> Value {
        let queue = queue
        let guardTask = Task {
            try await Task.sleep(for: limit)
            queue.finish()
        }
        defer { guardTask.cancel() }
        while let message = try await next() {
            if test(message) { return message }
        }
        Issue.record("no such message within \(limit)")
        throw CancellationError()
    }

    /// The next message; nil when the stream ended.
    func next() async throws -> Value? {
        guard let message = await queue.next() else { return nil }
        if case .text(let text) = message { queue.written(text.utf8.count) }
        guard case .text(let text) = message else { Issue.record("a message that is not text"); return nil }
        return try JSON.decode(text)
    }

    /// Performs `command` and returns the message it made.
    func perform(_ command: ClientCommand) async throws -> Value {
        await session.perform(command, from: id)
        return try #require(try await next())
    }

    /// Sends `text` as the page would.
    func send(_ text: String) async throws -> Value {
        await session.receive(text, from: id)
        return try #require(try await next())
    }
}

extension Value {
    /// The value at a path of keys (maps) and 0-based indexes (arrays).
    subscript(path path: Any...) -> Value? {
        var current: Value? = self
        for step in path {
            if let key = step as? String { current = current?[key] }
            else if let index = step as? Int, case .array(let items)? = current { current = items.indices.contains(index) ? items[index] : nil }
            else { return nil }
        }
        return current
    }

    var events: [Value] { self["events"]?.arrayValue ?? [] }
}

/// A session on `app` with no state file, started.
func startedSession(_ app: String) async -> ServeSession {
    let session = ServeSession(options: ServeOptions(app: app, state: .none), hub: ClientHub())
    await session.start()
    return session
}

/// Serves the test app within `budget` while `body` runs, stopped afterwards whatever happened.
func serving<T>(_ budget: ServeBudget = .standard, hub: ClientHub = ClientHub(),
                _ body: (ServeServerTests.Address, SimulatorServer) async throws -> T) async throws -> T {
    let app = try TestApp.make()
    let session = ServeSession(options: ServeOptions(app: app.path, state: .none), hub: hub)
    await session.start()
    let server = try SimulatorServer(session: session, budget: budget)
    let port = try await server.start()
    do {
        let result = try await body(ServeServerTests.Address(port: port, token: server.token.text), server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// Runs `body` on a thread of its own and waits for it, so a blocking client does not hold up
/// the server's tasks.
func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
