import Wayfinder

/// `wayfinder.native.codec`: object IDs, percent-encoding and query strings (`wf.codec`).
/// Malformed input gives `nil, reason`.
enum CodecBinding {
    static let functions: [(String, LuaBinding)] = [
        ("encode_id", encodeID), ("decode_id", decodeID), ("escape", escape), ("unescape", unescape),
        ("query", query), ("parse_query", parseQuery),
    ]

    static let encodeID: LuaBinding = { L in
        LuaCall.run(L) { call in [.string(ObjectID.encode(try call.string(1, name: "text")))] }
    }

    static let decodeID: LuaBinding = { L in
        LuaCall.run(L) { call in
            let token = try call.string(1, name: "token")
            return try valueOrReason(CodecError.self) { .string(try ObjectID.decode(token)) }
        }
    }

    static let escape: LuaBinding = { L in
        LuaCall.run(L) { call in [.string(PercentEncoding.escape(try call.string(1, name: "text")))] }
    }

    static let unescape: LuaBinding = { L in
        LuaCall.run(L) { call in
            let text = try call.string(1, name: "text")
            return try valueOrReason(CodecError.self) { .string(try PercentEncoding.unescape(text)) }
        }
    }

    /// Keys are written sorted, since a Lua table has no order of its own.
    static let query: LuaBinding = { L in
        LuaCall.run(L) { call in
            let table = try call.value(1, name: "table")
            guard case .map(var items) = table else {
                if case .array(let list) = table, list.isEmpty { return [.string("")] }
                return [.null, .string("a query table needs string keys")]
            }
            items.sort { $0.key < $1.key }
            return try valueOrReason(CodecError.self) { .string(try QueryString.format(items)) }
        }
    }

    static let parseQuery: LuaBinding = { L in
        LuaCall.run(L) { call in
            let text = try call.string(1, name: "text")
            return try valueOrReason(CodecError.self) { .map(try QueryString.parse(text)) }
        }
    }
}
