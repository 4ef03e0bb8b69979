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
        var reader = ValueReader(state: self, thread: thread)
        return try reader.value(at: index, wrapperLevels: wrapperLevels, named: name)
    }

    /// Converts the value at `index` as `value(at:in:)` does, except that a table that is not
    /// plain data (it mixes array items and string keys, is not a sequence, has keys of other
    /// types or contains itself) is held by reference, at whatever depth it sits, rather than
    /// failing the whole value. Persistence then leaves such a table out, naming its key.
    func valueHoldingTables(at index: Int32, in thread: OpaquePointer, named name: String? = nil) throws(ScriptError) -> Value {
        var reader = ValueReader(state: self, thread: thread)
        return try reader.valueHoldingTables(at: index, named: name)
    }

    /// The string-keyed fields of the table at `index`, each converted alone as
    /// `valueHoldingTables` converts; a key that is not a string, or a value that does not convert
    /// (a string that is not UTF-8), is left out and named in `leftOut`. All of them cross in one
    /// crossing: the copy as a whole past the memory limit fails the whole table.
    func fieldsHoldingTables(ofTableAt index: Int32, in thread: OpaquePointer, named name: String? = nil) throws(ScriptError) -> (fields: OrderedDictionary<String, Value>, leftOut: [String]) {
        let table = lua_absindex(thread, index)
        let top = lua_gettop(thread)
        defer { wf_settop(thread, top) }
        var fields = OrderedDictionary<String, Value>()
        var leftOut: [String] = []
        guard lua_type(thread, table) == LUA_TTABLE, lua_checkstack(thread, 3) != 0 else { return (fields, leftOut) }
        var reader = ValueReader(state: self, thread: thread)
        lua_pushnil(thread)
        while lua_next(thread, table) != 0 {
            let valueIndex = lua_gettop(thread)
            if lua_type(thread, -2) == LUA_TSTRING {
                let key: String
                do {
                    key = try reader.readString(valueIndex - 1)
                } catch where error.isLimit {
                    throw ScriptError(kind: error.limit!, message: error.describe(root: name))
                } catch {
                    leftOut.append("key (\(error.reason))")
                    wf_pop(thread, 1)
                    continue
                }
                do {
                    fields[key] = try reader.valueHoldingTables(at: valueIndex)
                } catch where error.kind == .memory || error.kind == .timeout {
                    throw ScriptError(kind: error.kind, message: name.map { "\($0).\(key): \(error.message)" } ?? error.message)
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

    /// The `count` values from `first`, read in one crossing (what a call answers).
    func values(from first: Int32, count: Int32, in thread: OpaquePointer, what: String, wrapperLevels: Int = 0,
                cap: CrossingCap? = nil) throws(ScriptError) -> [Value] {
        var reader = ValueReader(state: self, thread: thread, cap: cap)
        var values: [Value] = []
        values.reserveCapacity(Int(count))
        for i in 0..<count {
            do {
                values.append(try reader.value(at: first + i, wrapperLevels: wrapperLevels))
            } catch {
                throw ScriptError(kind: error.kind, message: "\(what) \(i + 1): \(error.message)")
            }
        }
        return values
    }
}

/// Why a value could not be converted, and where in it.
struct ConversionFailure: Error {
    var path: [PathComponent] = []
    var reason: String
    /// The limit the copy reached (the memory limit or a cap on output, `.memory`; the time
    /// budget, `.timeout`): the value as a whole fails, never one part of it left out or held
    /// instead.
    var limit: ScriptError.Kind?

    var isLimit: Bool { limit != nil }

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

/// The one crossing of Lua values into Swift. A reader owns the bytes its copies may take: what
/// remains under the state's memory limit when it starts (less the reserve only Lua may use, and
/// never less than that reserve, so a small answer still crosses from a state its script filled),
/// or a smaller cap for output that goes on (a screen, a saved state). Every piece it copies is
/// charged against that before it is made, as ``Value/retainedSize`` counts it (a string's bytes
/// and 32 bytes for each value and key), and each occurrence is charged again: a table or string
/// reached twice is copied twice. A copy that would pass the limit stops there (after one full
/// collection, as Lua's allocator would), so a value that fits in Lua by sharing its parts cannot
/// make the host's copy any larger than the limit.
struct ValueReader {
    let state: LuaState
    let thread: OpaquePointer
    /// Tables on the path from the root, to tell a cycle from a table that is merely shared.
    var visiting: Set<UnsafeRawPointer> = []
    /// A table that is not plain data becomes a handle instead of an error.
    var holdsTablesThatAreNotData = false
    /// Bytes this crossing may still copy.
    private(set) var room: Int
    /// The cap's words when the cap bounds the crossing; nil when the memory limit does.
    private let capReached: String?
    /// What a crossing that runs out of room reports: the memory limit's words, or the cap's.
    /// Spelled only when a crossing fails: every call into Lua makes a reader, and few fail.
    var limitReached: String { capReached ?? "memory limit of \(state.limits.memoryDescription) reached" }

    /// A crossing of at most what remains under the memory limit, and of at most `cap`'s bytes
    /// when that is smaller.
    init(state: LuaState, thread: OpaquePointer, cap: CrossingCap? = nil) {
        self.state = state
        self.thread = thread
        let room = max(state.roomForCopies, state.reserveForLua)
        if let cap, cap.bytes < room {
            self.room = cap.bytes
            capReached = cap.reached
            collects = false
        } else {
            self.room = room
            capReached = nil
        }
    }

    /// Whether running out of room may collect garbage and try again (once per crossing, and only
    /// when the room is the memory limit's, which garbage shares).
    private var collects = true

    /// Pieces copied since the budget's clock was last read.
    private var piecesSinceClock = 0
    /// The piece that did not fit.
    private var refused = 0

    /// Charges `bytes` to the crossing before they are copied. The copy is work done for the
    /// running call, so it also stops when the call's time budget is spent (the clock read every
    /// 4096 pieces).
    mutating func charge(_ bytes: Int) throws(ConversionFailure) {
        guard bytes <= room else {
            refused = bytes
            throw ConversionFailure(reason: limitReached, limit: .memory)
        }
        room -= bytes
        piecesSinceClock += 1
        if piecesSinceClock >= 4096 {
            piecesSinceClock = 0
            if state.isBudgetSpent { throw ConversionFailure(reason: state.budgetExceeded, limit: .timeout) }
        }
    }

    /// The value at `index` as a `ScriptError`-throwing read: the stack is left as it was,
    /// thrown or not. `wrapperLevels` as for ``LuaState/value(at:in:wrapperLevels:named:)``.
    mutating func value(at index: Int32, wrapperLevels: Int = 0, named name: String? = nil) throws(ScriptError) -> Value {
        let top = lua_gettop(thread)
        let roomBefore = room
        do {
            return try read(lua_absindex(thread, index), depth: -wrapperLevels)
        } catch where error.limit == .memory && collects {
            // Garbage counts against the limit until it is collected: once, collect and read again
            // with the room that gave back.
            wf_settop(thread, top)
            collects = false
            let needed = roomBefore - room + refused
            let roomBeforeCollecting = state.roomForCopies
            // Read again only when what the collection gave back covers what the first read got
            // to, so a value far past the limit is not read twice.
            guard (try? state.collectGarbage()) != nil, roomBefore + state.roomForCopies - roomBeforeCollecting > needed else {
                throw ScriptError(kind: .memory, message: error.describe(root: name))
            }
            room = roomBefore + state.roomForCopies - roomBeforeCollecting
            return try value(at: index, wrapperLevels: wrapperLevels, named: name)
        } catch {
            wf_settop(thread, top)
            // A value refused for what it is was let go: its copy costs nothing further.
            if error.limit == nil { room = roomBefore }
            throw ScriptError(kind: error.limit ?? .conversion, message: error.describe(root: name))
        }
    }

    /// As ``value(at:wrapperLevels:named:)``, a table that is not plain data held by reference.
    mutating func valueHoldingTables(at index: Int32, named name: String? = nil) throws(ScriptError) -> Value {
        holdsTablesThatAreNotData = true
        defer { holdsTablesThatAreNotData = false }
        return try value(at: index, named: name)
    }

    mutating func read(_ index: Int32, depth: Int) throws(ConversionFailure) -> Value {
        // A string is charged with its bytes as it is read.
        if lua_type(thread, index) != LUA_TSTRING { try charge(RetainedCost.overhead) }
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
            let roomBefore = room
            do {
                return try readTable(index, depth: depth)
            } catch where !error.isLimit {
                wf_settop(thread, top)
                // The table's copy was let go: only the handle stays.
                room = roomBefore
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

    /// A string (a value, a key, an argument) of this crossing, charged before it is copied. Only
    /// for LUA_TSTRING slots.
    mutating func readString(_ index: Int32) throws(ConversionFailure) -> String {
        var length = 0
        _ = lua_tolstring(thread, index, &length)
        try charge(RetainedCost.overhead + length)
        return try decodeString(index)
    }

    /// A string's bytes as they are, UTF-8 or not (a codec's input), charged before they are
    /// copied. Only for LUA_TSTRING slots.
    mutating func readBytes(_ index: Int32) throws(ConversionFailure) -> [UInt8] {
        var length = 0
        guard let start = lua_tolstring(thread, index, &length) else { return [] }
        try charge(RetainedCost.overhead + length)
        return Array(UnsafeRawBufferPointer(start: start, count: length).bindMemory(to: UInt8.self))
    }

    /// The string's bytes, checked and copied. Only for LUA_TSTRING slots: lua_tolstring would
    /// convert a number in place, which can raise.
    private func decodeString(_ index: Int32) throws(ConversionFailure) -> String {
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
                } catch where !error.isLimit {
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
