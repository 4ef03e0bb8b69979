import CLuaShim
import Wayfinder

/// `wayfinder.native.codec`: object IDs, percent-encoding and query strings (`wf.codec`).
/// Malformed input gives `nil, reason`.
enum CodecBinding {
    static let functions: [(String, LuaBinding)] = [
        ("encode_id", encodeID), ("decode_id", decodeID), ("escape", escape), ("unescape", unescape),
        ("query", query), ("parse_query", parseQuery),
    ]

    static let encodeID: LuaBinding = { L in
        // Any bytes: an object ID is an identifier, not necessarily text.
        LuaCall.run(L) { call in [.string(ObjectID.encode(bytes: try call.bytes(1, name: "text")))] }
    }

    static let decodeID: LuaBinding = { L in
        LuaCall.run(L) { call in
            let token = try call.text(1, name: "token")
            // The bytes as they were encoded (a Lua string is bytes), UTF-8 or not.
            let decoded = try Refusal.refusing(CodecError.self) { try ObjectID.decode(bytes: token) }
            call.state.writeBytes(decoded)
            return []
        }
    }

    static let escape: LuaBinding = { L in
        LuaCall.run(L) { call in [.string(PercentEncoding.escape(try call.text(1, name: "text")))] }
    }

    static let unescape: LuaBinding = { L in
        LuaCall.run(L) { call in
            let text = try call.text(1, name: "text")
            return try Refusal.refusing(CodecError.self) { [.string(try PercentEncoding.unescape(text))] }
        }
    }

    /// Keys are written sorted, since a Lua table has no order of its own.
    static let query: LuaBinding = { L in
        LuaCall.run(L) { call in
            let table: Value
            // A table whose strings are not UTF-8 (or that is nested too deep, or holds itself) is
            // bad data like any other.
            do throws(ScriptError) { table = try call.state.value(at: 1, in: call.thread, named: "query") } catch { throw Refusal("wf.codec.query: \(error.message)") }
            guard case .map(var items) = table else {
                if case .array(let list) = table, list.isEmpty { return [.string("")] }
                throw Refusal("a query table needs string keys")
            }
            items.sort { $0.key < $1.key }
            return try Refusal.refusing(CodecError.self) { [.string(try QueryString.format(items))] }
        }
    }

    static let parseQuery: LuaBinding = { L in
        LuaCall.run(L) { call in
            let text = try call.text(1, name: "text")
            return try Refusal.refusing(CodecError.self) { [.map(try QueryString.parse(text))] }
        }
    }
}

extension LuaState {
    /// A Lua string of these bytes as the next result, for a binding whose result need not be text.
    fileprivate func writeBytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { wf_op_string(shim, $0.baseAddress, $0.count) }
    }
}
