/// The files `wayfinder new` writes: an app with two screens and a link, a spec that passes, the
/// editor settings that point LuaLS at a copy of the bundled definitions, and luacheck settings
/// carrying the sandbox's globals (the bundled `wayfinder` std). Both are copied in, from the
/// modules compiled into the binary, so the app stands alone wherever the binary is.
struct NewAppTemplate {
    let appName: String
    /// The bundled LuaLS definitions (`meta/wayfinder.lua`).
    let definitions: String
    let luacheckStd: String

    /// Where the definitions go, inside the app.
    static let definitionsDirectory = ".luals"

    var files: [(path: String, text: String)] {
        [("app.lua", app), ("spec/app_spec.lua", spec), (".luarc.json", luarc), (".luacheckrc", luacheckrc),
         (Self.definitionsDirectory + "/wayfinder.lua", definitions)]
    }

    var app: String {
        """
        local wf = require "wayfinder"

        local Home = wf.controller "Home"

        function Home:render()
          return {
            title = "\(appName)",
            lines = { "Edit app.lua: wayfinder run . --watch shows each save." },
            links = { { "About", "tt://about" } },
          }
        end

        local About = wf.controller "About"

        function About:render()
          return { title = "About", lines = { "Made with Wayfinder." }, links = { { "Home", "tt://home" } } }
        end

        wf.map:from("tt://home", Home, { mode = "share" })
        wf.map:from("tt://about", About)

        wf.app { name = "\(appName)", root = "tt://home" }

        """
    }

    var spec: String {
        """
        local wf = require "wayfinder"

        describe("\(appName)", function()
          local app
          -- The app is the directory above spec/, wherever `wayfinder test` runs from.
          before_each(function() app = assert(wf.testing.launch(wf.testing.here(".."))) end)
          after_each(function() app:close() end)

          it("opens on the home screen", function()
            assert.equal("tt://home", app:url())
            assert.equal("\(appName)", app:render().title)
          end)

          it("follows the link to About and comes back", function()
            local link = app:render().links[1]
            assert.is_true(app:open(link.url))
            assert.equal("About", app:render().title)
            assert.is_true(app:back())
            assert.equal("tt://home", app:url())
          end)
        end)

        """
    }

    var luarc: String {
        """
            {
              "runtime.version": "Lua 5.4",
              "workspace.library": ["\(Self.definitionsDirectory)"],
              "diagnostics.globals": ["describe", "it", "pending", "before_each", "after_each", "setup", "teardown", "insulate", "expose", "finally", "spy", "stub", "mock", "match"]
            }

            """
    }

    var luacheckrc: String {
        """
        -- luacheck for a Wayfinder app: the sandbox's globals (no io, no debug, os.time/clock/date
        -- only), busted's words in spec/.
        stds.wayfinder = (function()
        \(luacheckStd)
        end)()
        std = "wayfinder"
        self = false -- a controller's hook need not use self
        files["spec"] = { std = "wayfinder+busted" }
        -- The LuaLS definitions declare, they do not run.
        exclude_files = { "\(Self.definitionsDirectory)" }

        """
    }
}
