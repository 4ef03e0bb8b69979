import Wayfinder
import WayfinderLua

/// `app:tap`, `app:fill` and `app:see` of `wf.testing` (docs/testing.md, "Acting on what is on
/// the screen"): a spec acts on the visible screen by what it shows, as a user does
/// (WayfinderHost+ScreenActions.swift). tap and fill answer true, or nil and the reason, which the Lua
/// side raises at the spec's line.
enum ScreenActionBinding {
    static let functions: [(String, LuaBinding)] = [("tap", tap), ("fill", fill), ("see", see)]

    /// tap(title) -> true | nil, reason naming the titles on the screen
    static let tap: LuaBinding = { L in
        acting(L) { host, call in
            let title = try call.text(2, name: "title")
            try TestingBinding.driving(call) { try host.tap(title) }
        }
    }

    /// fill(name or label, value) -> true | nil, reason; value is text or a boolean (a toggle)
    static let fill: LuaBinding = { L in
        acting(L) { host, call in
            let name = try call.text(2, name: "field")
            let value = try call.value(3, name: "value")
            switch value {
            case .string, .bool: break
            default: throw Refusal("fill needs text or a boolean for field '\(name)', got \(value.typeDescription)")
            }
            try TestingBinding.driving(call) { try host.fill(name, with: value) }
        }
    }

    /// see(text) -> true | false, the texts the screen shows (one a line)
    static let see: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try call.object(1, as: AppDriver.self, name: "app").running()
            let text = try call.text(2, name: "text")
            let texts = try TestingBinding.driving(call) { try host.visibleTexts() }
            if texts.contains(where: { $0.contains(text) }) { return [true] }
            return [false, .string(texts.joined(separator: "\n"))]
        }
    }

    /// Runs an action on the running app of the driver in argument 1: true, or nil and why not.
    private static func acting(_ L: OpaquePointer?, _ body: @escaping (WayfinderHost, LuaCall) throws -> Void) -> Int32 {
        LuaCall.run(L) { call in
            let driver = try call.object(1, as: AppDriver.self, name: "app")
            do {
                try driver.use()
                try body(try driver.running(), call)
                return [true]
            } catch let error as TestingBinding.StepBudgetSpent {
                throw error.scriptError
            } catch let refusal as Refusal {
                throw refusal
            } catch let error as ScriptError {
                throw Refusal(error.message)
            } catch {
                throw Refusal(String(describing: error))
            }
        }
    }
}
