import FlyingFox
import Foundation
import Testing
import Wayfinder
@testable import WayfinderServe

@Suite("serve session")
struct ServeSessionTests {
    @Test func aPageGetsTheWholeStateWhenItConnects() async throws {
        let app = try TestApp.make()
        let session = await startedSession(app.path)
        let page = await SessionProbe(session)
        let welcome = try #require(try await page.next())
        #expect(welcome["type"] == "state")
        #expect(welcome["reset"] == true)
        #expect(welcome[path: "screen", "visible"] == "tt://page/a")
        #expect(welcome[path: "screen", "layers", 0, "screen", "title"] == "Page a")
        #expect(welcome[path: "screen", "layers", 0, "screen", "lines", 0] == "This is page a.")
        #expect(welcome[path: "screen", "tabs", 1, "title"] == "tt://page/b")
        #expect(welcome[path: "screen", "tabs", 0, "selected"] == true)
        #expect(welcome[path: "tree", "root", "tabs", 1, "entries", 0, "made"] == false)
        #expect(welcome.events.first?["kind"] == "launch")
        #expect(welcome["routes"]?.arrayValue?.count == 4)
        #expect(welcome["failure"] == .null)
    }

    @Test func anOpenIsPushedWithItsRouteParamsAndTheNewScreen() async throws {
        let app = try TestApp.make()
        let session = await startedSession(app.path)
        let page = await SessionProbe(session)
        _ = try await page.next()
        let update = try await page.send(#"{"type":"open","url":"tt://page/ax","from":"tt://page/a","title":"Next"}"#)
        #expect(update["reset"] == false)
        let open = try #require(update.events.first)
        #expect(open["kind"] == "open")
        #expect(open["outcome"] == "changed")
        #expect(open["url"] == "tt://page/ax")
        #expect(open[path: "route", "pattern"] == "tt://page/(initWithName:)")
        #expect(open[path: "route", "params", "initWithName"] == "ax")
        #expect(open["ms"]?.doubleValue != nil)
        // What the render printed follows the open that caused it.
        #expect(update.events.dropFirst().contains { $0["kind"] == "print" && $0["message"] == "rendering ax" })
        let layer = try #require(update[path: "screen", "layers", 0])
        #expect(layer[path: "screen", "title"] == "Page ax")
        #expect(layer[path: "stack", 0, "title"] == "Page a")
        #expect(layer["stack"]?.arrayValue?.count == 2)
        // The link followed is an edge of the flow graph, marked so.
        let edges = update[path: "flow", "edges"]?.arrayValue ?? []
        #expect(edges.contains { $0["followed"] == true && $0["label"] == "Next" })
    }

    @Test func backDismissAndSelectSayWhenThereIsNothingToDo() async throws {
        let app = try TestApp.make()
        let session = await startedSession(app.path)
        let page = await SessionProbe(session)
        _ = try await page.next()
        let back = try await page.perform(.back)
        #expect(back.events.first?["outcome"] == "unchanged")
        #expect(back.events.first?["message"] == "nothing to go back to")
        let dismiss = try await page.perform(.dismiss)
        #expect(dismiss.events.first?["message"] == "nothing to dismiss")
        let select = try await page.perform(.select(tab: 9))
        #expect(select.events.first?["message"] == "tab 9: there is no tab 9")
        let second = try await page.perform(.select(tab: 2))
        #expect(second.events.first?["outcome"] == "changed")
        #expect(second[path: "screen", "tabs", 1, "selected"] == true)
        #expect(second[path: "screen", "layers", 0, "screen", "title"] == "Page b")
    }

    @Test func modalsArePushedAsSheetsAndThePopoverAsABubble() async throws {
        let app = try TestApp.make()
        let session = await startedSession(app.path)
        let page = await SessionProbe(session)
        _ = try await page.next()
        let sheet = try await page.perform(.open(url: "tt://sheet/s", from: nil, title: nil))
        #expect(sheet[path: "screen", "layers", 1, "kind"] == "modal")
        #expect(sheet[path: "screen", "layers", 1, "screen", "title"] == "Page s")
        let tip = try await page.perform(.open(url: "tt://tip/t", from: nil, title: nil))
        #expect(tip[path: "screen", "layers", 2, "kind"] == "popover")
        #expect(tip[path: "tree", "popover", 0, "url"] == "tt://tip/t")
        let closed = try await page.perform(.dismiss)
        #expect(closed[path: "screen", "layers"]?.arrayValue?.count == 2)
        let dismissed = try await page.perform(.dismiss)
        #expect(dismissed[path: "screen", "layers"]?.arrayValue?.count == 1)
    }

    @Test func aFailedOpenIsAnEventWithTheTracebackAndChangesNothing() async throws {
        let app = try TestApp.make()
        let session = await startedSession(app.path)
        let page = await SessionProbe(session)
        _ = try await page.next()
        let failed = try await page.perform(.open(url: "tt://broken/7", from: nil, title: nil))
        let event = try #require(failed.events.first)
        #expect(event["outcome"] == "failed")
        #expect(event["message"]?.stringValue?.contains("app.lua:16: broken constructor 7") == true, "\(event)")
        #expect(event["traceback"]?.stringValue?.hasPrefix("stack traceback:") == true)
        #expect(failed[path: "screen", "visible"] == "tt://page/a")
        let nowhere = try await page.perform(.open(url: "tt://nowhere", from: nil, title: nil))
        #expect(nowhere.events.first?["message"] == "cannot open 'tt://nowhere': no route matches")
        // The session still works.
        let next = try await page.perform(.open(url: "tt://page/z", from: nil, title: nil))
        #expect(next[path: "screen", "visible"] == "tt://page/z")
    }

    @Test func anExternalURLIsSaidToOpenOutsideTheApp() async throws {
        let app = try TestApp.make()
        let session = await startedSession(app.path)
        let page = await SessionProbe(session)
        let welcome = try #require(try await page.next())
        #expect(welcome[path: "screen", "layers", 0, "screen", "links", 2, "external"] == true)
        #expect(welcome[path: "screen", "layers", 0, "screen", "links", 0, "external"] == false)
        let call = try await page.perform(.open(url: "tel:555", from: "tt://page/a", title: "Call"))
        #expect(call.events.contains { $0["kind"] == "external" && $0["url"] == "tel:555" && $0["message"] == "opened outside the app" })
        #expect(call.events.first?["outcome"] == "unchanged")
    }

    @Test func timeTravelShowsAnEarlierTreeAndRestoreMakesItTheAppsAgain() async throws {
        let app = try TestApp.make()
        let session = await startedSession(app.path)
        let page = await SessionProbe(session)
        let welcome = try #require(try await page.next())
        let launch = try #require(welcome.events.first?["id"]?.intValue)
        let deeper = try await page.perform(.open(url: "tt://page/ax", from: nil, title: nil))
        let opened = try #require(deeper.events.first?["id"]?.intValue)
        _ = try await page.perform(.open(url: "tt://page/axx", from: nil, title: nil))

        let then = try await page.perform(.inspect(event: Int(opened)))
        #expect(then["type"] == "inspect")
        #expect(then[path: "screen", "visible"] == "tt://page/ax")
        #expect(then[path: "tree", "root", "tabs", 0, "entries"]?.arrayValue?.count == 2)
        let atLaunch = try await page.perform(.inspect(event: Int(launch)))
        #expect(atLaunch[path: "screen", "visible"] == "tt://page/a")

        let restored = try await page.perform(.restore(event: Int(opened)))
        #expect(restored.events.first?["kind"] == "restore")
        #expect(restored.events.first?["outcome"] == "changed")
        #expect(restored[path: "screen", "visible"] == "tt://page/ax")
        #expect(restored[path: "screen", "layers", 0, "stack"]?.arrayValue?.count == 2)

        let unknown = try await page.perform(.inspect(event: 999))
        #expect(unknown["type"] == "refused")
        let badRestore = try await page.perform(.restore(event: 999))
        #expect(badRestore.events.first?["outcome"] == "failed")
    }

    @Test func explainAnswersTheAskingPage() async throws {
        let app = try TestApp.make()
        let session = await startedSession(app.path)
        let page = await SessionProbe(session)
        _ = try await page.next()
        let answer = try await page.perform(.explain(url: "tt://sheet/q"))
        #expect(answer["type"] == "explain")
        #expect(answer[path: "report", "pattern"] == "tt://sheet/(initWithName:)")
        #expect(answer[path: "report", "params", "initWithName"] == "q")
        #expect(answer[path: "explain", 0, "verdict"] == "won")
        let none = try await page.perform(.explain(url: "tt://nothing/here"))
        #expect(none[path: "report", "matched"] == false)
        let outside = try await page.perform(.explain(url: "mailto:a@b.c"))
        #expect(outside[path: "report", "external"] == true)
    }

    @Test func badMessagesAreRefusedWithTheReasonAndTheSessionGoesOn() async throws {
        let app = try TestApp.make()
        let session = await startedSession(app.path)
        let page = await SessionProbe(session)
        _ = try await page.next()
        for (text, reason) in [
            ("not json", "the message is not JSON"),
            ("[1,2]", "the message is not a JSON object"),
            (#"{"url":"tt://page/a"}"#, "the message has no \"type\" string"),
            (#"{"type":"fly"}"#, "unknown message type 'fly'"),
            (#"{"type":"open"}"#, "open: \"url\" must be a string"),
            (#"{"type":"open","url":5}"#, "open: \"url\" must be a string"),
            (#"{"type":"select","tab":"2"}"#, "select: \"tab\" must be an integer"),
            (#"{"type":"inspect","event":-1}"#, "inspect: there is no event -1"),
            (#"{"type":"open","url":"tt://page/a","from":3}"#, "open: \"from\" must be a string"),
            (String(repeating: " ", count: ClientCommand.maximumLength + 1), "longer than"),
        ] {
            let answer = try await page.send(text)
            #expect(answer["type"] == "refused", "\(text)")
            #expect(answer["reason"]?.stringValue?.contains(reason) == true, "\(text): \(answer)")
        }
        let next = try await page.perform(.open(url: "tt://page/ok", from: nil, title: nil))
        #expect(next[path: "screen", "visible"] == "tt://page/ok")
    }

    @Test func everyPageGetsEveryChange() async throws {
        let app = try TestApp.make()
        let session = await startedSession(app.path)
        let first = await SessionProbe(session)
        let second = await SessionProbe(session)
        _ = try await first.next()
        _ = try await second.next()
        let seen = try await first.perform(.open(url: "tt://page/shared", from: nil, title: nil))
        let alsoSeen = try #require(try await second.next())
        #expect(seen["seq"] == alsoSeen["seq"])
        #expect(alsoSeen[path: "screen", "visible"] == "tt://page/shared")
    }
}
