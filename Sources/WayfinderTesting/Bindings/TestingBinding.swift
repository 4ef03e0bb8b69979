import OrderedCollections
import Foundation
import Wayfinder
import WayfinderLua

/// `wayfinder.native.testing`: the driver of `wf.testing` (docs/testing.md, "Driving apps:
/// wf.testing"), lent to spec files only. Each launched app is a userdata owning its `AppDriver`;
/// `lua/wayfinder/testing.lua` gives it methods. Navigations answer `true` or `nil, reason`
/// (which the Lua side hands scripts as `false, reason`).
enum TestingBinding {
    static let functions: [(String, LuaBinding)] = [
        ("launch", launch), ("open", open), ("handle_link", handleLink), ("url_for_route", urlForRoute), ("back", back), ("dismiss", dismiss),
        ("pop_to_root", popToRoot), ("select", select), ("resume", resume), ("pending", pending), ("check_presentation", checkPresentation),
        ("url", url), ("tree", tree), ("render", render), ("relaunch", relaunch), ("reload", reload),
        ("stats", stats), ("close", close), ("copy_app", copyApp), ("write", write),
        ("read", read), ("advance", advance), ("spec_directory", specDirectory),
    ]

    /// launch(path, options, metatable) -> driver | nil, reason. options: state (a
    /// file inside a copy), memory_limit (MiB), time_limit (ms), each at most the spec's own,
    /// clock (a function giving seconds), link (a link from outside, handled after the launch). The
    /// metatable (the Lua side's, giving the driver its methods) is taken at the first launch and
    /// shared by every driver after.
    static let launch: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let path = try call.string(1, name: "app_path")
            var stateFile: String?
            var limits = host.limits
            var clock: (() throws -> Double)?
            var link: String?
            let given: Value
            do throws(ScriptError) {
                given = try call.state.value(at: 2, in: call.thread, named: "options")
            } catch {
                throw Refusal("wf.testing.launch: \(error.message)")
            }
            if case .map(let options) = given {
                for (key, value) in options {
                    switch (key, value) {
                    case ("state", .string(let file)):
                        do {
                            stateFile = try SpecFile.from(call).workspace.stateFile(file)
                        } catch {
                            // It names the operation and the file already ("launch: state: ...").
                            throw Refusal("\(error)")
                        }
                    case ("link", .string(let url)):
                        link = url
                    case ("clock", .handle(let function)) where function.kind == "function":
                        clock = { [weak state = call.state] in
                            guard let state else { throw ScriptError(kind: .runtime, message: "the spec that gave the clock has ended") }
                            let answer = try state.call(function, []).first ?? .null
                            switch answer {
                            case .int(let seconds): return Double(seconds)
                            case .double(let seconds): return seconds
                            default: throw ScriptError(kind: .runtime, message: "the clock function returned \(answer.typeDescription), not a number of seconds")
                            }
                        }
                    // An app may get tighter limits than the spec's own, never looser ones: the
                    // limits given on the command line bound everything a spec runs.
                    case ("memory_limit", .int(let mib)) where mib >= 1 && Int(mib) <= host.limits.memoryBytes >> 20:
                        limits.memoryBytes = Int(mib) << 20
                    case ("time_limit", .int(let ms)) where ms >= 1 && Duration.milliseconds(ms) <= host.limits.timeBudget:
                        limits.timeBudget = .milliseconds(ms)
                    default:
                        throw Refusal("wf.testing.launch: option \(key) = \(value) is not understood "
                            + "(options: state = FILE, memory_limit = MiB from 1 to the spec's \(host.limits.memoryBytes >> 20), "
                            + "time_limit = ms from 1 to the spec's \(host.limits.timeBudgetNanoseconds / 1_000_000), clock = function giving seconds, "
                            + "link = URL from outside the app)")
                    }
                }
            }
            do {
                let specFile = try SpecFile.from(call)
                let workspace = specFile.workspace
                _ = try workspace.readableApp(path, for: "launch")
                do {
                    try workspace.checkRoomForAnotherApp()
                } catch {
                    // Apps the spec dropped without closing go once collected.
                    try call.state.collectGarbage()
                    try workspace.checkRoomForAnotherApp()
                }
                let driver = try driving(call) {
                    try AppDriver(path: path, stateFile: stateFile, limits: limits, clock: clock, link: link, coverage: workspace.coverage,
                                  coverageName: workspace.original(of: path), appSource: workspace.appSource, printSink: call.state.printSink)
                }
                workspace.launched(driver)
                return [try call.state.newObject(driver, metatable: try specFile.driverMetatable(call.ref(3)))]
            } catch let error as StepBudgetSpent {
                throw error.scriptError
            } catch let error as WorkspaceError {
                // It names the operation and the path already ("launch: no such file ...").
                throw Refusal(error.description)
            } catch {
                throw Refusal("cannot launch \(path): \(String(describing: error))")
            }
        }
    }

    /// open(url [, presentation]): presentation is a verb's name (the Lua side takes it from the
    /// options table).
    static let open: LuaBinding = { L in
        navigation(L) { driver, call in
            let url = try call.text(2, name: "url")
            var request = NavigationRequest(url: url)
            if let name = try call.optionalString(3, name: "presentation") {
                request.presentation = try NavigatorBinding.presentation(name, as: "app:open")
            }
            try driver.use()
            do {
                try driving(call) { try driver.running().open(request) }
            } catch let error as StepBudgetSpent {
                throw error
            } catch {
                throw Refusal(OpenFailure.reason(error, url: url))
            }
        }
    }

    /// check_presentation(name, subject) -> true | nil, reason: app:open's check of a presentation,
    /// worded as the navigator's is.
    static let checkPresentation: LuaBinding = { L in
        LuaCall.run(L) { call in
            _ = try NavigatorBinding.presentation(try call.string(1, name: "presentation"), as: try call.string(2, name: "subject"))
            return [.bool(true)]
        }
    }

    /// handle_link(url): a link from outside the app, as `--link` gives one.
    static let handleLink: LuaBinding = { L in
        navigation(L) { driver, call in
            let url = try call.text(2, name: "url")
            try driver.use()
            do {
                try driving(call) { try driver.running().handleLink(url) }
            } catch let error as StepBudgetSpent {
                throw error
            } catch {
                throw Refusal(OpenFailure.reason(error, url: url))
            }
        }
    }

    /// url_for_route(app, name, params) -> url | nil, reason: the URL of the app's own route
    /// named `name`, its params checked (for `app:open_route`).
    static let urlForRoute: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try call.object(1, as: AppDriver.self, name: "app").running()
            return [.string(try RouteParams.url(of: host.app.routes, call: call, nameAt: 2))]
        }
    }

    static let popToRoot: LuaBinding = { L in
        navigation(L) { driver, call in
            try driver.use()
            if try !driving(call, { try driver.running().popToRoot() }) { throw Refusal("nothing to pop") }
        }
    }

    /// resume(): true when the pending open opened; false, reason when none waits, its guard
    /// still stops it, or it failed (and was dropped).
    static let resume: LuaBinding = { L in
        navigation(L) { driver, call in
            try driver.use()
            let host = try driver.running()
            let url = host.pendingOpen?.request.url ?? ""
            let outcome: ResumeOutcome<LuaController>
            do {
                outcome = try driving(call) { try host.resume() }
            } catch let error as StepBudgetSpent {
                throw error
            } catch {
                throw Refusal(OpenFailure.reason(error, url: url))
            }
            switch outcome {
            case .nothingPending: throw Refusal("nothing is pending")
            case .waiting: throw Refusal("'\(url)' still waits: its guard stops it")
            case .opened: break
            }
        }
    }

    /// pending() -> { url, link, presentation, since } | nil
    static let pending: LuaBinding = { L in
        LuaCall.run(L) { call in
            [try call.object(1, as: AppDriver.self, name: "app").running().pendingOpen.map(NavigatorBinding.described) ?? .null]
        }
    }

    static let back: LuaBinding = { L in
        navigation(L) { driver, call in
            try driver.use()
            if try !driving(call, { try driver.running().back() }) { throw Refusal("nothing to go back to") }
        }
    }

    static let dismiss: LuaBinding = { L in
        navigation(L) { driver, call in
            try driver.use()
            if try !driving(call, { try driver.running().dismiss() }) { throw Refusal("nothing to dismiss") }
        }
    }

    /// select(n): the n-th tab, counting from 1.
    static let select: LuaBinding = { L in
        navigation(L) { driver, call in
            let number = try call.int(2, name: "tab")
            try driver.use()
            guard let index = TabNumber.index(of: number), try driving(call, { try driver.running().selectTab(at: index) }) else {
                throw Refusal("there is no tab \(number)")
            }
        }
    }

    static let relaunch: LuaBinding = { L in
        navigation(L) { driver, call in try driving(call) { try driver.relaunch() } }
    }

    /// reload() -> { added, removed, changed, warnings } | nil, reason
    static let reload: LuaBinding = { L in
        LuaCall.run(L) { call in
            let driver = try call.object(1, as: AppDriver.self, name: "app")
            do {
                let report = try driving(call) { try driver.reload() }
                let changes = report.changes
                return [["added": .array(changes.added.map(Value.string)), "removed": .array(changes.removed.map(Value.string)),
                         "changed": .array(changes.changed.map(Value.string)), "warnings": .array(report.warnings.map(Value.string))]]
            } catch let error as StepBudgetSpent {
                throw error.scriptError
            } catch {
                throw Refusal(String(describing: error))
            }
        }
    }

    /// advance(seconds): moves the app's clock on.
    static let advance: LuaBinding = { L in
        navigation(L) { driver, call in
            let seconds: Double
            switch try call.value(2, name: "seconds") {
            case .int(let whole): seconds = Double(whole)
            case .double(let fraction): seconds = fraction
            case let other: throw Refusal("advance needs a number of seconds, got \(other.typeDescription)")
            }
            try driver.advance(seconds)
        }
    }

    static let close: LuaBinding = { L in
        navigation(L) { driver, call in try driving(call) { try driver.close() } }
    }

    static let url: LuaBinding = { L in
        LuaCall.run(L) { call in
            [try call.object(1, as: AppDriver.self, name: "app").running().tree.visible.map { .string($0.url) } ?? .null]
        }
    }

    static let tree: LuaBinding = { L in
        LuaCall.run(L) { call in
            [try call.object(1, as: AppDriver.self, name: "app").running().tree.value]
        }
    }

    /// render() -> { title, lines, links = { { title, url }, ... } } of the visible screen, nil
    /// when nothing is open; a render error is raised at the spec's line.
    static let render: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try call.object(1, as: AppDriver.self, name: "app").running()
            guard let controller = host.visibleController else { return [.null] }
            let rendered: RenderedScreen?
            do {
                rendered = try driving(call) { try host.render(controller) }
            } catch let error as StepBudgetSpent {
                throw error.scriptError
            }
            guard let screen = rendered else { return [["title": .string(host.describe(controller)), "lines": [], "links": []]] }
            let links = screen.links.map { link -> Value in ["title": .string(link.title), "url": .string(link.url)] }
            let fields = screen.fields.map { field -> Value in
                ["name": .string(field.name), "label": .string(field.label), "kind": .string(field.kind.rawValue),
                 "value": field.value, "choices": .array(field.choices.map(Value.string))]
            }
            let buttons = screen.buttons.map { button -> Value in ["title": .string(button.title), "method": .string(button.method)] }
            var answer: OrderedDictionary<String, Value> = ["title": screen.title.map(Value.string) ?? .null,
                                                            "lines": .array(screen.lines.map(Value.string)), "links": .array(links)]
            // Only a screen that has them answers fields and buttons.
            if !fields.isEmpty { answer["fields"] = .array(fields) }
            if !buttons.isEmpty { answer["buttons"] = .array(buttons) }
            return [.map(answer)]
        }
    }

    static let stats: LuaBinding = { L in
        LuaCall.run(L) { call in
            [try call.object(1, as: AppDriver.self, name: "app").stats]
        }
    }

    /// copy_app(path) -> the copy's path | raises. Copying counts against the caller's time budget.
    static let copyApp: LuaBinding = { L in
        LuaCall.run(L) { call in
            [.string(try SpecFile.from(call).workspace.copyApp(try call.string(1, name: "app_path"), checkBudget: call.state.checkTimeBudget))]
        }
    }

    /// write(path, text): only inside a copy made by copy_app | raises
    static let write: LuaBinding = { L in
        LuaCall.run(L) { call in
            try SpecFile.from(call).workspace.write(try call.string(1, name: "path"), try call.string(2, name: "text"))
            return []
        }
    }

    /// read(path) -> text: only a regular file inside a copy made by copy_app, at most the state's
    /// memory limit (and 16 MiB) | raises
    static let read: LuaBinding = { L in
        LuaCall.run(L) { call in
            [.string(try SpecFile.from(call).workspace.read(try call.string(1, name: "path"), limit: min(FileAccess.sourceLimit, call.state.limits.memoryBytes)))]
        }
    }

    /// spec_directory() -> the running spec file's directory, as the path it was run by names it
    static let specDirectory: LuaBinding = { L in
        LuaCall.run(L) { call in [.string(try SpecFile.from(call).workspace.specDirectory)] }
    }

    // MARK: Helpers

    /// Runs a navigation of the driver in argument 1: `true`, or `nil, reason` for any failure.
    private static func navigation(_ L: OpaquePointer?, _ body: @escaping (AppDriver, LuaCall) throws -> Void) -> Int32 {
        LuaCall.run(L) { call in
            let driver = try call.object(1, as: AppDriver.self, name: "app")
            do {
                try body(driver, call)
                return [true]
            } catch let error as StepBudgetSpent {
                throw error.scriptError
            } catch let refusal as Refusal {
                throw refusal
            } catch {
                throw Refusal(String(describing: error))
            }
        }
    }

    /// The spec's step ran out of time while an app it drives was working. The app's calls get
    /// at most what remains of the step's budget (they run on the same thread's clock, and the
    /// shim caps their deadline by the step's), so the app stopped at that same moment: the step
    /// stops here, at the spec's line, naming what the app was doing.
    struct StepBudgetSpent: Error {
        let scriptError: ScriptError
    }

    /// Runs `body`, which drives an app. When the step's budget is spent afterwards (whether the
    /// app's call failed because of it or had just finished), throws ``StepBudgetSpent`` instead
    /// of answering: a spec never goes on past its budget because the time went into an app.
    @discardableResult
    static func driving<T>(_ call: LuaCall, _ body: () throws -> T) throws -> T {
        let outcome: Result<T, Error>
        do { outcome = .success(try body()) } catch { outcome = .failure(error) }
        guard call.state.isBudgetSpent else { return try outcome.get() }
        var message = call.state.budgetExceeded
        if case .failure(let error) = outcome { message += " (in the app: \(String(describing: error)))" }
        throw StepBudgetSpent(scriptError: ScriptError(kind: .timeout, message: message))
    }
}
