import Testing
@testable import Wayfinder

@Suite("JSON for Value")
struct JSONTests {
    @Test func intsAndFloatsStayDistinct() throws {
        #expect(try JSON.decode("3") == .int(3))
        #expect(try JSON.decode("3.0") == .double(3))
        #expect(try JSON.decode("-1e2") == .double(-100))
        #expect(try JSON.encode(.double(3)) == "3.0")
        #expect(try JSON.encode(.int(3)) == "3")
        #expect(try JSON.decode("9223372036854775807") == .int(.max))
        #expect(try JSON.decode("9223372036854775808") == .double(9223372036854775808))
    }

    @Test func keysKeepTheirOrderAndStringsEscape() throws {
        let value: Value = ["b": 1, "a": ["x", .null, true], "s": "q\"\\\n\u{1}é🙂"]
        let text = try JSON.encode(value)
        #expect(text == #"{"b":1,"a":["x",null,true],"s":"q\"\\\n\u0001é🙂"}"#)
        #expect(try JSON.decode(text) == value)
        #expect(try JSON.decode(#""\ud83d\ude42\u00e9""#) == "🙂é")
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\"}", "01", "1.", "\"\u{1}\"", "\"\\x\"", "nul", "[1] x", "\"\\ud800\"", String(repeating: "[", count: 600)])
    func malformedJSONIsAnError(text: String) {
        #expect(throws: JSON.DecodingError.self) { try JSON.decode(text) }
    }

    @Test func handlesAndNonFiniteNumbersCannotBeWritten() {
        #expect(throws: JSON.EncodingError.self) { try JSON.encode(.handle(.init(id: 1, kind: "function"))) }
        #expect(throws: JSON.EncodingError.self) { try JSON.encode(.double(.nan)) }
    }
}
