import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua

/// A lent module's owner lives as long as scripts can call it: the guide's pattern (a module made
/// by an object from itself) works once the code that made it has let the object go.
@Suite("Lent modules' lifetime")
struct LentModuleLifetimeTests {
    /// The guide's loyalty points, as an app copies them.
    final class Points {
        private(set) var balance: Int64 = 0

        struct Refused: LocalizedError {
            let errorDescription: String?
        }

        var module: LentModule {
            LentModule("app.points", owner: self, functions: [
                "balance": { points, _ in [.int(points.balance)] },
                "add": { points, call in
                    guard case .int(let amount) = call[0], amount > 0 else {
                        throw Refused(errorDescription: "points come in whole numbers above zero, not \(call[0])")
                    }
                    points.balance += amount
                    return [.int(points.balance)]
                },
            ])
        }
    }

    static let app = """
        local wf = require "wayfinder"
        wf.map:from("tt://home", wf.controller "Home")
        wf.app { name = "points", root = "tt://home" }
        """

    /// A host lent the points' module, made in a scope of its own: nothing but the module keeps
    /// the points.
    static func lending() throws -> (EmbeddedApp, () -> AnyObject?) {
        let points = Points()
        weak let kept = points
        return (try EmbeddedApp(app, lent: [points.module]), { kept })
    }

    @Test func theOwnerOfALentModuleLivesAsLongAsTheHostAndGoesWithIt() throws {
        var embedded: EmbeddedApp?
        let owner: () -> AnyObject?
        (embedded, owner) = try Self.lending()
        #expect(owner() != nil, "the host keeps the module's owner")
        let answers = try embedded?.run("""
            local points = require "app.points"
            local first = points.add(5)
            local second = points.add(7)
            local none, why = points.add(-1)
            return first, second, points.balance(), none, why
            """)
        #expect(answers == [.int(5), .int(12), .int(12), .null, .string("points come in whole numbers above zero, not -1")])
        embedded = nil
        #expect(owner() == nil, "released with the host: the host made no cycle")
    }
}
