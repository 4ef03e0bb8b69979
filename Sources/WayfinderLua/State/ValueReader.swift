import CLua
import CLuaShim
import OrderedCollections
import Wayfinder

/// Lua values to `Value`, with only API that cannot raise (no metamethods, no number-to-string
/// conversion in place, no allocation except through protected calls).
extension LuaState {
    /// The deepest a script's value may be nested. The host may hold such a value inside a few
    /// levels of its own (a query inside a route's fields, a saved state inside the record
    /// `persist` answers), which neither reading nor writing counts against it.
    static let maximumDepth = 100
    /// The most levels of its own the host wraps around a script's value when it hands the value
    /// back to Lua.
    static let hostLevels = 4

    /// Converts the value at `index` of `thread`; the stack is left as it was, thrown or not.
    /// `wrapperLevels` are levels of the host's own around the script's values (a record a hook of
    /// the bundled modules answers), not counted toward the depth limit. `named` names the value
    /// in the message (`state.x.y: ...`).
    package func value(at index: Int32, in thread: OpaquePointer, wrapperLevels: Int = 0, named name: String? = nil) throws(ScriptError) -> Value {
        let top = lua_gettop(thread)
        var reader = ValueReader(state: self, thread: thread)
        do {
            return try reader.read(lua_absindex(thread, index), depth: -wrapperLevels)
        } catch {
            wf_settop(thread, top)
            throw ScriptError(kind: .conversion, message: error.describe(root: name))
        }
    }

    /// Converts the value at `index` as `value(at:in:)` does, except that a table that is not
    /// plain data (it mixes array items and string keys, is not a sequence, has keys of other
    /// types or contains itself) is held by reference, at whatever depth it sits, rather than
    /// failing the whole value. Persistence then leaves such a table out, naming its key.
    func valueHoldingTables(at index: Int32, in thread: OpaquePointer) throws(ScriptError) -> Value {
        let top = lua_gettop(thread)
        var reader = ValueReader(state: self, thread: thread)
        reader.holdsTablesThatAreNotData = true
        do {
            return try reader.read(lua_absindex(thread, index), depth: 0)
        } catch {
            wf_settop(thread, top)
            throw ScriptError(kind: .conversion, message: error.describe())
        }
    }

    /// The string-keyed fields of the table at `index`, each converted alone as
    /// `valueHoldingTables` converts; a key that is not a string, or a value that does not convert
    /// (a string that is not UTF-8), is left out and named in `leftOut`.
    func fieldsHoldingTables(ofTableAt index: Int32, in thread: OpaquePointer) -> (fields: OrderedDictionary<String, Value>, leftOut: [String]) {
        let table = lua_absindex(thread, index)
        let top = lua_gettop(thread)
        defer { wf_settop(thread, top) }
        var fields = OrderedDictionary<String, Value>()
        var leftOut: [String] = []
        guard lua_type(thread, table) == LUA_TTABLE, lua_checkstack(thread, 3) != 0 else { return (fields, leftOut) }
        let reader = ValueReader(state: self, thread: thread)
        lua_pushnil(thread)
        while lua_next(thread, table) != 0 {
            let valueIndex = lua_gettop(thread)
            if lua_type(thread, -2) == LUA_TSTRING, let key = try? reader.readString(valueIndex - 1) {
                do {
                    fields[key] = try valueHoldingTables(at: valueIndex, in: thread)
                } catch {
                    leftOut.append("'\(key)' (\(error.message))")
                }
            } else {
                leftOut.append("key \(reader.describeKey(at: valueIndex - 1)) (not a string)")
            }
            wf_pop(thread, 1)
        }
        return (fields, leftOut)
    }

    func values(from first: Int32, count: Int32, in thread: OpaquePointer, what: String, wrapperLevels: Int = 0) throws(ScriptError) -> [Value] {
        var values: [Value] = []
        values.reserveCapacity(Int(count))
        for i in 0..<count {
            do {
                values.append(try value(at: first + i, in: thread, wrapperLevels: wrapperLevels))
            } catch {
                throw ScriptError(kind: .conversion, message: "\(what) \(i + 1): \(error.message)")
            }
        }
        return values
    }
}

/// Why a value could not be converted, and where in it.
struct ConversionFailure: Error {
    var path: [PathComponent] = []
    var reason: String

    enum PathComponent {
        case key(String)
        case index(Int64)
    }

    /// "at x.y[2]: reason", or with the value's name "state.x.y[2]: reason". A path longer than a
    /// few steps (a table nested too deep) shows its first and last steps and how long it is.
    func describe(root: String? = nil) -> String {
        let steps = path.reversed().map { component -> (text: String, isName: Bool) in
            switch component {
            case .key(let key):
                if !key.isEmpty, key.utf8.allSatisfy({ $0 == 95 || (65...90).contains($0) || (97...122).contains($0) || (48...57).contains($0) }),
                    !(48...57).contains(key.utf8.first!)
                {
                    return (key, true)
                }
                return ("[\"\(key)\"]", false)
            case .index(let i): return ("[\(i)]", false)
            }
        }
        var text = root ?? ""
        func append(_ step: (text: String, isName: Bool)) {
            text += step.isName && !text.isEmpty ? "." + step.text : step.text
        }
        if steps.count > Self.shownSteps + 2 {
            steps.prefix(Self.shownSteps).forEach(append)
            text += ".…"
            steps.suffix(2).forEach(append)
            text += " (\(steps.count) levels down)"
        } else {
            steps.forEach(append)
        }
        if text.isEmpty { return reason }
        return root == nil ? "at \(text): \(reason)" : "\(text): \(reason)"
    }

    /// The first steps of a long path a message shows.
    static let shownSteps = 4
}

struct ValueReader {
    let state: LuaState
    let thread: OpaquePointer
    /// Tables on the path from the root, to tell a cycle from a table that is merely shared.
    var visiting: Set<UnsafeRawPointer> = []
    /// A table that is not plain data becomes a handle instead of an error.
    var holdsTablesThatAreNotData = false

    init(state: LuaState, thread: OpaquePointer) {
        self.state = state
        self.thread = thread
    }

    mutating func read(_ index: Int32, depth: Int) throws(ConversionFailure) -> Value {
        switch lua_type(thread, index) {
        case LUA_TNIL, LUA_TNONE: return .null
        case LUA_TBOOLEAN: return .bool(lua_toboolean(thread, index) != 0)
        case LUA_TNUMBER:
            if wf_isinteger(thread, index) != 0 { return .int(Int64(lua_tointegerx(thread, index, nil))) }
            return .double(Double(lua_tonumberx(thread, index, nil)))
        case LUA_TSTRING: return .string(try readString(index))
        case LUA_TTABLE:
            if lua_getmetatable(thread, index) != 0 {
                wf_pop(thread, 1)
                return .handle(try makeHandle(index, kind: "table"))
            }
            guard holdsTablesThatAreNotData else { return try readTable(index, depth: depth) }
            let top = lua_gettop(thread)
            do {
                return try readTable(index, depth: depth)
            } catch {
                wf_settop(thread, top)
                return .handle(try makeHandle(index, kind: "table"))
            }
        case LUA_TFUNCTION: return .handle(try makeHandle(index, kind: "function"))
        case LUA_TTHREAD: return .handle(try makeHandle(index, kind: "thread"))
        default: return .handle(try makeHandle(index, kind: "userdata"))
        }
    }

    private func makeHandle(_ index: Int32, kind: String) throws(ConversionFailure) -> Value.Handle {
        do {
            return try state.handle(at: index, in: thread, kind: kind)
        } catch {
            throw ConversionFailure(reason: "cannot hold the \(kind): \(error.message)")
        }
    }

    /// Only for LUA_TSTRING slots: lua_tolstring would convert a number in place, which can raise.
    func readString(_ index: Int32) throws(ConversionFailure) -> String {
        var length = 0
        guard let bytes = lua_tolstring(thread, index, &length) else { return "" }
        let buffer = UnsafeRawBufferPointer(start: bytes, count: length).bindMemory(to: UInt8.self)
        if let offset = UTF8Check.firstInvalidByte(in: buffer) {
            throw ConversionFailure(reason: "string is not valid UTF-8 (byte \(offset + 1) of \(length))")
        }
        return String(decoding: buffer, as: UTF8.self)
    }

    private mutating func readTable(_ index: Int32, depth: Int) throws(ConversionFailure) -> Value {
        guard depth < LuaState.maximumDepth else {
            throw ConversionFailure(reason: "table is nested more than \(LuaState.maximumDepth) levels deep")
        }
        let identity = lua_topointer(thread, index)!
        guard visiting.insert(identity).inserted else {
            throw ConversionFailure(reason: "table contains itself (a cycle)")
        }
        defer { visiting.remove(identity) }
        guard lua_checkstack(thread, 3) != 0 else {
            throw ConversionFailure(reason: "no stack space left to read the table")
        }

        var items: [Int64: Value] = [:]
        var fields: [(String, Value)] = []
        var firstIndexKey: Int64?
        var firstStringKey: String?
        lua_pushnil(thread)
        while lua_next(thread, index) != 0 {
            let valueIndex = lua_gettop(thread)
            switch lua_type(thread, -2) {
            case LUA_TSTRING:
                let key: String
                do {
                    key = try readString(valueIndex - 1)
                } catch {
                    throw ConversionFailure(reason: "table key \(error.reason)")
                }
                firstStringKey = firstStringKey ?? key
                do {
                    fields.append((key, try read(valueIndex, depth: depth + 1)))
                } catch {
                    var failure = error
                    failure.path.append(.key(key))
                    throw failure
                }
            case LUA_TNUMBER where wf_isinteger(thread, -2) != 0:
                let key = Int64(lua_tointegerx(thread, -2, nil))
                firstIndexKey = firstIndexKey ?? key
                do {
                    items[key] = try read(valueIndex, depth: depth + 1)
                } catch {
                    var failure = error
                    failure.path.append(.index(key))
                    throw failure
                }
            default:
                throw ConversionFailure(reason: "table key \(describeKey(at: valueIndex - 1)) is neither a string nor an array index")
            }
            wf_pop(thread, 1)
            if let index = firstIndexKey, let key = firstStringKey {
                throw ConversionFailure(
                    reason: "table mixes array items and string keys (index \(index) and key \"\(key)\")")
            }
        }

        if items.isEmpty {
            fields.sort { $0.0 < $1.0 }
            return .map(OrderedDictionary(uniqueKeysWithValues: fields))
        }
        let count = Int64(items.count)
        if let outside = items.keys.filter({ $0 < 1 || $0 > count }).min() {
            throw ConversionFailure(reason: "table is not a sequence (index \(outside) with \(count) items)")
        }
        return .array((1...count).map { items[$0]! })
    }

    func describeKey(at index: Int32) -> String {
        switch lua_type(thread, index) {
        case LUA_TNUMBER where wf_isinteger(thread, index) != 0: return "\(lua_tointegerx(thread, index, nil))"
        case LUA_TNUMBER: return "\(lua_tonumberx(thread, index, nil)) (a float)"
        case LUA_TBOOLEAN: return lua_toboolean(thread, index) != 0 ? "true" : "false"
        default: return "of type \(String(cString: lua_typename(thread, lua_type(thread, index))))"
        }
    }
}

enum UTF8Check {
    /// The offset of the first byte that breaks well-formed UTF-8 (Unicode 15, table 3-7), if any.
    static func firstInvalidByte(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                i += 1
                continue
            }
            var second: ClosedRange<UInt8> = 0x80...0xBF
            let length: Int
            switch b {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; second = 0xA0...0xBF
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; second = 0x80...0x9F
            case 0xF0: length = 4; second = 0x90...0xBF
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; second = 0x80...0x8F
            default: return i
            }
            guard i + 1 < n, second.contains(bytes[i + 1]) else { return i }
            for k in 2..<length {
                guard i + k < n, (0x80...0xBF).contains(bytes[i + k]) else { return i }
            }
            i += length
        }
        return nil
    }
}
