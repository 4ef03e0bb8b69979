import Foundation

/// The versions of one small app, "shop", that the update tests ship, bundle and install. Each
/// version shows itself in the routes it has: the shipped app has the home page and moods; bundle
/// 1 adds pages; bundle 2 moves pages to items (a new route, and a `migrate` that rewrites the
/// saved tree); bundle 3 is bundle 2 whose every screen raises in the "broken" mood; bundle 4 is
/// bundle 2 with a route of its own.
enum BundleApps {
    static func app(routes: String, version: Int, breaksInBrokenMood: Bool = false, migrate: Bool = false) -> String {
        """
        local wf = require "wayfinder"

        local Page = wf.controller "Page"
        function Page:init(route)
          \(breaksInBrokenMood ? #"if wf.context.app:get("mood") == "broken" then error("no screen in a broken mood") end"# : "")
          self.url = route.url
        end
        function Page:render() return { title = "Page", lines = { self.url } } end

        wf.map:from("tt://home", Page)
        wf.map:from("tt://mood/(mood)", function(route) wf.context.app:set("mood", route.params.mood) end, { mode = "none" })
        \(routes)
        wf.app {
          name = "shop", root = "tt://home", version = \(version),
          \(migrate ? #"""
          migrate = function(state, from)
            if from < 2 then
              for _, entry in ipairs(state.stack or {}) do
                entry.url = entry.url:gsub("^tt://page/", "tt://item/")
              end
            end
            return state
          end,
          """# : "")
        }
        """
    }

    static let shipped = app(routes: "", version: 1)
    static let v1 = app(routes: #"wf.map:from("tt://page/(id)", Page)"#, version: 1)
    static let v2 = app(routes: #"wf.map:from("tt://item/(id)", Page)"#, version: 2, migrate: true)
    static let v3 = app(routes: #"wf.map:from("tt://item/(id)", Page)"#, version: 2, breaksInBrokenMood: true, migrate: true)
    static let v4 = app(routes: #"wf.map:from("tt://item/(id)", Page)"# + "\n" + #"wf.map:from("tt://four", Page)"#, version: 2, migrate: true)
}
