import Foundation
import Wayfinder

/// A module of Swift functions lent to an app's scripts: `require "app.store"` gives a table of
/// its functions (docs/embedding.md, "Lent modules"). A function takes the script's arguments as
/// plain `Value`s and answers values; an error it throws reaches the script as `nil, reason`, so
/// nothing is ever raised through Swift. The values a script hands a function count against the
/// state's memory limit while the function runs, and a function that keeps them charges them for
/// as long as it keeps them (``LentCall/charge(for:)``).
///
/// ```swift
/// let module = LentModule("app.points", owner: points, functions: [
///     "balance": { points, _ in [.int(points.balance)] },
///     "add": { points, call in
///         guard case .int(let earned) = call[0] else { throw PointsError.notANumber }
///         points.balance += earned
///         return [.int(points.balance)]
///     },
/// ])
/// ```
///
/// The host keeps its modules, and what their functions hold, for as long as scripts can call
/// them: a function that captures an object keeps it alive (never capture it `unowned`: the
/// host may outlive the code that made the module).
///
/// The name is a module name as `require` takes it (letters, digits and underscores, parts joined
/// by dots); it may not be `wayfinder` or start with `wayfinder.` (the bundled modules), nor be a
/// standard library's (`string`, `table`, ...). A lent module comes before an app's file of the same
/// name. Function names are Lua names (`store.get`), not keywords.
public struct LentModule {
    /// One function of the module: the call's arguments in, the results out.
    public typealias Function = (LentCall) throws -> [Value]

    /// The name scripts require it by.
    public let name: String
    /// The functions, by the name scripts call them by.
    public let functions: [String: Function]

    /// A module named `name` holding `functions`.
    public init(_ name: String, functions: [String: Function]) {
        self.name = name
        self.functions = functions
    }

    /// A module of `owner`'s functions: each is handed `owner` with the call, so none needs to
    /// capture it. The module keeps `owner`, and the host keeps the module for as long as scripts
    /// can call it (until the host is released), so the owner cannot go while a script may call
    /// one of its functions.
    public init<Owner: AnyObject>(_ name: String, owner: Owner, functions: [String: (Owner, LentCall) throws -> [Value]]) {
        self.init(name, functions: functions.mapValues { function in { call in try function(owner, call) } })
    }

    /// Names the standard libraries already hold in `package.loaded`.
    static let standardLibraries: Set<String> = ["_G", "string", "table", "math", "utf8", "coroutine", "os"]

    static let keywords: Set<String> = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
        "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
    ]

    /// Why `modules` cannot be lent together, if they cannot.
    static func problem(lending modules: [LentModule]) -> String? {
        var seen = Set<String>()
        for module in modules {
            let name = module.name
            let parts = name.split(separator: ".", omittingEmptySubsequences: false)
            guard !name.isEmpty, parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(isNameByte) }) else {
                return "cannot lend the module '\(name)': a module name is letters, digits and underscores, parts joined by dots (as in 'app.store')"
            }
            if name == "wayfinder" || name.hasPrefix("wayfinder.") {
                return "cannot lend the module '\(name)': 'wayfinder' and 'wayfinder.*' are the bundled modules"
            }
            if standardLibraries.contains(name) {
                return "cannot lend the module '\(name)': it is one of Lua's standard libraries"
            }
            guard seen.insert(name).inserted else { return "cannot lend two modules named '\(name)'" }
            for function in module.functions.keys.sorted() where !isLuaName(function) {
                return "cannot lend '\(name).\(function)': a function name is a Lua name (letters, digits and underscores, not starting with a digit, not a keyword)"
            }
        }
        return nil
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    static func isLuaName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy(isNameByte) && !keywords.contains(name)
    }
}

/// One call of a lent function: the script's arguments, and the state's memory limit to charge
/// what the function keeps.
public struct LentCall {
    /// The function's full name, as errors name it ("app.store.get").
    public let function: String
    /// The arguments in order, each plain data (nil, booleans, numbers, strings, and tables of
    /// them: a table with a metatable, a function or a coroutine is refused before the function
    /// is called).
    public let arguments: [Value]
    let state: LuaState

    /// Argument `index` (from 0), `.null` past the last one: Lua passes a missing argument as nil.
    public subscript(index: Int) -> Value {
        arguments.indices.contains(index) ? arguments[index] : .null
    }

    /// Charges what `value` takes in Swift to the script's memory limit, for as long as the
    /// returned charge lives: a module that keeps a script's values (a store) keeps each one's
    /// charge beside it and drops the charge with the value, so a script cannot grow the app past
    /// its limit through the module. Throws the memory limit's error, charging nothing, when the
    /// value does not fit; thrown on from the function, it stops the script as Lua's own memory
    /// errors do. A charge is the Lua state's of the moment: after a hot reload, values kept from
    /// before count again once charged anew.
    public func charge(for value: Value) throws(ScriptError) -> ExternalCharge {
        try ExternalCharge(value.retainedSize, to: state)
    }
}
