import Foundation
import Wayfinder
import WayfinderLua

extension SpecRunner {
    /// One file's run, as busted runs a file: a block's describe body runs when the run reaches
    /// it, then its setups (before its first test or inner block), its tests and inner blocks in
    /// order (or shuffled as busted shuffles: see lua/wayfinder/spec.lua), its teardowns. Every
    /// step is its own call in the file's state.
    struct Session {
        let runner: SpecRunner
        let file: String
        let loaded: Loaded
        private(set) var results: [SpecResult] = []
        /// The lazy setups of the blocks the run is inside, outermost first: each runs once, before
        /// the first test under its block that runs, as busted's lazy_setup.
        private var lazySetups: [LazySetups] = []

        struct LazySetups {
            enum State { case notRun, succeeded, failed }
            var setups: [Hook]
            var label: String
            var state = State.notRun
        }

        init(runner: SpecRunner, file: String, loaded: Loaded) {
            self.runner = runner
            self.file = file
            self.loaded = loaded
        }

        private mutating func record(_ result: SpecResult, _ report: (SpecResult) -> Void) {
            results.append(result)
            report(result)
        }

        /// A hook and the block that declared it: what the hook sets lands in that block's
        /// environment (lua/wayfinder/spec.lua).
        struct Hook {
            var function: Value.Handle
            var block: Int64
        }

        /// What a describe body recorded.
        struct Contents {
            var children: [Value]
            var setups: [Hook]
            var teardowns: [Hook]
            var lazySetups: [Hook]
            var lazyTeardowns: [Hook]
            var befores: [Hook]
            var afters: [Hook]
        }

        /// Block `id`'s contents, its children in the order they run: shuffled with the run's seed
        /// (--shuffle, --seed), or the block's own (`randomize`), else one fixed for the file and
        /// block, so a run can be repeated.
        private func contents(_ id: Int64) throws(ScriptError) -> Contents {
            let runSeed: Value = runner.shuffleSeed.map { .int(Int64(bitPattern: $0)) } ?? .null
            let fallback = Value.int(Int64(bitPattern: SpecRunner.stableHash(file) ^ UInt64(bitPattern: id)))
            let value = try loaded.host.app.state.call(loaded.block, [.int(id), runSeed, fallback]).first ?? .null
            func hooks(_ name: String) -> [Hook] { SpecRunner.functions(value[name]).map { Hook(function: $0, block: id) } }
            return Contents(children: SpecRunner.items(value["children"]), setups: hooks("setup"), teardowns: hooks("teardown"),
                            lazySetups: hooks("lazy_setup"), lazyTeardowns: hooks("lazy_teardown"), befores: hooks("before_each"),
                            afters: hooks("after_each"))
        }

        /// Whether the run selects the test named `full`; its filters are matched in the file's
        /// state, so a pattern that runs past the budget there selects nothing.
        private func selects(_ full: String) -> Bool {
            runner.selection.selects(full) { name, pattern in
                (try? loaded.host.app.state.call(loaded.matches, [.string(name), .string(pattern)]).first) == .bool(true)
            }
        }

        /// The full names of the selected tests under block `id`, running describe bodies only.
        mutating func names(_ id: Int64, path: [String]) -> [String] {
            guard let contents = try? contents(id) else { return [] }
            var found = [String]()
            // In the order a run with the same seed takes them, so --list shows what will run.
            for child in contents.children {
                let name = child["name"]?.stringValue ?? "?"
                let full = SpecRunner.fullName(path, name)
                if child["kind"] == "test" {
                    if selects(full) { found.append(full) }
                } else if case .int(let inner)? = child["id"] {
                    if call(loaded.expand, [.int(inner)]) == nil { found += names(inner, path: path + [name]) }
                    _ = call(loaded.leave, [.int(inner)])
                }
            }
            return found
        }

        /// Runs block `id`, whose describe body has run, as busted does: its setups (strict) first,
        /// tests or none; its children; its lazy teardowns when its lazy setups ran, then its
        /// teardowns. A setup that fails is one error and nothing else of its block runs (its
        /// teardowns still do); a lazy setup that fails is one error and no test under its block
        /// runs; a describe body that fails is one error named for its block; a teardown that fails
        /// is one named `<block> (teardown)`.
        mutating func runBlock(_ id: Int64, path: [String], befores: [Hook], afters: [Hook],
                               report: (SpecResult) -> Void) {
            let blockName = path.joined(separator: " ")
            let contents: Contents
            do {
                contents = try self.contents(id)
            } catch {
                record(SpecResult(file: file, name: blockName, status: .errored, message: error.message, traceback: error.traceback), report)
                return
            }
            let befores = befores + contents.befores
            let afters = contents.afters.reversed() + afters
            var setupFailed = false
            for setup in contents.setups {
                if let failure = call(setup) {
                    record(failure.prefixed("in setup: ").errorResult(file: file, name: label(path, "setup")), report)
                    setupFailed = true
                    break
                }
            }
            lazySetups.append(LazySetups(setups: contents.lazySetups, label: label(path, "lazy_setup")))
            for child in contents.children where !setupFailed {
                let name = child["name"]?.stringValue ?? "?"
                let full = SpecRunner.fullName(path, name)
                if child["kind"] == "test" {
                    guard selects(full) else { continue }
                    if child["pending"] != true && !runLazySetups(report) { continue }
                    record(test(child, block: id, name: full, befores: befores, afters: afters), report)
                } else if case .int(let inner)? = child["id"] {
                    if let failure = call(loaded.expand, [.int(inner)]) {
                        record(failure.prefixed("in describe: ").errorResult(file: file, name: full), report)
                    } else {
                        runBlock(inner, path: path + [name], befores: befores, afters: afters, report: report)
                    }
                    _ = call(loaded.leave, [.int(inner)])
                }
            }
            let lazy = lazySetups.removeLast()
            let teardowns = (lazy.state == .notRun ? [] : contents.lazyTeardowns.map { ($0, "lazy_teardown") })
                + contents.teardowns.map { ($0, "teardown") }
            for (teardown, word) in teardowns {
                if let failure = call(teardown) {
                    record(failure.prefixed("in \(word): ").errorResult(file: file, name: label(path, word)), report)
                }
            }
        }

        /// `<block> (setup)`, or `(setup)` at a file's top level.
        private func label(_ path: [String], _ word: String) -> String {
            path.isEmpty ? "(\(word))" : path.joined(separator: " ") + " (\(word))"
        }

        /// Runs the lazy setups not yet run of the blocks the run is inside, outermost first; false
        /// when one of them failed (now or before), so the test does not run.
        private mutating func runLazySetups(_ report: (SpecResult) -> Void) -> Bool {
            for index in lazySetups.indices {
                if lazySetups[index].state == .notRun {
                    lazySetups[index].state = .succeeded
                    for setup in lazySetups[index].setups {
                        if let failure = call(setup) {
                            record(failure.prefixed("in lazy_setup: ").errorResult(file: file, name: lazySetups[index].label), report)
                            lazySetups[index].state = .failed
                            break
                        }
                    }
                }
                if lazySetups[index].state == .failed { return false }
            }
            return true
        }

        /// One test: its before_each hooks outermost first, the test and its `finally`, then its
        /// after_each hooks innermost first, which run even when the test failed. The first
        /// failure decides; `pending()` inside the test makes it pending.
        private func test(_ test: Value, block: Int64, name: String, befores: [Hook], afters: [Hook]) -> SpecResult {
            guard test["pending"] != true, case .handle(let body)? = test["fn"] else {
                return SpecResult(file: file, name: name, status: .pending)
            }
            let clock = ContinuousClock()
            let start = clock.now
            var failure: Failure?
            for before in befores where failure == nil {
                failure = call(before).map { $0.prefixed("in before_each: ") }
            }
            if failure == nil {
                _ = call(loaded.beginTest, [.int(block)])
                failure = call(body)
                if case .handle(let finally)? = (try? loaded.host.app.state.call(loaded.endTest, []))?.first {
                    let finallyFailure = call(finally).map { $0.prefixed("in finally: ") }
                    if failure == nil { failure = finallyFailure }
                }
                _ = call(loaded.afterTest)
            }
            for after in afters {
                let afterFailure = call(after).map { $0.prefixed("in after_each: ") }
                if failure == nil { failure = afterFailure }
            }
            let elapsed = clock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            return failure?.result(file: file, name: name, seconds: seconds)
                ?? SpecResult(file: file, name: name, status: .passed, seconds: seconds)
        }

        struct Failure {
            var status: SpecResult.Status
            var message: String
            var traceback: String?

            func prefixed(_ prefix: String) -> Failure {
                Failure(status: status, message: prefix + message, traceback: traceback)
            }

            func result(file: String, name: String, seconds: Double) -> SpecResult {
                SpecResult(file: file, name: name, status: status, message: message,
                           traceback: status == .pending ? nil : traceback, seconds: seconds)
            }

            /// Outside a test (a describe body, a setup, a teardown) anything that went wrong is
            /// an error, as busted counts it.
            func errorResult(file: String, name: String) -> SpecResult {
                SpecResult(file: file, name: name, status: .errored, message: message, traceback: traceback)
            }
        }

        /// Calls a hook in its block's environment; nil when it returned normally.
        private func call(_ hook: Hook) -> Failure? {
            if let failure = call(loaded.enter, [.int(hook.block)]) { return failure }
            return call(hook.function)
        }

        /// Calls one step; nil when it returned normally. The error is a failure when it is the
        /// verdict a failed assertion raised, pending when pending() raised it (the spec module
        /// marks both, and the host knows them by identity, never by their text).
        private func call(_ step: Value.Handle, _ arguments: [Value] = []) -> Failure? {
            do {
                try loaded.host.app.state.call(step, arguments)
                return nil
            } catch {
                let status: SpecResult.Status = switch error.kind {
                case .failure: .failed
                case .pending: .pending
                default: .errored
                }
                let frames = status == .failed ? error.frames.map(Self.specFrames) : error.frames
                let message = error.kind == .timeout ? error.message + SpecRunner.moreTime : error.message
                return Failure(status: status, message: SpecResult.reported(message), traceback: frames.map(ScriptError.Frame.traceback))
            }
        }

        /// A failed assertion's frames without those that raised it, so its traceback starts at
        /// the spec's line: Lua's `error`, the spec module's and luassert's (and say's), known by
        /// the chunk each was loaded as, never by the text of a traceback.
        static func specFrames(_ frames: [ScriptError.Frame]) -> [ScriptError.Frame] {
            let specModule = BundledLua.chunkName(of: "spec.lua")
            return Array(frames.drop { frame in
                (frame.what == "C" && frame.global == "error") || frame.source == specModule
                    || SpecBinding.isAssertionChunk(frame.source)
            })
        }
    }
}
