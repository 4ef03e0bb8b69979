import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua

/// The LuaLS definitions (lua/wayfinder/meta/wayfinder.lua) against the records the host
/// declares (Sources/WayfinderLua/Contract): each alias lists the enum's cases, and each class
/// that describes a crossing record has exactly its fields. A field renamed, added or dropped on
/// one side only fails here.
@Suite("The LuaLS definitions match the declared records")
struct LuaDefinitionsContractTests {
    /// The definitions file, read as LuaLS reads it: aliases, and each class's fields.
    struct Definitions {
        var aliases: [String: String] = [:]
        var classes: [String: [String: String]] = [:]

        init(_ text: String) {
            var current: String?
            for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let line = raw.trimmingCharacters(in: .whitespaces)
                let words = line.split(separator: " ", maxSplits: 2).map(String.init)
                switch words.first {
                case "---@alias" where words.count == 3:
                    aliases[words[1]] = words[2]
                    current = nil
                case "---@class" where words.count >= 2:
                    let name = String(words[1].split(separator: ":").first ?? "")
                    current = name
                    classes[name, default: [:]] = [:]
                case "---@field" where words.count >= 2:
                    guard let name = current else { continue }
                    let field = words[1].hasSuffix("?") ? String(words[1].dropLast()) : words[1]
                    classes[name]?[field] = words.count == 3 ? words[2] : ""
                default:
                    if !line.hasPrefix("---@") { current = nil }
                }
            }
        }

        func fields(_ name: String) -> Set<String> { Set(classes[name]?.keys.map { $0 } ?? []) }
    }

    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("lua/wayfinder/meta/wayfinder.lua")

    static func definitions() throws -> Definitions {
        Definitions(try String(contentsOf: file, encoding: .utf8))
    }

    /// An alias of the cases, as LuaLS spells a union of strings.
    static func union<E: CaseIterable & RawRepresentable>(_: E.Type) -> String where E.RawValue == String {
        E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: "|")
    }

    @Test("the aliases list the cases of the host's enums, in order")
    func aliasesAreTheEnums() throws {
        let meta = try Self.definitions()
        #expect(meta.aliases["wayfinder.mode"] == Self.union(NavigationMode.self))
        #expect(meta.aliases["wayfinder.persistence"] == Self.union(PersistenceMode.self))
        #expect(meta.aliases["wayfinder.presentation"] == Self.union(Presentation.self))
    }

    @Test("each class of a crossing record has the declared fields, no more and no fewer")
    func classesAreTheRecords() throws {
        let meta = try Self.definitions()
        #expect(meta.fields("wayfinder.route_options") == Set(RouteOption.names))
        #expect(meta.fields("wayfinder.route") == Set(RouteDescription.keys))
        // A named route's action (`route`, `params`) is written per app by `wayfinder routes --lua-defs`.
        let perApp = Set([OpenAction.route, .params].map(\.rawValue))
        #expect(meta.fields("wayfinder.action").union(meta.fields("wayfinder.action_options"))
            == Set(OpenAction.forScripts.map(\.rawValue)).subtracting(perApp))
        #expect(meta.fields("wayfinder.app_config") == Set(AppOption.names))
        #expect(meta.fields("wayfinder.pending") == Set(PendingRecord.names))
        #expect(meta.fields("wayfinder.guarded_route") == Set(GuardedRoute.names))
        // A controller's class lists what scripts set on it besides the host's fields.
        #expect(Set(ControllerField.names).isSubset(of: meta.fields("wayfinder.controller")))
        #expect(meta.fields("wayfinder.screen") == Set(ScreenRecord.names))
        #expect(meta.fields("wayfinder.field") == Set(ScreenFieldRecord.names))
        #expect(meta.fields("wayfinder.saved_state") == Set(MigrationTree.treeKeys))
        #expect(meta.fields("wayfinder.saved_entry") == Set(StateDocument.EntryField.names))
        #expect(meta.fields("wayfinder.saved_pending") == Set(StateDocument.PendingField.names))
        #expect(meta.fields("wayfinder.saved_context") == Set(StateDocument.ContextField.names + MigrationTree.ContextNils.names))
        // An entry's model is written inline: `{ selected: any, anchor: any }`.
        let model = try #require(meta.classes["wayfinder.saved_entry"]?[StateDocument.EntryField.model.rawValue])
        let keys = model.split(whereSeparator: { !$0.isLetter && $0 != "_" && $0 != ":" }).filter { $0.hasSuffix(":") }.map { String($0.dropLast()) }
        #expect(Set(keys) == Set(StateDocument.ModelField.names))
    }

    /// The keys of the inline table type `{ a?: T, b: U }` in `line`, in order.
    static func inlineKeys(_ line: Substring) -> [String] {
        guard let open = line.firstIndex(of: "{"), let close = line[open...].firstIndex(of: "}") else { return [] }
        // Items are split at commas outside a type's brackets (`table<string, string>`).
        var items = [""], depth = 0
        for character in line[line.index(after: open)..<close] {
            switch character {
            case "<", "(": depth += 1
            case ">", ")": depth -= 1
            case "," where depth == 0: items.append(""); continue
            default: break
            }
            items[items.count - 1].append(character)
        }
        return items.compactMap { item in
            let key = item.split(separator: ":").first?.trimmingCharacters(in: .whitespaces) ?? ""
            return key.isEmpty ? nil : String(key.hasSuffix("?") ? key.dropLast() : key[...])
        }
    }

    @Test("wf.context's overload lists the declared options, in order")
    func contextOptionsAreTheRecord() throws {
        let text = try String(contentsOf: Self.file, encoding: .utf8)
        let lines = text.split(separator: "\n")
        let at = try #require(lines.firstIndex { $0.hasPrefix("wf.context = ") })
        let overload = try #require(lines[..<at].last { $0.hasPrefix("---@overload fun(spec?: {") })
        #expect(Self.inlineKeys(overload) == ContextOption.names)
        #expect(Self.inlineKeys("---@overload fun(spec?: { name?: string, colour: table<string, string>, f?: fun(a, b) }): x") == ["name", "colour", "f"])
    }

    /// Every record's symbols are its cases' names, as Lua asks for them.
    static func symbolsAreCaseNames<R: CrossingRecord>(_: R.Type) -> [String] {
        R.allCases.compactMap { field in
            let symbol = R.symbol(of: field.rawValue)
            return symbol == String(describing: field) ? nil : "\(R.self).\(field): symbol \(symbol)"
        }
    }

    @Test("each field's symbol is its case's name")
    func symbolsAreTheCasesNames() {
        var wrong = [String]()
        wrong += Self.symbolsAreCaseNames(RouteOption.self) + Self.symbolsAreCaseNames(RouteDescription.Field.self)
        wrong += Self.symbolsAreCaseNames(OpenAction.self) + Self.symbolsAreCaseNames(PersistRecord.self) + Self.symbolsAreCaseNames(MakeField.self)
        wrong += Self.symbolsAreCaseNames(AppOption.self) + Self.symbolsAreCaseNames(AppTabField.self)
        wrong += Self.symbolsAreCaseNames(StateDocument.Member.self) + Self.symbolsAreCaseNames(StateDocument.RootField.self)
        wrong += Self.symbolsAreCaseNames(StateDocument.RootKind.self) + Self.symbolsAreCaseNames(StateDocument.EntryField.self)
        wrong += Self.symbolsAreCaseNames(StateDocument.ModelField.self) + Self.symbolsAreCaseNames(StateDocument.PendingField.self)
        wrong += Self.symbolsAreCaseNames(StateDocument.ContextField.self) + Self.symbolsAreCaseNames(MigrationTree.ContextNils.self)
        wrong += Self.symbolsAreCaseNames(RouteTargetField.self) + Self.symbolsAreCaseNames(NativeScreenField.self)
        wrong += Self.symbolsAreCaseNames(ControllerField.self) + Self.symbolsAreCaseNames(ContextOption.self)
        wrong += Self.symbolsAreCaseNames(PendingRecord.self) + Self.symbolsAreCaseNames(GuardedRoute.self)
        wrong += Self.symbolsAreCaseNames(ScreenRecord.self) + Self.symbolsAreCaseNames(ScreenFieldRecord.self)
        #expect(wrong.isEmpty, "\(wrong)")
        #expect(RouteOption.symbol(of: "a_b_c") == "aBC")
        #expect(RouteOption.symbol(of: "plain") == "plain")
    }

    @Test("the reading sees a field renamed, added or dropped")
    func aRenameIsSeen() throws {
        let meta = Definitions("""
            ---@alias wayfinder.mode "create"|"share"
            ---A class.
            ---@class wayfinder.route_options
            ---@field mode? wayfinder.mode how
            ---@field colour string
            function x() end
            ---@field stray string
            """)
        #expect(meta.aliases["wayfinder.mode"] == "\"create\"|\"share\"")
        #expect(meta.fields("wayfinder.route_options") == ["mode", "colour"])
        #expect(meta.fields("wayfinder.route_options") != Set(RouteOption.names))
    }
}
