import WayfinderLua
import WayfinderTesting

/// What `wayfinder test` prints while and after it runs: progress (a character per test on a
/// terminal, or a line per test with --verbose), then every failure in full (full name,
/// file:line and message, expected and actual, traceback), then the counts; or TAP version 13.
struct TestReport {
    enum Style { case progress, verbose, quiet, tap }

    let style: Style
    /// Whether the failures and counts are printed at the end (not when standard output is XML).
    let printsSummary: Bool
    private(set) var results: [SpecResult] = []

    init(style: Style, printsSummary: Bool = true) {
        self.style = style
        self.printsSummary = printsSummary
    }

    var passed: Int { results.filter { $0.status == .passed }.count }
    var failed: Int { results.filter(\.isFailure).count }
    var pending: Int { results.filter { $0.status == .pending }.count }

    /// "N passed, N failed", with ", N pending" when there are any.
    var summary: String {
        "\(passed) passed, \(failed) failed" + (pending > 0 ? ", \(pending) pending" : "")
    }

    func begin() {
        if style == .tap { Terminal.print("TAP version 13") }
    }

    mutating func add(_ result: SpecResult) {
        results.append(result)
        switch style {
        case .progress:
            let mark: String
            switch result.status {
            case .passed: mark = "."
            case .failed: mark = "F"
            case .errored: mark = "E"
            case .pending: mark = "P"
            }
            Terminal.write(mark)
        case .verbose:
            let label: String
            switch result.status {
            case .passed: label = "ok     "
            case .failed: label = "FAIL   "
            case .errored: label = "ERROR  "
            case .pending: label = "PENDING"
            }
            Terminal.print("\(label) \(result.file): \(result.name)")
        case .quiet:
            break
        case .tap:
            Terminal.print(tapLines(result, number: results.count).joined(separator: "\n"))
        }
    }

    func finish() {
        guard printsSummary else { return }
        if style == .tap {
            Terminal.print("1..\(results.count)")
            Terminal.print("# " + summary)
            return
        }
        if style == .progress && !results.isEmpty { Terminal.print("") }
        for result in results where result.isFailure {
            Terminal.print("")
            Terminal.print("\(result.status == .failed ? "FAIL" : "ERROR") \(result.file): \(result.name)")
            for line in (result.message ?? "").split(separator: "\n", omittingEmptySubsequences: false) { Terminal.print("  " + line) }
            if let traceback = result.traceback {
                for line in traceback.split(separator: "\n") { Terminal.print("  " + line) }
            }
        }
        if results.contains(where: \.isFailure) { Terminal.print("") }
        Terminal.print(summary)
    }

    /// One test point: `ok N - file: name`, `# SKIP` for pending, and for a failure a YAML block
    /// with the message and the traceback.
    private func tapLines(_ result: SpecResult, number: Int) -> [String] {
        // A name may hold newlines or control characters: escaped, it stays one line of TAP.
        let description = VisibleText.escaped("\(result.file): \(result.name)").replacingOccurrences(of: "#", with: "\\#")
        switch result.status {
        case .passed: return ["ok \(number) - \(description)"]
        case .pending: return ["ok \(number) - \(description) # SKIP pending"]
        case .failed, .errored:
            var lines = ["not ok \(number) - \(description)", "  ---", "  severity: \(result.status == .failed ? "fail" : "error")", "  message: |"]
            for line in (result.message ?? "").split(separator: "\n", omittingEmptySubsequences: false) { lines.append("    " + VisibleText.escaped(String(line))) }
            if let traceback = result.traceback {
                lines.append("  traceback: |")
                for line in traceback.split(separator: "\n") { lines.append("    " + VisibleText.escaped(String(line))) }
            }
            lines.append("  ...")
            return lines
        }
    }
}
