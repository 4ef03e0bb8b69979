import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua

/// Each vocabulary has one owner: the host's lists (option names and their types, modes,
/// persistence modes, settings) are what the Lua side checks a script's table against and what
/// the host checks values by, and every mistake still names the script's own line.
@Suite("Vocabularies owned by the host")
struct VocabularyTests {
    private static func names<F: CrossingRecord>(_ fields: [F]) -> String {
        fields.map(\.rawValue).joined(separator: ", ")
    }

    private func failure(_ body: String) throws -> String {
        try #require(try loadFailure("local wf = require 'wayfinder'\n" + body + "\n"))
    }

    @Test("an unknown name is named with the host's list, at the script's line")
    func unknownNamesListTheHostsNames() throws {
        #expect(try failure("wf.map:from('tt://a', function() end, { colour = 'red' })")
            == "app.lua:2: map:from: unknown option 'colour' (known: \(Self.names(RouteOption.forScripts)))")
        #expect(try failure("wf.app { colour = 'red' }")
            == "app.lua:2: wf.app: unknown option 'colour' (known: \(Self.names(AppOption.forScripts)))")
        #expect(try failure("wf.app { tabs = { { url = 'tt://a', colour = 'red' } } }")
            == "app.lua:2: wf.app: tabs[1]: unknown field 'colour' (known: \(Self.names(AppTabField.forScripts)))")
        #expect(try failure("wf.navigator:open { url = 'tt://a', model = {} }")
            == "app.lua:2: nav:open: unknown action field 'model' (known: \(Self.names(OpenAction.forScripts)))",
                "the host's own field is not a script's")
        #expect(try failure("wf.context { colour = 'red' }")
            == "app.lua:2: wf.context: unknown option 'colour' (known: \(Self.names(ContextOption.forScripts)))")
        let settings = AppOption.settings.map(\.rawValue).joined(separator: ", ")
        #expect(try failure("wf.navigator.colour = 'red'") == "app.lua:2: nav.colour is not a navigator field (fields: delegate, \(settings))")
    }

    @Test("a value of the wrong type is named with the host's type, at the script's line")
    func wrongTypesNameTheHostsType() throws {
        #expect(try failure("wf.map:from('tt://a', function() end, { external = 'yes' })")
            == "app.lua:2: map:from: option 'external' must be a boolean, got string")
        #expect(try failure("wf.app { expiration = '1h' }") == "app.lua:2: wf.app: option 'expiration' must be a number, got string")
        #expect(try failure("wf.navigator:open { url = 'tt://a', animated = 1 }")
            == "app.lua:2: nav:open: action field 'animated' must be a boolean, got number")
    }

    @Test("values are the host's to check, and its reason is raised at the script's line")
    func valuesAreCheckedByTheHost() throws {
        #expect(try failure("wf.map:from('tt://a', function() end, { mode = 'sideways' })")
            == "app.lua:2: map:from: mode must be one of \(NavigationMode.listedChoices); got 'sideways'")
        #expect(try failure("wf.app { root = 'tt://a', persistence = 'forever' }")
            == "app.lua:2: wf.app: persistence must be one of \(PersistenceMode.listedChoices); got 'forever'")
        #expect(try failure("wf.navigator.persistence = 'forever'")
            == "app.lua:2: nav.persistence must be one of \(PersistenceMode.listedChoices); got 'forever'", "one check, whichever sets it")
        #expect(try failure("wf.app { expiration = -1 }") == "app.lua:2: wf.app: expiration must be a number of seconds >= 0 (0 = never), got -1")
        #expect(try failure("wf.navigator.expiration = -1") == "app.lua:2: nav.expiration must be a number of seconds >= 0 (0 = never), got -1")
        #expect(try failure("wf.app { pending_expiration = -1 }") == "app.lua:2: wf.app: pending_expiration must be a number of seconds >= 0 (0 = never), got -1")
        #expect(try failure("wf.map:from('tt://a', function() end, { presentation = 'sideways' })")
            == "app.lua:2: map:from: presentation must be one of \(Presentation.listedChoices); got 'sideways'")
        #expect(try failure("wf.navigator:open { url = 'tt://a', presentation = 'sideways' }")
            == "app.lua:2: nav:open: presentation must be one of \(Presentation.listedChoices); got 'sideways'")
        #expect(try failure("wf.app { name = '' }") == "app.lua:2: wf.app: name must be a non-empty string")
        #expect(try failure("wf.app { root = 'tt://a', tabs = { 'tt://b' } }") == "app.lua:2: wf.app: give either root or tabs, not both")
        #expect(try failure("wf.app { root = 'no scheme' }").hasPrefix("app.lua:2: wf.app: 'no scheme' is not a URL"))
    }

    @Test("the lists the Lua side reads are the host's, field by field")
    func theExportedListsAreTheHosts() throws {
        let app = try TestApp("")
        // The native modules are for the bundled ones only; lent again under names a test can reach.
        func exported(_ library: [(String, LuaBinding)], _ name: String) throws -> Value {
            try app.host.state.registerLibrary("vocabulary.\(name)", library.filter { $0.0 == "fields" })
            return try app.run("return require('vocabulary.\(name)').fields()").first ?? .null
        }
        let map = try exported(MapBinding.functions, "map")
        #expect(map["options"] == RouteOption.exported)
        #expect(map["route"] == RouteDescription.Field.exported)
        #expect(map["target"] == RouteTargetField.exported)
        let modes = map["modes"]?.arrayValue ?? []
        #expect(stride(from: 0, to: modes.count, by: 4).compactMap { modes[$0].stringValue } == NavigationMode.allCases.map(\.rawValue) + [RouteOption.externalMode])
        #expect(try exported(NativeScreenBinding.functions, "screens") == NativeScreenField.exported)
        #expect(try exported(ContextBinding.functions, "context") == ContextOption.exported)
        let appFields = try exported(AppBinding.functions, "app")
        #expect(appFields["options"] == AppOption.exported)
        #expect(appFields["tab"] == AppTabField.exported)
        try app.host.state.registerLibrary("vocabulary.state", AppBinding.functions.filter { $0.0 == "state_fields" })
        #expect(try app.run("return require('vocabulary.state').state_fields()").first == MigrationTree.exported)
        let navigator = try exported(NavigatorBinding.functions, "navigator")
        #expect(navigator["action"] == OpenAction.exported)
        #expect(navigator["make"] == MakeField.exported)
        #expect(navigator["persist"] == PersistRecord.exported)
        #expect(navigator["model"] == StateDocument.ModelField.exported)
        #expect(navigator["controller"] == ControllerField.exported)
        #expect(navigator["screen"] == ScreenRecord.exported)
        #expect(navigator["settings"] == .array(AppOption.settings.map { .string($0.rawValue) }))
        #expect(navigator["presentations"] == .array(Presentation.allCases.map { .string($0.rawValue) }))
        // Four places a field: name, symbol, type, host.
        func field(_ list: Value, _ index: Int) -> [Value] { Array((list.arrayValue ?? [])[(index * 4)..<(index * 4 + 4)]) }
        #expect(field(RouteOption.exported, 0) == ["mode", "mode", "string", false])
        #expect(field(MakeField.exported, 5) == ["param_names", "paramNames", "any", false])
        #expect(field(OpenAction.exported, OpenAction.allCases.count - 1) == ["model", "model", "any", true])
    }

    @Test("every enumerated option is refused in one wording, wherever it is checked")
    func oneWordingForEveryOption() throws {
        let modes = "none, top, all"
        #expect(try failure("wf.navigator.persistence = 7")
            == "app.lua:2: nav.persistence must be one of \(modes); got '7'", "a value that is not a string is named too")
        #expect(try failure("wf.context { fields = { age = 'integer' } }")
            == "app.lua:2: wf.context: field 'age': its type must be one of \(ContextFieldType.listedChoices); got 'integer'")
        // The one function itself: every case is found, anything else refused with the list.
        for mode in PersistenceMode.allCases {
            #expect(try PersistenceMode.option(mode.rawValue, for: "x", failing: Refusal.init) == mode)
        }
        #expect(throws: Refusal("mode must be one of \(modes); got 'Top'")) {
            try PersistenceMode.option("Top", for: "mode", failing: Refusal.init)
        }
        #expect(throws: Refusal("must be one of \(modes); got ''")) { try PersistenceMode.option("", for: nil, failing: Refusal.init) }
        // A state file read by the core says it the same way, at the member's path.
        var document = NavigationState(app: "a", savedAt: .now, mode: .top, root: .stack([.init(url: "tt://a")])).document.mapValue ?? [:]
        document[StateDocument.Member.mode.rawValue] = "sometimes"
        #expect(throws: NavigationStateError.malformed(path: "mode", reason: "must be one of \(modes); got 'sometimes'")) {
            try NavigationState(document: .map(document))
        }
    }

    private struct DataError: Error, CustomStringConvertible { var description: String { "bad data" } }
    private struct CodeError: Error {}

    @Test("one helper answers nil, reason: the listed kinds of error are refusals, any other is raised")
    func refusingTurnsOnlyTheListedKindsIntoReasons() throws {
        #expect(throws: Refusal("bad data")) { try Refusal.refusing(DataError.self) { throw DataError() } }
        #expect(throws: CodeError.self) { try Refusal.refusing(DataError.self) { throw CodeError() } }
        #expect(try Refusal.refusing(DataError.self) { 7 } == 7)
        // Through a binding: the core's reason, as data.
        let reason = try #require(throws: CodecError.self) { try PercentEncoding.unescape("%zz") }
        let app = try TestApp("")
        #expect(try app.run("return require('wayfinder').codec.unescape('%zz')") == [.null, .string(reason.description)])
    }
}
