import CLua
import CLuaShim
import OrderedCollections
import Wayfinder

/// What a binding sees of its call: typed access to the arguments and the state.
///
/// ```swift
/// let open: LuaBinding = { L in
///     LuaCall.run(L) { call in
///         let url = try call.string(1, name: "url")
///         return [.string(url)]
///     }
/// }
/// ```
///
/// A ``Refusal`` thrown by the body is answered `nil, reason`. Other errors are raised in Lua by the
/// trampoline, after Swift has returned: an error that came from Lua (a ``ScriptError`` with a
/// traceback) as it is, anything else as a message prefixed with the calling script's "file:line:".
package struct LuaCall {
    package let state: LuaState
    /// The thread (main state or coroutine) the binding runs on.
    package let thread: OpaquePointer
    /// How many arguments were passed.
    package let count: Int
    /// The argument a field being read belongs to (`forEachField`): errors name it, not the
    /// field's place on the stack.
    var fieldsOf: Int?

    package static func run(_ L: OpaquePointer?, _ body: (LuaCall) throws -> [Value]) -> Int32 {
        guard let L else { return 0 }
        let state = LuaState.from(L)
        state.drainReleasedHandles()
        let call = LuaCall(state: state, thread: L, count: Int(lua_gettop(L)), fieldsOf: nil)
        let shim = state.shim
        let start = shim.pointee.ops_len
        let results: [Value]
        do {
            results = try body(call)
        } catch let refusal as Refusal {
            wf_ops_truncate(shim, start)
            results = [.null, .string(refusal.reason)]
        } catch let error as ScriptError where error.frames != nil {
            // The message as it is, carrying its frames and position apart: the message handler
            // of the outer call hands back the innermost ones.
            wf_ops_truncate(shim, start)
            state.writeString(error.message)
            var carried: OrderedDictionary<String, Value> = ["frames": .array(error.frames?.map(\.record) ?? [])]
            if let file = error.file, let line = error.line {
                carried["file"] = .string(file)
                carried["line"] = .int(Int64(line))
            }
            // Frames that cannot be written (past the memory the ops may take) are left behind.
            let written = shim.pointee.ops_len
            if (try? state.write(Value.map(carried), depth: 0)) == nil { wf_ops_truncate(shim, written) }
            shim.pointee.raise_kind = error.kind.raised
            return WF_RAISE_VALUE
        } catch {
            wf_ops_truncate(shim, start)
            state.writeString(String(describing: error))
            shim.pointee.raise_kind = (error as? ScriptError)?.kind.raised ?? Int32(WF_KIND_RUNTIME)
            return WF_RAISE_MESSAGE
        }
        do {
            try state.write(results)
        } catch {
            wf_ops_truncate(shim, start)
            state.writeString("\(call.functionName): cannot return \(error.message)")
            return WF_RAISE_MESSAGE
        }
        return WF_RETURN_BUILT
    }

    /// The name the binding was registered under ("wayfinder.core.open").
    package var functionName: String {
        let index = wf_upvalueindex(2)
        guard lua_type(thread, index) == LUA_TSTRING else { return "?" }
        var reader = ValueReader(state: state, thread: thread)
        return (try? reader.readString(index)) ?? "?"
    }

    /// The Lua type of an argument; `none` for an argument not passed.
    package enum ArgumentType: Sendable, Equatable {
        /// The types Lua values have, `none` standing for a missing argument and `null` for `nil`.
        case none, null, boolean, number, string, table, function, userdata, thread
    }

    /// The type of the argument at `index` (from 1, as Lua counts).
    package func type(_ index: Int) -> ArgumentType {
        switch lua_type(thread, Int32(index)) {
        case LUA_TNIL: return .null
        case LUA_TBOOLEAN: return .boolean
        case LUA_TNUMBER: return .number
        case LUA_TSTRING: return .string
        case LUA_TTABLE: return .table
        case LUA_TFUNCTION: return .function
        case LUA_TTHREAD: return .thread
        case LUA_TUSERDATA, LUA_TLIGHTUSERDATA: return .userdata
        default: return .none
        }
    }

    /// The argument as a `Value` (nil when absent).
    package func value(_ index: Int, name: String? = nil) throws(ScriptError) -> Value {
        guard index >= 1, index <= count else { return .null }
        do {
            return try state.value(at: Int32(index), in: thread)
        } catch {
            throw limitOrArgumentError(index, name: name, error)
        }
    }

    /// A limit the argument's crossing reached is the limit's error at the caller's line (as any
    /// copy the host would keep); anything else is a bad argument.
    func limitOrArgumentError(_ index: Int, name: String?, _ error: ScriptError) -> ScriptError {
        if error.kind == .memory || error.kind == .timeout { return ScriptError(kind: error.kind, message: error.message) }
        return argumentError(index, name: name, error.message)
    }

    /// `file:line` where the function argument at `index` is defined (`wf.app`'s `migrate`, a
    /// route's `guard`); nil when the argument is not a function.
    package func definition(ofFunctionAt index: Int) -> String? {
        guard type(index) == .function else { return nil }
        var record = lua_Debug()
        lua_pushvalue(thread, Int32(index))
        guard lua_getinfo(thread, ">S", &record) != 0 else { return nil }
        let source = withUnsafeBytes(of: record.short_src) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return "\(source):\(record.linedefined)"
    }

    /// The argument as a `Value`, a table that is not plain data held by reference
    /// (`LuaState.valueHoldingTables`).
    package func valueHoldingTables(_ index: Int, name: String? = nil) throws(ScriptError) -> Value {
        guard index >= 1, index <= count else { return .null }
        do {
            return try state.valueHoldingTables(at: Int32(index), in: thread)
        } catch {
            throw limitOrArgumentError(index, name: name, error)
        }
    }

    /// The string argument at `index`; throws a conversion error naming `name` when it is not a string.
    package func string(_ index: Int, name: String? = nil) throws(ScriptError) -> String {
        guard let string = try optionalString(index, name: name) else {
            throw typeError(index, name: name, expected: "string")
        }
        return string
    }

    /// The string argument at `index`, or nil when it is `nil` or missing; throws when it is another type.
    package func optionalString(_ index: Int, name: String? = nil) throws(ScriptError) -> String? {
        switch lua_type(thread, Int32(index)) {
        case LUA_TNIL, LUA_TNONE: return nil
        case LUA_TSTRING:
            var reader = ValueReader(state: state, thread: thread)
            do {
                return try reader.readString(Int32(index))
            } catch where error.limit == .memory {
                // Garbage counts against the limit until collected: once, collect and read again.
                try state.collectGarbage()
                var again = ValueReader(state: state, thread: thread)
                do {
                    return try again.readString(Int32(index))
                } catch {
                    throw ScriptError(kind: error.limit ?? .conversion, message: error.reason)
                }
            } catch where error.limit != nil {
                throw ScriptError(kind: error.limit!, message: error.reason)
            } catch {
                throw argumentError(index, name: name, error.reason)
            }
        default: throw typeError(index, name: name, expected: "string")
        }
    }

    /// An integer, or a float with an exact integer value.
    package func int(_ index: Int, name: String? = nil) throws(ScriptError) -> Int64 {
        guard let value = try optionalInt(index, name: name) else {
            throw typeError(index, name: name, expected: "integer")
        }
        return value
    }

    /// The integer argument at `index`, or nil when it is `nil` or missing; throws when it is another type.
    package func optionalInt(_ index: Int, name: String? = nil) throws(ScriptError) -> Int64? {
        switch lua_type(thread, Int32(index)) {
        case LUA_TNIL, LUA_TNONE: return nil
        case LUA_TNUMBER:
            var exact: Int32 = 0
            let value = lua_tointegerx(thread, Int32(index), &exact)
            guard exact != 0 else { throw argumentError(index, name: name, "number has no integer representation") }
            return Int64(value)
        default: throw typeError(index, name: name, expected: "integer")
        }
    }

    /// The number argument at `index`; throws a conversion error naming `name` when it is not a number.
    package func double(_ index: Int, name: String? = nil) throws(ScriptError) -> Double {
        guard let value = try optionalDouble(index, name: name) else {
            throw typeError(index, name: name, expected: "number")
        }
        return value
    }

    /// The number argument at `index`, or nil when it is `nil` or missing; throws when it is another type.
    package func optionalDouble(_ index: Int, name: String? = nil) throws(ScriptError) -> Double? {
        switch lua_type(thread, Int32(index)) {
        case LUA_TNIL, LUA_TNONE: return nil
        case LUA_TNUMBER: return Double(lua_tonumberx(thread, Int32(index), nil))
        default: throw typeError(index, name: name, expected: "number")
        }
    }

    /// The boolean argument at `index`; throws a conversion error naming `name` when it is not a boolean.
    package func bool(_ index: Int, name: String? = nil) throws(ScriptError) -> Bool {
        guard let value = try optionalBool(index, name: name) else {
            throw typeError(index, name: name, expected: "boolean")
        }
        return value
    }

    /// The boolean argument at `index`, or nil when it is `nil` or missing; throws when it is another type.
    package func optionalBool(_ index: Int, name: String? = nil) throws(ScriptError) -> Bool? {
        switch lua_type(thread, Int32(index)) {
        case LUA_TNIL, LUA_TNONE: return nil
        case LUA_TBOOLEAN: return lua_toboolean(thread, Int32(index)) != 0
        default: throw typeError(index, name: name, expected: "boolean")
        }
    }

    /// Lua's truth: everything but nil and false.
    package func isTruthy(_ index: Int) -> Bool {
        lua_toboolean(thread, Int32(index)) != 0
    }

    /// Holds the argument (any Lua value) beyond this call.
    package func ref(_ index: Int) throws(ScriptError) -> LuaRef {
        guard index >= 1, index <= count else { throw argumentError(index, name: nil, "value expected") }
        return try state.makeRef(at: Int32(index), in: thread)
    }

    /// The argument as a handle, whatever its type, e.g. a class table a route will construct.
    /// `kind` is how the handle describes itself (defaults to the Lua type name).
    package func handle(_ index: Int, kind: String? = nil) throws(ScriptError) -> Value.Handle {
        guard index >= 1, index <= count else { throw argumentError(index, name: nil, "value expected") }
        let kind = kind ?? String(cString: lua_typename(thread, lua_type(thread, Int32(index))))
        return try state.handle(at: Int32(index), in: thread, kind: kind)
    }

    /// Holds a function argument beyond this call.
    package func function(_ index: Int, name: String? = nil) throws(ScriptError) -> LuaRef {
        guard lua_type(thread, Int32(index)) == LUA_TFUNCTION else {
            throw typeError(index, name: name, expected: "function")
        }
        return try state.makeRef(at: Int32(index), in: thread)
    }

    /// The Swift object of a userdata made by ``LuaState/newObject(_:metatable:)``.
    package func object<T: AnyObject>(_ index: Int, as type: T.Type, name: String? = nil) throws(ScriptError) -> T {
        guard let pointer = wf_toobject(thread, Int32(index)),
            let object = Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue() as? T
        else {
            throw typeError(index, name: name, expected: String(describing: T.self))
        }
        return object
    }

    /// The conversion error for the argument at `index` (called `name`) not being `expected`.
    package func typeError(_ index: Int, name: String?, expected: String) -> ScriptError {
        let got = String(cString: lua_typename(thread, lua_type(thread, Int32(index))))
        return argumentError(index, name: name, "\(expected) expected, got \(got)")
    }

    /// "bad argument #2 to 'wf.open' (url: string expected, got nil)", as Lua's own functions say it.
    package func argumentError(_ index: Int, name: String?, _ problem: String) -> ScriptError {
        let detail = name.map { "\($0): \(problem)" } ?? problem
        return ScriptError(kind: .conversion, message: "bad argument #\(fieldsOf ?? index) to '\(functionName)' (\(detail))")
    }

    /// Calls `body` with each string key of the table argument at `index` and the stack index of
    /// its value, read as the arguments are (`field.optionalString(valueIndex, ...)`); errors name
    /// the table's argument. The table is walked raw: no metamethod runs.
    package func forEachField(ofTableAt index: Int,
                             _ body: (_ field: LuaCall, _ key: String, _ valueIndex: Int) throws(ScriptError) -> Void) throws(ScriptError) {
        let table = lua_absindex(thread, Int32(index))
        let top = lua_gettop(thread)
        defer { wf_settop(thread, top) }
        guard lua_type(thread, table) == LUA_TTABLE, lua_checkstack(thread, 3) != 0 else { return }
        var field = self
        field.fieldsOf = index
        var reader = ValueReader(state: state, thread: thread)
        lua_pushnil(thread)
        while lua_next(thread, table) != 0 {
            let valueIndex = Int(lua_gettop(thread))
            if lua_type(thread, -2) == LUA_TSTRING, let key = try? reader.readString(Int32(valueIndex) - 1) {
                try body(field, key, valueIndex)
            }
            wf_pop(thread, 1)
        }
    }
}
