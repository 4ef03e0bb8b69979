import WayfinderLua
import WayfinderTesting

/// The results as JUnit XML: one `<testsuite>` per spec file, one `<testcase>` per test, with
/// `<failure>`, `<error>` or `<skipped/>` as the outcome says.
enum JUnitReport {
    static func xml(_ results: [SpecResult]) -> String {
        var files = [String]()
        var byFile = [String: [SpecResult]]()
        for result in results {
            if byFile[result.file] == nil { files.append(result.file) }
            byFile[result.file, default: []].append(result)
        }
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>"]
        lines.append("<testsuites name=\"wayfinder\" \(counts(results))>")
        for file in files {
            let suite = byFile[file] ?? []
            lines.append("  <testsuite name=\"\(escape(file))\" \(counts(suite))>")
            for result in suite {
                let open = "    <testcase classname=\"\(escape(file))\" name=\"\(escape(result.name))\" time=\"\(time(result.seconds))\""
                switch result.status {
                case .passed:
                    lines.append(open + "/>")
                case .pending:
                    lines += [open + ">", "      <skipped message=\"pending\"/>", "    </testcase>"]
                case .failed, .errored:
                    let tag = result.status == .failed ? "failure" : "error"
                    let message = result.message ?? ""
                    let body = [message, result.traceback].compactMap { $0 }.joined(separator: "\n")
                    lines += [open + ">", "      <\(tag) message=\"\(escape(message))\">\(escape(body))</\(tag)>", "    </testcase>"]
                }
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func counts(_ results: [SpecResult]) -> String {
        let failures = results.filter { $0.status == .failed }.count
        let errors = results.filter { $0.status == .errored }.count
        let skipped = results.filter { $0.status == .pending }.count
        let seconds = results.reduce(0) { $0 + $1.seconds }
        return "tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(time(seconds))\""
    }

    private static func time(_ seconds: Double) -> String {
        String(format: "%.4f", seconds)
    }

    /// XML text and attribute escaping; control characters XML 1.0 cannot hold become U+FFFD.
    /// Newlines, tabs and returns are character references, since a parser turns them into
    /// spaces in an attribute value; in text they may stay as they are.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            case "\r": out += "&#13;"
            default:
                out.unicodeScalars.append(scalar.value < 0x20 ? "\u{FFFD}" : scalar)
            }
        }
        return out
    }
}
