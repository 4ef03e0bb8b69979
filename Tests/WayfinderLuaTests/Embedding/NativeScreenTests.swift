import Foundation
import OrderedCollections
import Testing
import Wayfinder
@testable import WayfinderLua

/// Native screens (docs/embedding.md, "Native screens"): a route whose target is
/// `wf.native "Camera"` opens a screen Swift makes; it lives in the tree as any entry does, is
/// saved and restored with what it keeps, and a name the host makes no screen for is an error
/// at the script's line.
@Suite("Native screens")
struct NativeScreenTests {
    final class Camera: NativeScreen {
        let request: NativeScreenRequest
        var zoom: Int
        var title: String? { "Camera at table \(request.params["table"]?.intValue ?? 0)" }

        init(_ request: NativeScreenRequest) {
            self.request = request
            zoom = Int(request.state?["zoom"]?.intValue ?? 1)
        }

        func savedState() -> [String: Value] { ["zoom": .int(Int64(zoom))] }
    }

    /// What the factory was asked, in order, and the screens it made (held weakly: the tree owns
    /// them).
    final class Factory {
        var requests: [NativeScreenRequest] = []
        var failing: String?
        private var made: [() -> Camera?] = []

        var screens: [String: NativeScreenFactory] {
            ["Camera": { [unowned self] request in
                if let failing { throw Failure(reason: failing) }
                requests.append(request)
                let camera = Camera(request)
                made.append { [weak camera] in camera }
                return camera
            }]
        }

        var living: Int { made.filter { $0() != nil }.count }

        struct Failure: Error, CustomStringConvertible {
            let reason: String
            var description: String { reason }
        }
    }

    static let app = """
        local wf = require "wayfinder"
        local Menu = wf.controller "Menu"
        function Menu:init() self.context:set("waiter", "Betty") end
        function Menu:render() return { title = "Menu" } end
        wf.context.app:set("guest", "Ann")
        wf.map:from("tt://menu", Menu, { mode = "share" })
        wf.map:from("tt://camera/(table:int)", wf.native "Camera", { mode = "modal" })
        wf.app { name = "diner", root = "tt://menu" }
        """

    @Test func openingItsRouteAsksTheFactoryWithTheRoute() throws {
        let factory = Factory()
        let app = try EmbeddedApp(Self.app, native: factory.screens)
        try app.host.launch()
        let controller = try #require(try app.host.open("tt://camera/4?light=low#flash"))
        let request = try #require(factory.requests.first)
        #expect(factory.requests.count == 1)
        #expect(request.name == "Camera")
        #expect(request.url == "tt://camera/4?light=low#flash")
        #expect(request.pattern == "tt://camera/(table:int)")
        #expect(request.params == ["table": .int(4)])
        #expect(request.query == ["light": "low"])
        #expect(request.fragment == "flash")
        // Its context is a layer over the menu's, which ends in the app context.
        #expect(request.context == ["waiter": "Betty", "guest": "Ann"])
        #expect(request.state == nil)
        // The entry holds the factory's very object; Lua sees a controller named for it.
        let camera = try #require(controller.nativeScreen as? Camera)
        #expect(camera.request.url == request.url)
        #expect(app.host.describe(controller) == "Camera")
        #expect(try app.host.render(controller)?.title == "Camera at table 4")
        #expect(try app.run("""
            local top = wayfinder.navigator:top()
            return top:render().title, top.url, top.context:get("waiter"), tostring(top):match("^Camera") ~= nil
            """) == [.string("Camera at table 4"), .string("tt://camera/4?light=low#flash"), .string("Betty"), .bool(true)])
        #expect(app.host.current.navigator.tree.modals.count == 1)
    }

    @Test func aScreenWithoutATitleIsShownByItsName() throws {
        final class Plain: NativeScreen {}
        let app = try EmbeddedApp("local wf = require 'wayfinder'\nwf.map:from('tt://map', wf.native 'Map')",
                                  native: ["Map": { _ in Plain() }])
        let controller = try #require(try app.host.open("tt://map"))
        #expect(controller.nativeScreen is Plain)
        #expect(try app.host.render(controller)?.title == "Map")
        // Nothing to keep: its entry is saved by its URL.
        #expect(try app.run("local state = {}; wayfinder.navigator:top():persist(state); return next(state) == nil") == [.bool(true)])
    }

    @Test func backTakesItOutOfTheTreeAndLetsItGo() throws {
        let factory = Factory()
        let app = try EmbeddedApp(Self.app, native: factory.screens)
        try app.host.launch()
        try app.host.open("tt://camera/1")
        #expect(factory.living == 1)
        #expect(try app.host.dismiss())
        #expect(app.host.current.navigator.top.map(app.host.describe) == "Menu")
        try app.host.current.state.collectGarbage()
        #expect(factory.living == 0)
    }

    /// The request a factory is handed holds copies of what the script gave (the action's state,
    /// here), which the screen may keep: charged to the memory limit, beside its entry's own copy,
    /// while its controller lives, and given back when it leaves.
    @Test func whatItsRequestHoldsIsChargedWhileItLives() throws {
        let factory = Factory()
        let app = try EmbeddedApp(Self.app + "\nbig = string.rep('s', 1 << 20)", native: factory.screens)
        try app.host.launch()
        let state = app.host.current.state
        try state.collectGarbage()
        let before = state.memoryInUse
        try app.run("assert(wayfinder.navigator:open { url = 'tt://camera/2', state = { big = big } })")
        try state.collectGarbage()
        let open = state.memoryInUse
        #expect(factory.requests.last?.state?["big"]?.stringValue?.utf8.count == 1 << 20)
        #expect(open - before >= 2 << 20, "the entry's copy and the request's: \(before) -> \(open)")
        #expect(try app.host.dismiss())
        try state.collectGarbage()
        #expect(open - state.memoryInUse >= 2 << 20, "\(open) -> \(state.memoryInUse)")
        // A factory that fails gives the request's charge back at once.
        factory.failing = "no camera"
        #expect(try app.run("return (wayfinder.navigator:open { url = 'tt://camera/3', state = { big = big } })") == [.null])
        try state.collectGarbage()
        #expect(abs(state.memoryInUse - (before)) < 64 << 10, "\(before) -> \(state.memoryInUse)")
    }

    @Test func itIsSavedAndRestoredWithWhatItKeeps() throws {
        let factory = Factory()
        let store = MemoryStateStore()
        let app = try EmbeddedApp(Self.app, native: factory.screens, store: store)
        try app.host.launch()
        let controller = try #require(try app.host.open("tt://camera/7"))
        (controller.nativeScreen as? Camera)?.zoom = 5
        try app.host.relaunch()
        // The relaunched app made the visible camera again, from what it saved.
        #expect(factory.requests.count == 2)
        let restored = try #require(factory.requests.last)
        #expect(restored.url == "tt://camera/7")
        #expect(restored.params == ["table": .int(7)])
        #expect(restored.state == ["zoom": 5])
        let camera = try #require(app.top?.nativeScreen as? Camera)
        #expect(camera.zoom == 5)
        #expect(try app.host.render(try #require(app.top))?.title == "Camera at table 7")
    }

    @Test func aHotReloadMakesItAgainWithItsState() throws {
        let factory = Factory()
        let app = try EmbeddedApp(Self.app, native: factory.screens)
        try app.host.launch()
        (try app.host.open("tt://camera/2")?.nativeScreen as? Camera)?.zoom = 4
        try app.host.reload()
        #expect(factory.requests.count == 2)
        #expect(factory.requests.last?.state == ["zoom": 4])
        #expect((app.top?.nativeScreen as? Camera)?.zoom == 4)
    }

    @Test func aFactorysErrorFailsTheOpenAndChangesNothing() throws {
        let factory = Factory()
        let app = try EmbeddedApp(Self.app, native: factory.screens)
        try app.host.launch()
        let before = app.host.current.navigator.tree.snapshot
        factory.failing = "the camera is in use"
        let message = thrownMessage { try app.host.open("tt://camera/3") }
        #expect(message?.contains("the native screen 'Camera' could not be made: the camera is in use") == true, "\(message ?? "")")
        #expect(app.host.current.navigator.tree.snapshot == before)
        // From Lua, the open answers nil and the reason.
        let answer = try app.run("local ok, reason = wayfinder.navigator:open('tt://camera/3'); return ok == nil, reason")
        #expect(answer.first == .bool(true))
        #expect(answer.last?.stringValue?.contains("the camera is in use") == true)
    }

    @Test func aNameTheHostMakesNoScreenForIsAnErrorAtTheScriptsLine() throws {
        let factory = Factory()
        let typo = thrownMessage {
            _ = try EmbeddedApp("local wf = require 'wayfinder'\nwf.map:from('tt://cam', wf.native 'Kamera')", native: factory.screens)
        }
        #expect(typo == "app.lua:2: wf.native: no native screen is named 'Kamera' (this host makes: Camera)")
        let none = thrownMessage { _ = try EmbeddedApp("local wf = require 'wayfinder'\nlocal Camera = wf.native 'Camera'") }
        #expect(none == "app.lua:2: wf.native: no native screen is named 'Camera' (this host makes none: a Swift host registers them by name, docs/embedding.md)")
        let notAName = thrownMessage { _ = try EmbeddedApp("local wf = require 'wayfinder'\n\nwf.native(42)", native: factory.screens) }
        #expect(notAName == "app.lua:3: wf.native needs a native screen's name (a string), got number")
        let action = thrownMessage {
            _ = try EmbeddedApp("local wf = require 'wayfinder'\nwf.map:from('tt://cam', wf.native 'Camera', { mode = 'none' })", native: factory.screens)
        }
        #expect(action == "app.lua:2: map:from('tt://cam'): the native screen 'Camera' cannot be an action (mode none)")
        #expect(factory.requests.isEmpty)
    }

    @Test("make takes the declared fields alone: another is named, at the caller's line, and no screen is made")
    func makeRefusesAFieldItDoesNotDeclare() throws {
        let factory = Factory()
        let app = try EmbeddedApp(Self.app, native: factory.screens)
        // The native module is the bundled modules' only; lent again under a name the test can reach.
        try app.host.current.state.registerLibrary("probe.screens", NativeScreenBinding.functions.filter { $0.0 == "make" })
        let unknown = thrownMessage {
            try app.run("local make = require('probe.screens').make\nreturn make { name = 'Camera', url = 'tt://camera/1', colour = 'red' }")
        }
        let known = NativeScreenField.names.joined(separator: ", ")
        #expect(unknown == "probe.lua:2: bad argument #1 to 'probe.screens.make' (unknown field 'colour' (known: \(known)))")
        #expect(factory.requests.isEmpty)
        let made = try app.run("local make = require('probe.screens').make\nreturn make { name = 'Camera', url = 'tt://camera/1' }")
        #expect(made.count == 1 && !made[0].isNull)
        #expect(factory.requests.map(\.url) == ["tt://camera/1"])
    }

    @Test func aNameThatCannotBeOneIsRefusedWhenTheHostIsMade() throws {
        for name in ["", "Camera view", "Camera\n", "Kamera/1"] {
            let message = thrownMessage {
                _ = try EmbeddedApp("local wf = require 'wayfinder'", native: [name: { _ in throw Factory.Failure(reason: "never asked") }])
            }
            #expect(message == "cannot register the native screen '\(name)': a native screen's name is letters, digits, underscores, dots and dashes (as in 'Camera')")
        }
    }

    @Test func theRouteListNamesItsTarget() throws {
        let factory = Factory()
        let app = try EmbeddedApp(Self.app, native: factory.screens)
        let camera = try #require(try app.host.current.routeReports().first { $0.pattern.text == "tt://camera/(table:int)" })
        #expect(camera.target == "native screen Camera")
        #expect(camera.method == nil)
        #expect(try app.run("return wayfinder.native 'Camera' == wayfinder.native 'Camera'") == [.bool(true)])
    }
}
