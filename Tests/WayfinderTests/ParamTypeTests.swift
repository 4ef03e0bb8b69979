import Testing
@testable import Wayfinder

@Suite("Param types")
struct ParamTypeTests {
    @Test(arguments: [
        ("0", 0), ("-0", 0), ("42", 42), ("007", 7), ("-17", -17),
        ("9223372036854775807", Int64.max), ("-9223372036854775808", Int64.min),
    ] as [(String, Int64)])
    func intsThatConvert(text: String, value: Int64) {
        #expect(ParamType.parseInt(text) == value)
    }

    @Test(arguments: ["", "-", "+1", "1.0", "abc", "12a", " 1", "0x10", "9223372036854775808", "-9223372036854775809", "１"])
    func intsThatDoNotConvert(text: String) {
        #expect(ParamType.parseInt(text) == nil)
    }

    @Test(arguments: [("1", 1.0), ("-2.5", -2.5), (".5", 0.5), ("5.", 5.0), ("1e3", 1000.0), ("1E-2", 0.01), ("123.5", 123.5)])
    func numbersThatConvert(text: String, value: Double) {
        #expect(ParamType.parseNumber(text) == value)
    }

    @Test(arguments: ["nan", "inf", "-inf", "Infinity", "1e999", "", ".", "-", "1e", "1e+", "0x1p3", "1,5", "+1", "1.2.3"])
    func numbersThatDoNotConvert(text: String) {
        #expect(ParamType.parseNumber(text) == nil)
    }

    @Test func boolsInAnyCase() {
        for text in ["true", "TRUE", "Yes", "1"] { #expect(ParamType.parseBool(text) == true) }
        for text in ["false", "No", "NO", "0"] { #expect(ParamType.parseBool(text) == false) }
        for text in ["", "2", "y", "t", "truthy"] { #expect(ParamType.parseBool(text) == nil) }
    }

    @Test func aSegmentThatDoesNotConvertFallsThrough() throws {
        // Three20 bound "abc" as 0 for an int param; here the next candidate gets it.
        let routes = try table(["tt://menu/(id:int)", "tt://menu/(name)"])
        #expect(try routes.match("tt://menu/abc").match?.params == ["name": "abc"])
        #expect(try routes.match("tt://menu/12").match?.params == ["id": 12])
        #expect(try routes.match("tt://menu/99999999999999999999").match?.params == ["name": "99999999999999999999"])
    }

    @Test func idParamsDecodeTokens() throws {
        let routes = try table(["tt://contact/(objectID:id)"])
        let token = ObjectID.encode("x-coredata://UUID/Contact/p3")
        #expect(try routes.match("tt://contact/\(token)").match?.params == ["objectID": "x-coredata://UUID/Contact/p3"])
        #expect(try winner(routes, "tt://contact/Zh") == nil)
        #expect(try winner(routes, "tt://contact/Zm9v!") == nil)
    }

    @Test func boolParams() throws {
        let routes = try table(["tt://flag/(on:bool)"])
        #expect(try routes.match("tt://flag/YES").match?.params == ["on": true])
        #expect(try routes.match("tt://flag/0").match?.params == ["on": false])
        #expect(try winner(routes, "tt://flag/maybe") == nil)
    }

    @Test func customTypesAreTypedParams() throws {
        let routes = RouteTable<String>()
        try routes.registerType("slug") { text in
            text.allSatisfy { $0.isLowercase || $0 == "-" } ? .string(text) : nil
        }
        try routes.add("tt://post/(s:slug)", target: "slug")
        try routes.add("tt://post/(s)", target: "string")
        #expect(try routes.match("tt://post/hello-world").match?.route.target == "slug")
        #expect(try routes.match("tt://post/Hello").match?.route.target == "string")
    }

    @Test func customTypeErrorsEndTheMatch() throws {
        struct Boom: Error {}
        let routes = RouteTable<String>()
        try routes.registerType("bad") { _ in throw Boom() }
        try routes.add("tt://x/(v:bad)", target: "bad")
        #expect(throws: Boom.self) { try routes.match("tt://x/1") }
        // The table is still usable afterwards.
        try routes.add("tt://y/(v)", target: "y")
        #expect(try winner(routes, "tt://y/1") == "tt://y/(v)")
    }

    @Test func builtinTypesCannotBeRedefined() {
        let routes = RouteTable<String>()
        #expect(throws: PatternError.self) { try routes.registerType("int") { _ in nil } }
        #expect(throws: PatternError.self) { try routes.registerType("a b") { _ in nil } }
    }
}
