/// The files `wayfinder new` writes: an app with two screens and a link, a spec that passes, the
/// editor settings that point LuaLS at the bundled definitions, and luacheck settings carrying the
/// sandbox's globals (the bundled `wayfinder` std, copied in so the app's .luacheckrc stands alone).
struct NewAppTemplate {
    let appName: String
    let metaDirectory: String
    let luacheckStd: String

    var files: [(path: String, text: String)] {
        [("app.lua", app), ("spec/app_spec.lua", spec), (".luarc.json", luarc), (".luacheckrc", luacheckrc)]
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
          before_each(function() app = assert(wf.testing.launch(".")) end)
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
        let library = metaDirectory.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return """
            {
              "runtime.version": "Lua 5.4",
              "workspace.library": ["\(library)"],
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

        """
    }
}
