import Testing
import Wayfinder
@testable import WayfinderLua

/// One renderer for a route: the Lua table, the `--json` object and the snapshot line come from
/// the same list of fields, so an option shows in all three or in none.
@Suite("A route is described by one renderer")
struct RouteDescriptionTests {
    static func report(_ options: RouteOptions, guarded: Bool = false) throws -> RouteReport {
        let pattern = try RouteTable<Int>().parse("tt://item/(id)")
        return RouteReport(pattern: pattern, options: options, target: "class Item", method: "init", selector: nil, guarded: guarded)
    }

    static let everyOption = RouteOptions(mode: .modal, presentation: .replace, parent: "tt://home", selector: "initWithId:",
                                          transition: "fade", external: true, name: "item")

    @Test("every option shows in the JSON, the snapshot line and the Lua table, under the same key")
    func everyOptionShowsEverywhere() throws {
        let report = try Self.report(Self.everyOption, guarded: true)
        let people = RouteDescription(report)
        let json = try #require(people.json.mapValue)
        let lua = RouteDescription(pattern: report.pattern, options: report.options, target: .string("t"), method: nil, selector: nil,
                                   routeGuard: .bool(true), parentFunction: nil).luaValue
        for option in RouteOption.allCases {
            let key = RouteDescription.descriptionKey(of: option)
            #expect(lua[key] != nil, "Lua: \(key)")
            // People see the selector the target gets, not the option it came from.
            guard option != .selector else { continue }
            #expect(json[key] != nil && json[key] != .null, "JSON: \(key)")
            #expect(people.line.contains("  " + key), "snapshot: \(key)")
        }
        #expect(people.line == "tt://item/(id)  target=\"class Item\"  method=init  mode=modal  presentation=replace  parent=tt://home  "
            + "transition=fade  external  name=item  guard")
    }

    @Test("a route of defaults shows only its target, constructor and mode; the JSON names every field")
    func defaultsAreLeftOutOfTheLine() throws {
        let people = RouteDescription(try Self.report(RouteOptions()))
        #expect(people.line == "tt://item/(id)  target=\"class Item\"  method=init  mode=create")
        let json = try #require(people.json.mapValue)
        #expect(json["guard"] == false && json["external"] == false && json["parent"] == .null && json["presentation"] == "push")
        #expect(Array(json.keys) == RouteDescription(try Self.report(Self.everyOption)).json.mapValue.map { Array($0.keys) })
    }

    @Test("a value with a space or a quote is quoted on the line; an empty one too")
    func oddValuesAreQuoted() throws {
        var options = RouteOptions()
        options.name = "two words"
        options.transition = ""
        options.parent = "tt://a\"b"
        let line = RouteDescription(try Self.report(options)).line
        #expect(line.contains("  name=\"two words\""))
        #expect(line.contains("  transition=\"\""))
        #expect(line.contains("  parent=\"tt://a\\\"b\""))
    }
}
