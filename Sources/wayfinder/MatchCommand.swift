import ArgumentParser
import Wayfinder
import WayfinderLua

/// `wayfinder match APP URL...`: which route each URL opens, with which values, and why.
struct MatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Show which route each URL opens and with which values.",
        discussion: """
            Exit status: 0 when every URL matched or is external (open hands it outside the app), \
            1 when one did not, 2 when the app could not be loaded.

            Example:
              wayfinder match lua/examples/restaurant tt://menu/1 --explain
            """
    )

    @Argument(help: "The app: a directory with app.lua, or a .lua file.")
    var app: String

    @Argument(help: "The URLs to match.")
    var urls: [String]

    @Flag(help: "Print one JSON object per URL, one per line.")
    var json = false

    @Flag(help: "Also list the candidates that lost, and why.")
    var explain = false

    @OptionGroup var host: HostOptions

    func validate() throws {
        guard !urls.isEmpty else { throw ValidationError("give at least one URL to match") }
    }

    func run() throws {
        let appHost = try host.load(app)
        var allMatched = true
        for url in urls {
            let report: MatchReport
            do {
                if let reason = RawArguments.notUTF8[url] {
                    report = MatchReport(url: url, failure: reason)
                } else {
                    report = try appHost.match(url)
                }
            } catch {
                allMatched = false
                report = MatchReport(url: url, failure: "script error: \(error)")
            }
            if report.match == nil && !report.external { allMatched = false }
            // An external URL never reaches the route map, so there is nothing to explain.
            let explanation = explain && !report.external && RawArguments.notUTF8[url] == nil ? try? appHost.explain(report.matchedURL) : nil
            if json {
                var object = report.json
                if let explanation, case .map(var fields) = object {
                    fields["explain"] = .array(explanation.entries.map(\.json))
                    object = .map(fields)
                }
                do {
                    Terminal.print(try JSON.encode(object))
                } catch {
                    // Never an empty object: the URL and why its answer could not be written.
                    allMatched = false
                    Terminal.print((try? JSON.encode(["url": .string(url), "matched": false, "reason": .string("cannot write the answer as JSON: \(error)")])) ?? "")
                }
            } else {
                Terminal.print(Self.text(report))
                if let explanation { Terminal.print(Self.text(explanation)) }
            }
        }
        if !allMatched { throw ExitCode(1) }
    }

    static func text(_ report: MatchReport) -> String {
        guard let match = report.match else {
            if report.external { return "\(report.url)\n  external: \(report.reason ?? "")" }
            return "\(report.url)\n  no match: \(report.reason ?? MatchResult<Void>.noRouteReason)"
        }
        var lines = [report.url]
        for hop in report.moves { lines.append("  moved    \(hop.text)") }
        lines.append("  pattern  \(match.route.pattern.text)")
        lines.append("  mode     \(match.route.options.mode.rawValue)")
        lines.append("  target   \(match.route.target.description)")
        if let method = report.method {
            lines.append("  method   \(method)" + (report.selector.map { "  (selector \($0))" } ?? ""))
        }
        lines.append("  params   " + (match.params.isEmpty ? "(none)" : match.params.map { "\($0.key) = \($0.value)" }.joined(separator: ", ")))
        if !match.query.isEmpty {
            lines.append("  query    " + match.query.map { "\($0.key) = \($0.value)" }.joined(separator: ", "))
        }
        if let fragment = match.fragment { lines.append("  fragment \(fragment)") }
        return lines.joined(separator: "\n")
    }

    static func text(_ explanation: MatchExplanation) -> String {
        guard !explanation.entries.isEmpty else { return "  (no pattern came close)" }
        return explanation.entries.map { entry in
            switch entry.verdict {
            case .won: return "  won     \(entry.pattern)"
            case .lost(let why): return "  lost    \(entry.pattern): \(why)"
            case .failed(let why): return "  failed  \(entry.pattern): \(why)"
            }
        }.joined(separator: "\n")
    }
}
