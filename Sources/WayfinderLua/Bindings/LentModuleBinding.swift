import Foundation
import Wayfinder

/// Lent modules (``LentModule``) in Lua: every function of every lent module is this one binding,
/// registered under the function's full name ("app.store.get"), which says which Swift function it
/// runs. The arguments must be plain data; what they take in Swift is charged to the state's
/// memory limit while the function runs; an error the function throws is answered `nil, reason`,
/// except the memory limit's and the time budget's, which stop the script as they always do.
enum LentModuleBinding {
    /// The module's table for `registerLibrary`: each of its functions, by name.
    static func functions(of module: LentModule) -> [(String, LuaBinding)] {
        module.functions.keys.sorted().map { ($0, call) }
    }

    static let call: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let name = call.functionName
            guard let function = host.loader.lentFunctions[name] else {
                throw ScriptError(kind: .runtime, message: "\(name) is not lent to this app")
            }
            var arguments = [Value]()
            arguments.reserveCapacity(call.count)
            for index in 0..<call.count {
                let argument = try call.value(index + 1)
                if let held = argument.heldValue {
                    throw call.argumentError(index + 1, name: nil,
                                             "a lent function takes plain data (nil, booleans, numbers, strings and tables of them), not \(held.typeDescription)")
                }
                arguments.append(argument)
            }
            // The arguments' Swift copy, for as long as the function may look at it.
            let handed = arguments.reduce(0) { $0 + $1.retainedSize }
            let charge = try ExternalCharge(handed, to: call.state)
            defer { withExtendedLifetime(charge) {} }
            // The time the function takes counts against the script's budget (the trampoline
            // checks it when the binding returns).
            return try Refusal.refusingAllButLimits {
                try function(LentCall(function: name, arguments: arguments, state: call.state))
            }
        }
    }
}

extension Value {
    /// The first value inside this one that Swift holds only by reference (a function, a table
    /// with a metatable), nil when it is plain data all through.
    var heldValue: Value? {
        switch self {
        case .handle: return self
        case .array(let items): return items.lazy.compactMap(\.heldValue).first
        case .map(let pairs): return pairs.values.lazy.compactMap(\.heldValue).first
        default: return nil
        }
    }
}
