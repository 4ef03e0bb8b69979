import Foundation
import Wayfinder
import WayfinderLua

/// The guest's loyalty points, kept in Swift (a real app would keep them on its server) and lent
/// to the app's scripts as `require "app.points"`.
final class LoyaltyPoints {
    private(set) var balance: Int64 = 0

    /// Why points were refused: the script gets `nil` and this description.
    struct Refused: LocalizedError {
        let errorDescription: String?
    }

    /// The module hands each function the points it keeps; the host keeps them as long as it
    /// can call the module.
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
