import Foundation
import Testing
import Wayfinder
@testable import WayfinderServe

/// The devtools' links from outside (through the host's door for them), the open a guard keeps
/// waiting, and the state and event log exported and imported as files.
@Suite("serve: links and files")
struct ServeLinksAndFilesTests {
    static let source = """
        local wf = require "wayfinder"
        local Page = wf.controller "Page"
        function Page:initWithName(name) self.name = name end
        function Page:render() return { title = "Page " .. self.name, links = {} } end
        wf.map:from("tt://page/(initWithName:)", Page, { external = true })
        wf.map:from("tt://inside/(initWithName:)", Page)
        wf.map:from("tt://vault/(initWithName:)", Page, { external = true, guard = function() return false end })
        wf.app { name = "gate", root = "tt://page/home", link_prefixes = { ["https://gate.example.com/"] = "tt://" } }
        """

    static func app() throws -> ScratchDirectory {
        let directory = try ScratchDirectory()
        try directory.write("app.lua", source)
        return directory
    }

    @Test func aLinkGoesThroughTheDoorForLinksAndAGuardKeepsItWaitingInTheTreeTheLogAndThePhone() async throws {
        let app = try Self.app()
        let session = await startedSession(app.path)
        let page = await SessionProbe(session)
        _ = try await page.next()
        let opened = try await page.perform(.link(url: "https://gate.example.com/page/p"))
        #expect(opened.events.first?["kind"] == "link")
        #expect(opened.events.first?["outcome"] == "changed")
        #expect(opened[path: "screen", "visible"] == "tt://page/p")
        #expect(opened[path: "tree", "pending"] == .null)

        // Not external: refused at the door, though the URL bar would open it.
        let refused = try await page.perform(.link(url: "https://gate.example.com/inside/x"))
        #expect(refused.events.first?["outcome"] == "failed")
        #expect(refused.events.first?["message"] == "cannot open 'tt://inside/x' from outside the app: its route 'tt://inside/(initWithName:)' is not marked external")
        #expect(refused[path: "screen", "visible"] == "tt://page/p")

        let waiting = try await page.perform(.link(url: "https://gate.example.com/vault/v"))
        let event = try #require(waiting.events.first)
        #expect(event["kind"] == "link")
        #expect(event["outcome"] == "waiting")
        #expect(event["message"]?.stringValue?.contains("'tt://vault/v' waits: its guard stopped it") == true, "\(event)")
        #expect(waiting[path: "tree", "pending"] == ["url": "tt://vault/v", "from_outside": true])
        #expect(waiting[path: "screen", "pending"] == ["url": "tt://vault/v", "from_outside": true])
        #expect(waiting[path: "screen", "visible"] == "tt://page/p")
    }

    @Test func theStateExportsAsAStateFileAndImportsInParts() async throws {
        let app = try Self.app()
        let session = await startedSession(app.path)
        let page = await SessionProbe(session)
        _ = try await page.next()
        _ = try await page.perform(.open(url: "tt://page/two", from: nil, title: nil))
        let exported = try await page.perform(.export(.state))
        #expect(exported["type"] == "export")
        #expect(exported["name"] == "gate-state.json")
        let text = try #require(exported["text"]?.stringValue)
        let state = try FileStateStore.state(from: Data(text.utf8))
        #expect(state.app == "gate")

        _ = try await page.perform(.back)
        let middle = text.index(text.startIndex, offsetBy: text.count / 2)
        await session.perform(.importPart(.state, part: 1, parts: 2, text: String(text[..<middle])), from: page.id)
        let imported = try await page.perform(.importPart(.state, part: 2, parts: 2, text: String(text[middle...])))
        #expect(imported.events.first?["kind"] == "import")
        #expect(imported.events.first?["outcome"] == "changed")
        #expect(imported[path: "screen", "visible"] == "tt://page/two")
        #expect(imported[path: "screen", "layers", 0, "stack"]?.arrayValue?.count == 2)
    }

    @Test func aBadImportIsRefusedWithTheReasonAndChangesNothing() async throws {
        let app = try Self.app()
        let session = await startedSession(app.path)
        let page = await SessionProbe(session)
        _ = try await page.next()
        let state = try FileStateStore.text(of: NavigationState(app: "other", root: .stack([.init(url: "tt://page/x")])))
        let validLog = try await page.perform(.export(.log))["text"]?.stringValue ?? ""
        let badStateInLog = validLog.replacingOccurrences(of: #""format":"wayfinder.navigation""#, with: #""format":"wayfinder.nothing""#)
        for (file, text, reason) in [
            (SessionFile.state, "not json", "import: the file is not a valid state"),
            (.state, #"{"format":"something.else"}"#, "import: the file is not a valid state"),
            (.state, state, "import: the state is of the app 'other', not 'gate'"),
            (.log, "[]", "import: the file is no event log"),
            (.log, #"{"format":"wayfinder.event-log","version":2,"events":[]}"#, "this wayfinder reads version 1"),
            (.log, #"{"format":"wayfinder.event-log","version":1,"app":"gate","events":[{"id":1,"kind":"fly","outcome":"changed","at":"10:00:00.000"}]}"#,
             "events[1].kind is not a kind of event"),
            (.log, #"{"format":"wayfinder.event-log","version":1,"app":"gate","events":[{"id":2,"kind":"open","outcome":"changed","at":"10:00:00.000"},{"id":2,"kind":"open","outcome":"changed","at":"10:00:00.000"}]}"#,
             "events[2].id must be greater than the one before it"),
            (.log, badStateInLog, "events[1].snapshot.state is not a valid state"),
        ] {
            let answer = try await page.perform(.importPart(file, part: 1, parts: 1, text: text))
            #expect(answer["type"] == "refused", "\(text)")
            #expect(answer["reason"]?.stringValue?.contains(reason) == true, "\(answer)")
        }
        for (text, reason) in [
            (#"{"type":"export","what":"tree"}"#, #"export: "what" must be "state" or "log", not 'tree'"#),
            (#"{"type":"import","what":"state","part":0,"parts":1,"text":""}"#, #"import: "part" must be from 1 to 1"#),
            (#"{"type":"import","what":"state","part":1,"parts":5000,"text":""}"#, #"import: "parts" must be from 1 to 4096"#),
            (#"{"type":"import","what":"log","part":1,"parts":1}"#, #"import: "text" must be a string"#),
            (#"{"type":"link"}"#, #"link: "url" must be a string"#),
        ] {
            let answer = try await page.send(text)
            #expect(answer["reason"] == .string(reason), "\(answer)")
        }
        let outOfOrder = try await page.perform(.importPart(.state, part: 2, parts: 3, text: "{"))
        #expect(outOfOrder["reason"]?.stringValue?.contains("came without part 1") == true, "\(outOfOrder)")
        let piece = String(repeating: "x", count: 1 << 20)
        for part in 1...16 { await session.perform(.importPart(.log, part: part, parts: 17, text: piece), from: page.id) }
        let tooLarge = try await page.perform(.importPart(.log, part: 17, parts: 17, text: piece))
        #expect(tooLarge["reason"]?.stringValue?.contains("larger than \(SessionImport.maximumBytes) bytes") == true, "\(tooLarge)")

        // Nothing was recorded or changed meanwhile: the next step is the only new event.
        let next = try await page.perform(.open(url: "tt://page/after", from: nil, title: nil))
        #expect(next.events.count == 1)
        #expect(next.events.first?["id"] == 2)
        #expect(next[path: "screen", "layers", 0, "stack"]?.arrayValue?.count == 2)
    }

    @Test func onlyOneImportIsUnderWayInASession() async throws {
        let app = try Self.app()
        let session = await startedSession(app.path)
        let first = await SessionProbe(session)
        let second = await SessionProbe(session)
        _ = try await first.next()
        _ = try await second.next()
        let text = try #require(try await second.perform(.export(.state))["text"]?.stringValue)
        await session.perform(.importPart(.state, part: 1, parts: 2, text: String(text.prefix(10))), from: first.id)
        // The second page's import ends the first page's.
        let imported = try await second.perform(.importPart(.state, part: 1, parts: 1, text: text))
        #expect(imported.events.first?["kind"] == "import")
        await session.perform(.importPart(.state, part: 2, parts: 2, text: String(text.dropFirst(10))), from: first.id)
        let refused = try await first.first { $0["type"] == "refused" }
        #expect(refused["reason"] == "import: part 2 of 2 came without part 1")
    }

    @Test func theEventLogRoundTripsWithItsTreesForTimeTravel() async throws {
        let app = try Self.app()
        let session = await startedSession(app.path)
        let page = await SessionProbe(session)
        _ = try await page.next()
        let opened = try await page.perform(.open(url: "tt://page/two", from: nil, title: nil))
        let openID = try #require(opened.events.first?["id"]?.intValue)
        let exported = try await page.perform(.export(.log))
        #expect(exported["name"] == "gate-log.json")
        let text = try #require(exported["text"]?.stringValue)

        let other = await startedSession(app.path)
        let elsewhere = await SessionProbe(other)
        _ = try await elsewhere.next()
        let imported = try await elsewhere.perform(.importPart(.log, part: 1, parts: 1, text: text))
        #expect(imported["reset"] == true)
        let kinds = imported.events.map { $0["kind"]?.stringValue ?? "" }
        #expect(kinds == ["launch", "open", "import"])
        #expect(imported.events[1]["url"] == "tt://page/two")
        let then = try await elsewhere.perform(.inspect(event: Int(openID)))
        #expect(then[path: "screen", "visible"] == "tt://page/two")
        let restored = try await elsewhere.perform(.restore(event: Int(openID)))
        #expect(restored[path: "screen", "visible"] == "tt://page/two")
    }
}
