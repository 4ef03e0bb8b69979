import Foundation
import Wayfinder

extension SpecRunner {
    /// One file's run: walks its blocks, calling each step in the file's state.
    struct Session {
        let runner: SpecRunner
        let file: String
        let loaded: Loaded
        var generator: ShuffleGenerator?
        private(set) var results: [SpecResult] = []

        init(runner: SpecRunner, file: String, loaded: Loaded, generator: ShuffleGenerator?) {
            self.runner = runner
            self.file = file
            self.loaded = loaded
            self.generator = generator
        }

        private mutating func record(_ result: SpecResult, _ report: (SpecResult) -> Void) {
            results.append(result)
            report(result)
        }

        /// Runs a block: its setups, its tests and inner blocks (in order, or shuffled), its
        /// teardowns. A setup that fails fails every test it was for; a teardown that fails is
        /// reported as a failure of its block.
        mutating func run(_ block: Value, path: [String], befores: [Value.Handle], afters: [Value.Handle],
                          report: (SpecResult) -> Void) {
            guard !runner.selectedTests(in: block, path: path).isEmpty else { return }
            let befores = befores + SpecRunner.functions(block["before_each"])
            let afters = SpecRunner.functions(block["after_each"]).reversed() + afters
            var setupFailure: Failure?
            for setup in SpecRunner.functions(block["setup"]) where setupFailure == nil {
                setupFailure = call(setup).map { $0.prefixed("in setup: ") }
            }
            var children = SpecRunner.items(block["children"])
            if var generator {
                children.shuffle(using: &generator)
                self.generator = generator
            }
            for child in children {
                let name = child["name"]?.stringValue ?? "?"
                if child["kind"] == "test" {
                    let full = SpecRunner.fullName(path, name)
                    guard runner.selected(full) else { continue }
                    if let setupFailure {
                        record(setupFailure.result(file: file, name: full, seconds: 0), report)
                    } else {
                        record(test(child, name: full, befores: befores, afters: afters), report)
                    }
                } else if let setupFailure {
                    for inner in runner.selectedTests(in: child, path: path + [name]) {
                        record(setupFailure.result(file: file, name: inner, seconds: 0), report)
                    }
                } else {
                    run(child, path: path + [name], befores: befores, afters: afters, report: report)
                }
            }
            for teardown in SpecRunner.functions(block["teardown"]) {
                if let failure = call(teardown) {
                    let name = path.isEmpty ? "(teardown)" : path.joined(separator: " ") + " (teardown)"
                    record(failure.prefixed("in teardown: ").result(file: file, name: name, seconds: 0), report)
                }
            }
        }

        /// One test: its before_each hooks outermost first, the test, then its after_each hooks
        /// innermost first, which run even when the test failed. The first failure decides.
        private func test(_ test: Value, name: String, befores: [Value.Handle], afters: [Value.Handle]) -> SpecResult {
            guard test["pending"] != true, case .handle(let body)? = test["fn"] else {
                return SpecResult(file: file, name: name, status: .pending)
            }
            let clock = ContinuousClock()
            let start = clock.now
            var failure: Failure?
            for before in befores where failure == nil {
                failure = call(before).map { $0.prefixed("in before_each: ") }
            }
            if failure == nil { failure = call(body) }
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
                SpecResult(file: file, name: name, status: status, message: message, traceback: traceback, seconds: seconds)
            }
        }

        /// Calls one step; nil when it returned normally.
        private func call(_ step: Value.Handle) -> Failure? {
            do {
                try loaded.host.state.call(step, [])
                return nil
            } catch {
                let assertion = (try? loaded.host.state.call(loaded.takeFailure, []))?.first == .bool(true)
                let status: SpecResult.Status = assertion && error.kind == .runtime ? .failed : .errored
                return Failure(status: status, message: error.message, traceback: error.traceback)
            }
        }
    }
}
