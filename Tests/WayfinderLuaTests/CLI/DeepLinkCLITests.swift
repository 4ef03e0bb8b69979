import Foundation
import Testing

/// Deep links through the real binary: back stacks built from a link's own params.
@Suite("wayfinder open: deep links")
struct DeepLinkCLITests {
    static let catalog = WayfinderCLI.repositoryRoot.appendingPathComponent("lua/spec/apps/catalog").path

    @Test func aLinkToAnItemOpensHomeItsCategoryThenTheItem() throws {
        let result = try WayfinderCLI.run(["open", Self.catalog, "--link", "tt://cat/shoes/item/3"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "stack: tt://home > tt://cat/shoes > tt://cat/shoes/item/3\nvisible: tt://cat/shoes/item/3\n")
    }

    @Test func threeTwentysExternalModeIsAnActionALinkFromOutsideMayRun() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", """
            local wf = require "wayfinder"
            local Page = wf.controller "Page"
            function Page:init() end
            wf.map:from("tt://home", Page)
            wf.map:from("tt://ping", function() print("pinged") end, { mode = "external" })
            wf.app { root = "tt://home", persistence = "none" }
            """)
        let routes = try WayfinderCLI.run(["routes", directory.path, "--json"])
        #expect(routes.status == 0, "\(routes.stderr)")
        #expect(routes.lines.contains { $0.contains(#""pattern":"tt://ping""#) && $0.contains(#""mode":"none""#) && $0.contains(#""external":true"#) }, "\(routes.stdout)")
        let linked = try WayfinderCLI.run(["open", directory.path, "--link", "tt://ping"])
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(linked.stdout == "stack: tt://home\nvisible: tt://home\n")
        #expect(linked.stderr.contains("pinged"))
        try directory.write("app.lua", """
            local wf = require "wayfinder"
            wf.map:from("tt://ping", function() end, { mode = "external", external = false })
            """)
        let contradicted = try WayfinderCLI.run(["routes", directory.path])
        #expect(contradicted.status == 2)
        #expect(contradicted.stderr.contains("app.lua:2: map:from: mode 'external' is the option external = true with no screen; it cannot take external = false"), "\(contradicted.stderr)")
    }

    @Test func aParentThatCannotBeFilledFailsTheLoadAtTheScriptsLine() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", """
            local wf = require "wayfinder"
            local Page = wf.controller "Page"
            function Page:init() end
            wf.map:from("tt://home", Page)
            wf.map:from("tt://item/(id:int)", Page, { parent = "tt://cat/(c)" })
            wf.app { root = "tt://home", persistence = "none" }
            """)
        let result = try WayfinderCLI.run(["open", directory.subpath("app.lua"), "tt://item/3"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("app.lua:5: pattern 'tt://item/(id:int)': parent 'tt://cat/(c)' cannot be filled: "
            + "the parent of 'tt://item/(id:int)' needs the param 'c', which 'tt://item/(id:int)' does not have (its params: id)"), "\(result.stderr)")
    }
}

/// `wayfinder links`: web links onto app routes, and the files that prove them.
@Suite("wayfinder links")
struct WebLinksCLITests {
    static let catalog = DeepLinkCLITests.catalog
    static let fingerprint = Array(repeating: "0F", count: 32).joined(separator: ":")

    static func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    @Test func aWebLinkOpensTheItemWithItsBackStack() throws {
        let result = try WayfinderCLI.run(["open", Self.catalog, "--link", "https://shop.example.com/cat/shoes/item/3"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "stack: tt://home > tt://cat/shoes > tt://cat/shoes/item/3\nvisible: tt://cat/shoes/item/3\n")
        let refused = try WayfinderCLI.run(["open", Self.catalog, "--link", "https://shop.example.com/odd"])
        #expect(refused.status == 1)
        #expect(refused.stderr == "wayfinder: cannot open 'tt://odd' from outside the app: its route 'tt://odd' is not marked external\n")
    }

    @Test func listsWhichWebURLsOpenWhichExternalRoutes() throws {
        let result = try WayfinderCLI.run(["links", Self.catalog])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.dropFirst().map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) } == [
            ["https://Shop.Example.com/m/(c)/item/(id:int)", "tt://cat/(c)/item/(id:int)"],
            ["https://shop.example.com/cat/(c)/item/(id:int)", "tt://cat/(c)/item/(id:int)"],
            ["https://shop.example.com/sale/(n:int)", "tt://sale/(n:int)"],
            ["https://Shop.Example.com/m/(c)", "tt://cat/(c)"],
            ["https://shop.example.com/cat/(c)", "tt://cat/(c)"],
        ])
        #expect(!result.stdout.contains("tt://odd"), "not external")
    }

    @Test func writesAnAppleAppSiteAssociationOfTheDocumentedShape() throws {
        let result = try WayfinderCLI.run(["links", Self.catalog, "--apple-app-site-association", "--app-id", "ABCDE12345.com.example.shop"])
        #expect(result.status == 0, "\(result.stderr)")
        let file = try #require(try Self.json(result.stdout) as? [String: Any])
        #expect(Array(file.keys) == ["applinks"])
        let applinks = try #require(file["applinks"] as? [String: Any])
        let details = try #require(applinks["details"] as? [[String: Any]])
        #expect(details.count == 1)
        #expect(details[0]["appIDs"] as? [String] == ["ABCDE12345.com.example.shop"])
        let components = try #require(details[0]["components"] as? [[String: String]])
        #expect(components.map { $0["/"] } == ["/m/*/item/*", "/cat/*/item/*", "/sale/*", "/m/*", "/cat/*"])
        #expect(components.allSatisfy { Set($0.keys) == ["/", "comment"] })
        #expect(components[2]["comment"] == "opens tt://sale/(n:int)")
    }

    @Test func writesAssetLinksOfTheDocumentedShape() throws {
        let result = try WayfinderCLI.run(["links", Self.catalog, "--assetlinks", "--package", "com.example.shop", "--sha256", Self.fingerprint])
        #expect(result.status == 0, "\(result.stderr)")
        let statements = try #require(try Self.json(result.stdout) as? [[String: Any]])
        #expect(statements.count == 1)
        #expect(statements[0]["relation"] as? [String] == ["delegate_permission/common.handle_all_urls"])
        let target = try #require(statements[0]["target"] as? [String: Any])
        #expect(target["namespace"] as? String == "android_app")
        #expect(target["package_name"] as? String == "com.example.shop")
        #expect(target["sha256_cert_fingerprints"] as? [String] == [Self.fingerprint])
        for bad in [String(Self.fingerprint.dropLast(3)), Self.fingerprint.lowercased(), "not a fingerprint"] {
            let refused = try WayfinderCLI.run(["links", Self.catalog, "--assetlinks", "--package", "com.example.shop", "--sha256", bad])
            #expect(refused.status == 2, "\(bad)")
            #expect(refused.stderr.contains("--sha256 must be 32 bytes"), "\(refused.stderr)")
        }
        let noPackage = try WayfinderCLI.run(["links", Self.catalog, "--assetlinks", "--sha256", Self.fingerprint])
        #expect(noPackage.status == 2)
    }

    @Test func checkCatchesARouteAddedToTheMapButNotToTheFile() throws {
        let directory = try TemporaryDirectory()
        let published = directory.subpath("apple-app-site-association")
        let written = try WayfinderCLI.run(["links", Self.catalog, "--apple-app-site-association", "--app-id", "ABCDE12345.com.example.shop"])
        try written.stdout.write(toFile: published, atomically: true, encoding: .utf8)
        let same = try WayfinderCLI.run(["links", Self.catalog, "--check", published])
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stdout == "\(published) covers the 5 routes that open from https://shop.example.com\n")

        let app = try String(contentsOfFile: Self.catalog + "/app.lua", encoding: .utf8)
        try directory.write("grown/app.lua", app + "\nwf.map:from(\"tt://brand/(b)\", Page, { external = true })\n")
        let grown = try WayfinderCLI.run(["links", directory.subpath("grown"), "--check", published])
        #expect(grown.status == 1)
        #expect(grown.lines == ["\(published) differs from the routes that open from https://shop.example.com (- in the file only, + in the map only):",
                                #"+ {"/":"/brand/*"}"#])

        // A component for a route the map no longer opens from the web is reported too.
        try directory.write("shrunk/app.lua", app.replacingOccurrences(of: "{\n  external = true,\n  parent = function", with: "{\n  parent = function"))
        let shrunk = try WayfinderCLI.run(["links", directory.subpath("shrunk"), "--check", published])
        #expect(shrunk.status == 1)
        #expect(shrunk.lines.last == #"- {"/":"/sale/*"}"#)
    }

    @Test func checkRefusesAFileThatIsNotAnAppleAppSiteAssociation() throws {
        let directory = try TemporaryDirectory()
        try directory.write("broken", "{ not json")
        try directory.write("other", #"[{"relation": []}]"#)
        let broken = try WayfinderCLI.run(["links", Self.catalog, "--check", directory.subpath("broken")])
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("cannot read '\(directory.subpath("broken"))' as JSON"), "\(broken.stderr)")
        let other = try WayfinderCLI.run(["links", Self.catalog, "--check", directory.subpath("other")])
        #expect(other.status == 2)
        #expect(other.stderr.contains("it has no applinks.details list"), "\(other.stderr)")
    }

    @Test func linkPrefixesThatCannotBeOnesAreRefusedAtTheAppsLine() throws {
        let directory = try TemporaryDirectory()
        for (name, prefixes, reason) in [
            ("nohost", #"{ ["https:///"] = "tt://" }"#, "an outside prefix must name its host"),
            ("noslash", #"{ ["https://shop.example.com"] = "tt://" }"#, "a prefix must be a URL's beginning"),
            ("notext", #"{ ["https://shop.example.com/"] = 3 }"#, "'https://shop.example.com/' maps to an integer"),
        ] {
            try directory.write("\(name).lua", """
                local wf = require "wayfinder"
                wf.map:from("tt://home", function() end)
                wf.app { root = "tt://home", link_prefixes = \(prefixes) }
                """)
            let result = try WayfinderCLI.run(["links", directory.subpath("\(name).lua")])
            #expect(result.status == 2)
            #expect(result.stderr.contains("\(name).lua:3: wf.app: "), "\(result.stderr)")
            #expect(result.stderr.contains(reason), "\(result.stderr)")
        }
    }
}

/// Routes by name through the real binary: an app's `nav:open { route = ..., params = ... }` and
/// `wf.url_for_route`, and `wayfinder routes --lua-defs`.
@Suite("routes by name")
struct NamedRouteCLITests {
    static let app = """
        local wf = require "wayfinder"
        local nav = wf.navigator
        local Page = wf.controller "Page"
        function Page:init(route) self.url = route.url end
        wf.map:from("tt://home", Page, { name = "home" })
        wf.map:from("tt://cat/(c)/item/(id:int)", Page, { name = "item", parent = "tt://cat/(c)" })
        wf.map:from("tt://cat/(c)", Page, { name = "category" })
        wf.map:from("tt://go/good", function() nav:open { route = "item", params = { c = "hats", id = 2 } } end, { mode = "none" })
        wf.map:from("tt://go/bad", function() nav:open { route = "item", params = { c = "hats" } } end, { mode = "none" })
        wf.map:from("tt://go/url", function() nav:open(wf.url_for_route("item", { c = "hats", id = "two" })) end, { mode = "none" })
        wf.app { root = "tt://home", persistence = "none" }
        """

    @Test func anAppOpensARouteByNameAndAMissingOrMistypedParamFailsAtItsLine() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", Self.app)
        let good = try WayfinderCLI.run(["open", directory.path, "tt://go/good"])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout == "stack: tt://home > tt://cat/hats > tt://cat/hats/item/2\nvisible: tt://cat/hats/item/2\n")
        let bad = try WayfinderCLI.run(["open", directory.path, "tt://go/bad"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("app.lua:9: nav:open: route 'item' (tt://cat/(c)/item/(id:int)) needs the param 'id' (its params: c, id)"), "\(bad.stderr)")
        #expect(bad.stdout == "stack: tt://home\nvisible: tt://home\n")
        let mistyped = try WayfinderCLI.run(["open", directory.path, "tt://go/url"])
        #expect(mistyped.status == 1)
        #expect(mistyped.stderr.contains("app.lua:10: route 'item' (tt://cat/(c)/item/(id:int)): param 'id' = 'two' is not a valid int"), "\(mistyped.stderr)")
    }

    @Test func luaDefsDeclareEachNamedRouteAndItsTypedParams() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", Self.app)
        let result = try WayfinderCLI.run(["routes", directory.path, "--lua-defs"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.first == "---@meta")
        #expect(result.lines.contains(#"---@alias wayfinder.route_name "item"|"category"|"home""#), "\(result.stdout)")
        let item = try #require(result.lines.firstIndex(of: "---@class wayfinder.route_params.item"))
        #expect(Array(result.lines[(item + 1)...].prefix(2)) == ["---@field c string", "---@field id integer"])
        #expect(result.lines.contains("---@field params wayfinder.route_params.category"))
        #expect(!result.stdout.contains("go/"), "unnamed routes are not declared")
        let both = try WayfinderCLI.run(["routes", directory.path, "--lua-defs", "--json"])
        #expect(both.status == 2)
    }
}
