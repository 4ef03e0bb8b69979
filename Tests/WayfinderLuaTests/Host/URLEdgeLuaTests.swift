import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua

/// URLs at the edges as scripts meet them: bytes that are not UTF-8, Lua-pattern types, and URL
/// generation that must match back.
@Suite("URLs at the edges, from Lua")
struct URLEdgeLuaTests {
    static let app = """
        local wf = require "wayfinder"
        local Screen = wf.controller "Screen"
        function Screen:initWithName(name) self.name = name end
        wf.map:from("tt://seg/(initWithName:)", Screen)
        wf.map:type("price", "%d+%$")
        wf.map:type("code", "^%u%u$")
        wf.map:type("dollars", "[$]%d+")
        wf.map:type("nan", function(text) return 0/0 end)
        wf.map:type("huge", function(text) return math.huge end)
        wf.map:from("tt://price/(p:price)", Screen)
        wf.map:from("tt://code/(c:code)", Screen)
        wf.map:from("tt://dollars/(d:dollars)", Screen)
        wf.map:from("tt://nan/(v:nan)", Screen)
        wf.map:from("tt://huge/(v:huge)", Screen)
        Item = wf.controller "Item"
        wf.map:url(Item, "tt://item/(n:int)/(name)")
        """

    @Test func bytesThatAreNotUTF8AreNilAndAReason() throws {
        let app = try TestApp(Self.app)
        #expect(try app.run("return wayfinder.map:match('tt://seg/\\255')") == [.null, "the url is not valid UTF-8 (byte 10 of 10)"])
        #expect(try app.run("return wayfinder.navigator:open('tt://seg/\\255')") == [.null, "the url is not valid UTF-8 (byte 10 of 10)"])
        #expect(try app.run("return wayfinder.navigator:url()") == [.null])
        for function in ["escape", "unescape", "parse_query"] {
            let answer = try app.run("return wayfinder.codec.\(function)('a\\255')")
            #expect(answer.count == 2 && answer[0] == .null, "\(function): \(answer)")
            #expect(answer.last?.stringValue?.contains("is not valid UTF-8 (byte 2 of 2)") == true, "\(function): \(answer)")
        }
        let query = try app.run("return wayfinder.codec.query { a = '\\255' }")
        #expect(query.first == .null && query.count == 2, "\(query)")
        // encode_id takes any bytes.
        #expect(try app.run("return wayfinder.codec.encode_id('\\255\\0')") == [.string(ObjectID.encode(bytes: [0xFF, 0]))])
        #expect(try app.run("return wayfinder.codec.encode_id('\\255')") == ["_w"])
        // A query string refuses an escaped control character as a URL does; unescape decodes any escape.
        #expect(try app.run("return wayfinder.codec.parse_query('a=%00')") == [.null, "a percent-encoded control character at byte 2"])
        #expect(try app.run("return wayfinder.codec.unescape('%00') == '\\0'") == [true])
        // A valid URL still opens.
        #expect(try app.run("return wayfinder.navigator:open('tt://seg/ok').name") == ["ok"])
    }

    @Test func decodeIDGivesBackEveryByteStringAndURLForAnswersBadBytesWithAReason() throws {
        let app = try TestApp(Self.app + """

            S = wf.controller "S"
            wf.map:url(S, "tt://seg/(s)")
            """)
        // Any bytes round-trip through the codec, UTF-8 or not.
        #expect(try app.run(#"""
            local samples = { "\255\0\1", "", "\0", "a\128b", "\237\160\128", "plain", string.rep("\254", 40) }
            for _, bytes in ipairs(samples) do
              local back, reason = wayfinder.codec.decode_id(wayfinder.codec.encode_id(bytes))
              if back ~= bytes then return false, reason end
            end
            return true
            """#) == [true])
        // The `id` type's value is text: a token of other bytes does not match it.
        let idApp = try TestApp(Self.app + "\nwf.map:from('tt://obj/(o:id)', wf.controller 'O')")
        #expect(try idApp.run("return wayfinder.map:match('tt://obj/' .. wayfinder.codec.encode_id('\\255\\0\\1'))").first == .null)
        #expect(try idApp.run("return wayfinder.map:match('tt://obj/' .. wayfinder.codec.encode_id('ok')).pattern") == ["tt://obj/(o:id)"])
        // A field that is not UTF-8 cannot be a URL: nil and a reason, not a raised error.
        let answer = try app.run(#"return wayfinder.map:url_for(S:new { s = "\255" })"#)
        #expect(answer.count == 2 && answer[0] == .null, "\(answer)")
        #expect(answer.last == "field 's' is not valid UTF-8, which a URL cannot carry", "\(answer)")
        #expect(try app.run(#"return wayfinder.map:url_for(S:new { s = "fine" })"#) == ["tt://seg/fine"])
    }

    @Test func luaPatternTypesAreAnchoredByWrapping() throws {
        let app = try TestApp(Self.app)
        func pattern(_ url: String) throws -> Value { try app.run("local r = wayfinder.map:match('\(url)'); return r and r.pattern").first ?? .null }
        #expect(try pattern("tt://price/12%24") == "tt://price/(p:price)")
        #expect(try pattern("tt://price/12%24abc") == .null)
        #expect(try pattern("tt://price/12") == .null)
        // The author's own anchors are taken as anchors, not literals.
        #expect(try pattern("tt://code/AB") == "tt://code/(c:code)")
        #expect(try pattern("tt://code/ABC") == .null)
        #expect(try pattern("tt://code/xAB") == .null)
        #expect(try pattern("tt://dollars/%2412") == "tt://dollars/(d:dollars)")
        #expect(try pattern("tt://dollars/%2412x") == .null)
    }

    @Test func nonFiniteTypeResultsAreNoMatchWithAReason() throws {
        let app = try TestApp(Self.app)
        #expect(try app.run("return wayfinder.map:match('tt://nan/1')") == [.null, "no route matches"])
        #expect(try app.run("return wayfinder.map:match('tt://huge/1')") == [.null, "no route matches"])
    }

    @Test func urlForRefusesURLsThatCannotMatchBack() throws {
        let app = try TestApp(Self.app)
        #expect(try app.run("return wayfinder.url_for(Item:new { n = 7, name = 'a' })") == ["tt://item/7/a"])
        let typed = try app.run("return wayfinder.url_for(Item:new { n = '007', name = 'a' })")
        #expect(typed.first == .null)
        #expect(typed.last?.stringValue?.contains("field 'n' is the string \"007\"") == true, "\(typed)")
        let long = try app.run("return wayfinder.url_for(Item:new { n = 1, name = string.rep('x', 9000) })")
        #expect(long.first == .null)
        #expect(long.last?.stringValue?.contains("longer than the 8 KiB limit of URLs that match (field 'name' is 9000 of them)") == true, "\(long)")
        let control = try app.run("return wayfinder.url_for(Item:new { n = 1, name = 'a\\0b' })")
        #expect(control.last?.stringValue?.contains("field 'name' has a control character") == true, "\(control)")
    }

    @Test func aPatternWithAControlCharacterIsRefusedAtTheScriptsLine() throws {
        let nul = try loadFailure("local wf = require 'wayfinder'\nwf.map:from('tt://a/b\\0c', function() end)\n")
        #expect(nul?.contains("app.lua:2: pattern 'tt://a/b\\x00c': control character at byte 8") == true, "\(nul ?? "loaded")")
        let encoded = try loadFailure("local wf = require 'wayfinder'\nwf.map:from('tt://a/%0A', function() end)\n")
        #expect(encoded?.contains("app.lua:2:") == true && encoded?.contains("decodes to a control character") == true, "\(encoded ?? "loaded")")
    }
}
