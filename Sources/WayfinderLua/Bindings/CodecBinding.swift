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
            let token: String
            switch try call.text(1, name: "token") {
            case .success(let input): token = input
            case .failure(let notUTF8): return [.null, .string(notUTF8.description)]
            }
            // The bytes as they were encoded (a Lua string is bytes), UTF-8 or not.
            let decoded: [UInt8]
            do { decoded = try ObjectID.decode(bytes: token) } catch let error as CodecError { return [.null, .string(error.description)] }
            call.state.writeBytes(decoded)
            return []
        }
    }

    static let escape: LuaBinding = { L in
        LuaCall.run(L) { call in
            switch try call.text(1, name: "text") {
            case .success(let text): return [.string(PercentEncoding.escape(text))]
            case .failure(let notUTF8): return [.null, .string(notUTF8.description)]
            }
        }
    }

    static let unescape: LuaBinding = { L in
        LuaCall.run(L) { call in
            let text: String
            switch try call.text(1, name: "text") {
            case .success(let input): text = input
            case .failure(let notUTF8): return [.null, .string(notUTF8.description)]
            }
            return try valueOrReason(CodecError.self) { .string(try PercentEncoding.unescape(text)) }
        }
    }

    /// Keys are written sorted, since a Lua table has no order of its own.
    static let query: LuaBinding = { L in
        LuaCall.run(L) { call in
            let table: Value
            // A table whose strings are not UTF-8 is bad data like any other.
            do { table = try call.value(1, name: "table") } catch let error as ScriptError { return [.null, .string(error.message)] }
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
            let text: String
            switch try call.text(1, name: "text") {
            case .success(let input): text = input
            case .failure(let notUTF8): return [.null, .string(notUTF8.description)]
            }
            return try valueOrReason(CodecError.self) { .map(try QueryString.parse(text)) }
        }
    }
}

extension LuaState {
    /// A Lua string of these bytes as the next result, for a binding whose result need not be text.
    fileprivate func writeBytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { wf_op_string(shim, $0.baseAddress, $0.count) }
    }
}
