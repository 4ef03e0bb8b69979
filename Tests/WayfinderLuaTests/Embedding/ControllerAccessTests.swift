import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua

/// Swift reads a Lua controller's fields and calls its methods (docs/embedding.md, "Reading a
/// controller") through the protection every call into Lua has: the time budget, the memory
/// limit, and errors that name the script's file and line.
@Suite("Reading and calling a controller")
struct ControllerAccessTests {
    static let app = """
        local wf = require "wayfinder"
        local Base = wf.controller "Base"
        function Base:kind() return "a " .. self.name end

        local Order = wf.controller("Order", Base)
        function Order:initWithWaitress(name)
          self.name = name
          self.dishes = { "pizza" }
          self.total = { euros = 12, cents = 50 }
        end
        function Order:add(dish, count)
          for _ = 1, count or 1 do self.dishes[#self.dishes + 1] = dish end
          return #self.dishes, self.dishes
        end
        function Order:refuse(why)
          error("cannot take " .. why)
        end
        function Order:wait() while true do end end
        function Order:hoard()
          local t = {}
          for i = 1, 1e9 do t[i] = string.rep("x", 1024) .. i end
        end
        function Order:loop() local t = {}; t.self = t; return t end
        wf.map:from("tt://order/(initWithWaitress:)", Order)
        """

    func order(_ limits: LuaLimits = LuaLimits(memoryBytes: 16 << 20, timeBudget: .milliseconds(200))) throws -> (EmbeddedApp, LuaController) {
        let app = try EmbeddedApp(Self.app, limits: limits)
        let controller = try #require(try app.host.open("tt://order/Betty"))
        return (app, controller)
    }

    @Test func fieldsAreReadAsAScriptReadsThem() throws {
        let (app, order) = try order()
        #expect(try app.host.field("name", of: order) == "Betty")
        #expect(try app.host.field("dishes", of: order) == ["pizza"])
        #expect(try app.host.field("total", of: order) == ["euros": 12, "cents": 50])
        #expect(try app.host.field("url", of: order) == "tt://order/Betty")
        #expect(try app.host.field("nothing", of: order) == .null)
        // A method, found through the class and its base, is a function held by reference.
        guard case .handle(let method) = try app.host.field("kind", of: order) else {
            Issue.record("kind is not a handle")
            return
        }
        #expect(method.kind == "function")
        guard case .handle(let context) = try app.host.field("context", of: order) else {
            Issue.record("context is not a handle")
            return
        }
        #expect(context.kind == "table")
    }

    @Test func methodsAreCalledWithArgumentsAndAnswerWhatTheyReturn() throws {
        let (app, order) = try order()
        #expect(try app.host.call("kind", on: order) == ["a Betty"])
        #expect(try app.host.call("add", on: order, with: ["soup", 2]) == [3, ["pizza", "soup", "soup"]])
        #expect(try app.host.field("dishes", of: order) == ["pizza", "soup", "soup"])
    }

    @Test func aMethodsErrorNamesItsFileAndLine() throws {
        let (app, order) = try order()
        do {
            try app.host.call("refuse", on: order, with: ["cash"])
            Issue.record("refuse did not throw")
        } catch {
            #expect(error.kind == .runtime)
            #expect(error.message == "app.lua:16: cannot take cash")
            #expect(error.file == "app.lua" && error.line == 16)
            #expect(error.traceback?.contains("app.lua:16") == true)
        }
        // A field that is not a method says so.
        do {
            try app.host.call("name", on: order)
            Issue.record("name was called")
        } catch {
            #expect(error.message == "Order.name is a string, not a method")
        }
        do {
            try app.host.call("missing", on: order)
            Issue.record("missing was called")
        } catch {
            #expect(error.message == "Order.missing is a nil, not a method")
        }
        // The app goes on.
        #expect(try app.host.call("kind", on: order) == ["a Betty"])
    }

    @Test func aMethodIsHeldToTheBudgetAndTheMemoryLimit() throws {
        let (app, order) = try order()
        do {
            try app.host.call("wait", on: order)
            Issue.record("wait returned")
        } catch {
            #expect(error.kind == .timeout)
            #expect(error.file == "app.lua" && error.line == 18, "\(error.message)")
        }
        do {
            try app.host.call("hoard", on: order)
            Issue.record("hoard returned")
        } catch {
            // The call ran in the host's coroutine: Lua's own memory error names the line too.
            #expect(error.kind == .memory)
            #expect(error.message == "app.lua:21: memory limit of 16 MiB reached")
            #expect(error.traceback?.contains("app.lua:21: in function <app.lua:19>") == true, "\(error.traceback ?? "")")
        }
        #expect(app.host.current.state.memoryInUse <= 16 << 20)
        #expect(try app.host.call("kind", on: order) == ["a Betty"])
    }

    /// A program's observer of navigation events that reads the controller an event names goes
    /// through the same protection, while the navigator tells it.
    @Test func anObserverReadsTheControllerUnderTheSameLimits() throws {
        let app = try EmbeddedApp(Self.app, limits: LuaLimits(memoryBytes: 16 << 20, timeBudget: .milliseconds(200)))
        final class Seen { var kinds: [Value] = []; var failures: [ScriptError] = [] }
        let seen = Seen()
        let host = app.host
        host.observe { event in
            guard case .pushed(let entry, _) = event.change, let controller = host.controller(for: entry) else { return }
            do throws(ScriptError) {
                seen.kinds += try host.call("kind", on: controller)
                try host.call("hoard", on: controller)
            } catch {
                seen.failures.append(error)
            }
        }
        try host.open("tt://order/Betty")
        #expect(seen.kinds == ["a Betty"])
        #expect(seen.failures.map(\.message) == ["app.lua:21: memory limit of 16 MiB reached"])
        #expect(host.current.state.memoryInUse <= 16 << 20)
    }

    @Test func anAnswerThatIsNotDataFailsAsAConversion() throws {
        let (app, order) = try order()
        do {
            try app.host.call("loop", on: order)
            Issue.record("loop's table crossed")
        } catch {
            #expect(error.kind == .conversion)
            #expect(error.message == "result 1: at self: table contains itself (a cycle)")
        }
    }

    @Test func aControllerOfTheAppBeforeAReloadIsRefused() throws {
        let (app, order) = try order()
        try app.host.reload()
        do {
            _ = try app.host.field("name", of: order)
            Issue.record("an old controller was read")
        } catch {
            #expect(error.kind == .conversion)
            #expect(error.message.contains("does not belong to this Lua state"), "\(error.message)")
        }
        // The controller the reload made in its place is read as before.
        #expect(try app.host.field("name", of: try #require(app.top)) == "Betty")
    }
}
