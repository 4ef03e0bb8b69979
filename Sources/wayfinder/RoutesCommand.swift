import ArgumentParser
import Wayfinder
import WayfinderLua
import WayfinderTesting

/// `wayfinder routes APP`: the route map in precedence order, with a warning for every pair of
/// patterns that only their text order can separate; or a snapshot of it written or checked.
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

    @Option(help: "Save the route table (patterns, targets, modes, options, precedence order) to FILE.")
    var write: String?

    @Option(help: "Compare the route table with the snapshot in FILE; print the differences and exit 1 when it differs.")
    var check: String?

    @Flag(name: .customLong("lua-defs"), help: "Print LuaLS definitions of the named routes and their params, for editors.")
    var luaDefs = false

    @OptionGroup var host: HostOptions

    func validate() throws {
        guard [write != nil, check != nil, luaDefs, json].filter({ $0 }).count <= 1 else {
            throw ValidationError("choose one of --json, --write, --check and --lua-defs")
        }
    }

    func run() throws {
        let appHost = try host.load(app)
        let routes = try appHost.routeReports()
        let moves = appHost.routeMoves
        if write != nil || check != nil { return try snapshot(RouteSnapshot(routes, moves: moves)) }
        if luaDefs { return Terminal.print(String(RouteLuaDefinitions.text(routes).dropLast())) }
        if json {
            for route in routes { Terminal.print(try JSON.encode(route.json)) }
            for move in moves { Terminal.print(try JSON.encode(["pattern": .string(move.old.text), "moved_to": .string(move.new.text)])) }
        } else {
            let rows = routes.map { route -> [String] in
                [route.pattern.text, route.options.mode.rawValue, route.target, route.method ?? "-", route.pattern.isDefault ? "-" : String(route.pattern.specificity)]
            }
            Terminal.print(TextTable.render(header: ["PATTERN", "MODE", "TARGET", "CONSTRUCTOR", "SPECIFICITY"], rows: rows))
            if !moves.isEmpty {
                Terminal.print("\n" + TextTable.render(header: ["MOVED FROM", "TO"], rows: moves.map { [$0.old.text, $0.new.text] }))
            }
        }
        for warning in appHost.tieWarnings() { Terminal.warning(warning) }
    }
}

extension RoutesCommand {
    /// `--write` saves the table; `--check` compares it with the saved one (exit 1 when it
    /// differs, 2 when the file is not a snapshot).
    func snapshot(_ current: RouteSnapshot) throws {
        do {
            if let write {
                try current.write(to: write)
                Terminal.print("wrote \(current.lines.count) routes to \(write)")
                return
            }
            guard let check else { return }
            let differences = try RouteSnapshot(file: check).differences(to: current)
            if differences.isEmpty {
                Terminal.print("routes match \(check) (\(current.lines.count) routes)")
                return
            }
            Terminal.print("routes differ from \(check) (- saved only, + now only, ~ changed):")
            for line in differences { Terminal.print(line) }
            throw ExitCode(1)
        } catch let error as SnapshotError {
            Terminal.error(error.description)
            throw ExitCode(2)
        }
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
