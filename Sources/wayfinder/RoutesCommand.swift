import ArgumentParser
import Wayfinder
import WayfinderLua

/// `wayfinder routes APP`: the route map in precedence order, with a warning for every pair of
/// patterns that only their text order can separate.
struct RoutesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "List the app's routes in precedence order.",
        discussion: """
            Pairs of patterns that can match one URL with equal precedence are warned about on \
            standard error.

            Example:
              wayfinder routes lua/examples/restaurant
            """
    )

    @Argument(help: "The app: a directory with app.lua, or a .lua file.")
    var app: String

    @Flag(help: "Print one JSON object per route, one per line.")
    var json = false

    @OptionGroup var host: HostOptions

    func run() throws {
        let appHost = try host.load(app)
        let routes = try appHost.routeReports()
        if json {
            for route in routes { Terminal.print(try JSON.encode(route.json)) }
        } else {
            let rows = routes.map { route -> [String] in
                [route.pattern.text, route.options.mode.rawValue, route.target, route.method ?? "-", route.pattern.isDefault ? "-" : String(route.pattern.specificity)]
            }
            Terminal.print(TextTable.render(header: ["PATTERN", "MODE", "TARGET", "CONSTRUCTOR", "SPECIFICITY"], rows: rows))
        }
        for warning in appHost.tieWarnings() { Terminal.warning(warning) }
    }
}

/// Left-aligned columns, two spaces apart.
enum TextTable {
    static func render(header: [String], rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
