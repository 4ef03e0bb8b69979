import CLuaShim

/// Why a call into Lua, a conversion or a load failed.
public struct ScriptError: Error, CustomStringConvertible, Equatable {
    public enum Kind: String, Sendable, Equatable {
        /// The source did not compile.
        case syntax
        /// The script raised an error.
        case runtime
        /// The state's memory limit was reached.
        case memory
        /// The call ran past its time budget.
        case timeout
        /// A value could not cross between Lua and Swift (a bad argument, a string that is not
        /// UTF-8, a table that is neither an array nor a map...).
        case conversion
        /// A script file or module does not exist.
        case notFound
    }

    public var kind: Kind
    /// The error without its traceback; it starts with "file:line:" when Lua gave a position.
    public var message: String
    /// Lua's "stack traceback:" block, when the error came from running Lua code. The message
    /// handler keeps it apart from the message (docs/design.md, "Rules for the Lua C API").
    public var traceback: String?
    /// The chunk and line the message names, if it names one.
    public var file: String?
    public var line: Int?

    public init(kind: Kind, message: String, traceback: String? = nil) {
        self.kind = kind
        self.message = message
        self.traceback = traceback
        (file, line) = ScriptError.position(in: message)
    }

    public var description: String { message }

    /// Finds a leading "chunk:line:" (the chunk name may itself contain colons, as in
    /// `[string "a:b"]:1:`), taking the first colon-digits-colon run.
    static func position(in message: String) -> (String?, Int?) {
        let firstLine = message.prefix { $0 != "\n" }
        var index = firstLine.startIndex
        while let colon = firstLine[index...].firstIndex(of: ":") {
            let digitsStart = firstLine.index(after: colon)
            let digitsEnd = firstLine[digitsStart...].firstIndex { !$0.isASCII || !$0.isNumber } ?? firstLine.endIndex
            if digitsEnd > digitsStart, digitsEnd < firstLine.endIndex, firstLine[digitsEnd] == ":",
                colon > firstLine.startIndex, let line = Int(firstLine[digitsStart..<digitsEnd])
            {
                return (String(firstLine[..<colon]), line)
            }
            index = digitsStart
        }
        return (nil, nil)
    }
}

extension ScriptError.Kind {
    /// The kind as the shim carries it with a raised error (`WF_KIND_*`), and back.
    var raised: Int32 {
        switch self {
        case .timeout: Int32(WF_KIND_TIMEOUT)
        case .notFound: Int32(WF_KIND_NOT_FOUND)
        case .memory: Int32(WF_KIND_MEMORY)
        // Once raised in Lua, a value that could not cross is the script's mistake, as any other.
        case .runtime, .syntax, .conversion: Int32(WF_KIND_RUNTIME)
        }
    }

    init?(raised: Int32) {
        switch raised {
        case Int32(WF_KIND_RUNTIME): self = .runtime
        case Int32(WF_KIND_TIMEOUT): self = .timeout
        case Int32(WF_KIND_NOT_FOUND): self = .notFound
        case Int32(WF_KIND_MEMORY), Int32(WF_KIND_LUA_MEMORY): self = .memory
        default: return nil
        }
    }
}
