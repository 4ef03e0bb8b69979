import Foundation
import Testing
import Wayfinder

@Suite("wayfinder match and routes")
struct CommandLineTests {
    static let menuApp = """
        local wf = require "wayfinder"
        local Menu = wf.controller "Menu"
        function Menu:initWithMenu_page(menu, page) self.menu, self.page = menu, page end
        wf.map:from("tt://menu/(initWithMenu:int)/(page:int)", Menu)
        wf.map:from("tt://menu/(initWithMenu:int)", Menu, { mode = "share" })
        wf.map:from("tt://n/(v:number)", function() end)
        wf.map:from("tt://n/(v:int)", function() end)
        print("scripts print to standard error")
        """

    func app(_ source: String) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", source)
        return directory
    }

    @Test func matchJSONIsOneObjectPerURLInOrder() throws {
        let dir = try app(Self.menuApp)
        let result = try WayfinderCLI.run(["match", dir.path, "tt://menu/1/5", "tt://nowhere", "--json"])
        #expect(result.lines == [
            #"{"url":"tt://menu/1/5","matched":true,"pattern":"tt://menu/(initWithMenu:int)/(page:int)","mode":"create","selector":"initWithMenu:page:","method":"initWithMenu_page","params":{"initWithMenu":1,"page":5},"query":{},"fragment":null}"#,
            #"{"url":"tt://nowhere","matched":false,"external":false,"reason":"no route matches"}"#,
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("scripts print to standard error"))
    }

    @Test func exitStatusIsZeroWhenEverythingMatched() throws {
        let dir = try app(Self.menuApp)
        let result = try WayfinderCLI.run(["match", dir.path, "tt://menu/2", "TT://MENU/2/3?x=1#f"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("pattern  tt://menu/(initWithMenu:int)\n"))
        #expect(result.stdout.contains("params   initWithMenu = 2, page = 3"))
        #expect(result.stdout.contains("query    x = \"1\""))
        #expect(result.stdout.contains("fragment f"))
    }

    @Test func malformedURLsAreNoMatchesWithAReason() throws {
        let dir = try app(Self.menuApp)
        let long = "tt://menu/" + String(repeating: "9", count: 9000)
        let result = try WayfinderCLI.run(["match", "--json", dir.path, "tt://menu/%G0", "tt://menu/%FF", "menu/1", long])
        let reasons = try result.lines.map { try JSON.decode($0)["reason"]?.stringValue ?? "" }
        #expect(reasons == [
            "invalid percent escape in the path at byte 10", "invalid UTF-8 after decoding the path",
            "no scheme (a URL starts with a scheme such as 'tt:')", "URL is 9010 bytes, longer than the 8 KiB limit",
        ])
        #expect(result.status == 1)
    }

    @Test func explainListsLosersAndFailures() throws {
        let dir = try app(Self.menuApp)
        let text = try WayfinderCLI.run(["match", "--explain", dir.path, "tt://n/3"])
        #expect(text.stdout.contains("won     tt://n/(v:int)"))
        #expect(text.stdout.contains("lost    tt://n/(v:number): equal precedence; 'tt://n/(v:int)' sorts first (the last resort)"))
        let json = try WayfinderCLI.run(["match", "--explain", "--json", dir.path, "tt://n/x"])
        let object = try JSON.decode(try #require(json.lines.first))
        #expect(object["matched"] == false)
        #expect(object["explain"]?.arrayValue?.count == 2)
        #expect(object["explain"]?.arrayValue?.first?["verdict"] == "failed")
    }

    @Test func routesInPrecedenceOrderWithTieWarnings() throws {
        let dir = try app(Self.menuApp)
        let result = try WayfinderCLI.run(["routes", "--json", dir.path])
        #expect(result.status == 0)
        let patterns = try result.lines.map { try JSON.decode($0)["pattern"]?.stringValue ?? "" }
        #expect(patterns == ["tt://menu/(initWithMenu:int)/(page:int)", "tt://menu/(initWithMenu:int)", "tt://n/(v:int)", "tt://n/(v:number)"])
        let first = try JSON.decode(result.lines[0])
        #expect(first["method"] == "initWithMenu_page")
        #expect(first["specificity"] == 4)
        #expect(result.stderr.contains("warning: 'tt://n/(v:int)' and 'tt://n/(v:number)' can match the same URL with equal precedence"))
        let table = try WayfinderCLI.run(["routes", dir.path])
        #expect(table.stdout.hasPrefix("PATTERN"))
        #expect(table.lines.count == 5)
    }

    @Test(arguments: [
        ("local x = \n", "app.lua:2:"),
        ("error('broken on purpose')\n", "app.lua:1: broken on purpose"),
        ("local wf = require 'wayfinder'\nwf.map:from('tt://a/(b', function() end)\n", "app.lua:2: pattern 'tt://a/(b'"),
        ("io.open('x')\n", "app.lua:1: attempt to index a nil value (global 'io')"),
        ("\n\nwhile true do end\n", "time budget of 200 ms exceeded"),
        ("local t = {} while true do t[#t+1] = {} end\n", "memory limit of 8 MiB reached"),
    ])
    func appsThatCannotLoadExitTwoNamingTheLine(source: String, expected: String) throws {
        let dir = try app(source)
        let result = try WayfinderCLI.run(["match", "--time-limit", "200", "--memory-limit", "8", dir.path, "tt://a"])
        #expect(result.status == 2)
        #expect(result.stderr.contains(expected), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: [["match"], ["match", "."], ["routes"], ["nonsense"], ["match", "--time-limit", "0", ".", "tt://a"]])
    func wrongCallsExitTwo(arguments: [String]) throws {
        let result = try WayfinderCLI.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(!result.stderr.isEmpty)
    }

    @Test func helpExitsZero() throws {
        let result = try WayfinderCLI.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("match"))
    }

    @Test func theExampleAppLoadsAndAnswers() throws {
        let example = WayfinderCLI.repositoryRoot.appendingPathComponent("lua/examples/restaurant").path
        let routes = try WayfinderCLI.run(["routes", "--json", example])
        #expect(routes.status == 0, "\(routes.stderr)")
        #expect(routes.lines.count >= 10)
        let token = ObjectID.encode("x-coredata://8C3E6F2A-4B1D-4E7A-9F05-2D6B8A1C3E94/Contact/p1")
        let match = try WayfinderCLI.run(["match", "--json", example, "tt://menu/2", "tt://contact/\(token)", "tt://contact/bogus", "tel:5551234"])
        let patterns = try match.lines.map { try JSON.decode($0)["pattern"]?.stringValue ?? "" }
        // tel: is a scheme no route uses: open hands it outside the app, and match says so.
        #expect(patterns == ["tt://menu/(initWithMenu:)", "tt://contact/(initWithObjectID:id)", "tt://contact/(bad)", ""])
        #expect(try JSON.decode(match.lines[3])["external"] == true)
        #expect(match.status == 0, "\(match.stderr)")
    }

    @Test func externalURLsAreReportedAsOpenWouldTreatThem() throws {
        let dir = try app(Self.menuApp + "\nwf.map:from('*', function() end)\n")
        let text = try WayfinderCLI.run(["match", dir.path, "tel:555", "ftp://x/y", "https://example.com/a"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("tel:555\n  external: no route uses the scheme 'tel', so open hands it outside the app"))
        #expect(text.stdout.contains("ftp://x/y\n  external: no route uses the scheme 'ftp'"))
        // With '*' registered, http and https stay in the app (open sends them to '*').
        #expect(text.stdout.contains("https://example.com/a\n  pattern  *"))
        let json = try WayfinderCLI.run(["match", "--json", dir.path, "tel:555"])
        #expect(json.lines == [#"{"url":"tel:555","matched":false,"external":true,"reason":"no route uses the scheme 'tel', so open hands it outside the app"}"#])
        let explained = try WayfinderCLI.run(["match", "--explain", dir.path, "tel:555"])
        #expect(explained.stdout == "tel:555\n  external: no route uses the scheme 'tel', so open hands it outside the app\n")
        let opened = try WayfinderCLI.run(["open", dir.path, "tel:555"])
        #expect(opened.stderr.contains("note: opened outside the app: tel:555\n"), "\(opened.stderr)")
        #expect(!opened.stderr.contains("warning"), "handing a URL outside is what the app asked for: \(opened.stderr)")
    }

    @Test func matchJSONNeverWritesAnEmptyObject() throws {
        let dir = try app(Self.menuApp + """

            wf.map:type("nan", function() return 0/0 end)
            wf.map:from("tt://nan/(v:nan)", function() end)
            """)
        let result = try WayfinderCLI.run(["match", "--json", dir.path, "tt://nan/1"])
        #expect(result.status == 1)
        #expect(result.lines == [#"{"url":"tt://nan/1","matched":false,"external":false,"reason":"no route matches"}"#])
    }

    /// Arguments are bytes; Swift would read a bad byte as U+FFFD and match it.
    @Test func urlArgumentsThatAreNotUTF8DoNotMatch() throws {
        let dir = try app("local wf = require 'wayfinder'\nwf.map:from('tt://seg/(s)', function() end)\n")
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", #"exec "$0" match --json "$1" "$(printf 'tt://seg/\377')"; "#, WayfinderCLI.executable.path, dir.path]
        let out = Pipe()
        shell.standardOutput = out
        shell.standardError = FileHandle.nullDevice
        try shell.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 1)
        let line = String(decoding: data, as: UTF8.self)
        #expect(line.contains(#""matched":false"#), "\(line)")
        #expect(line.contains("the URL is not valid UTF-8 (byte 10 of 10)"), "\(line)")
    }
}
