import CLuaShim
import Wayfinder

/// Why a call into Lua, a conversion or a load failed.
public struct ScriptError: Error, CustomStringConvertible, Equatable {
    /// What kind of failure it was.
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
        /// A spec's assertion did not hold (`wayfinder test`): the spec module raised its failure.
        case failure
        /// A spec's test called `pending()`.
        case pending
    }

    /// What kind of failure it was.
    public var kind: Kind
    /// The error as the script raised it, without its frames; it starts with "file:line:" when Lua
    /// gave a position.
    public var message: String
    /// The chunk (as messages name it: "app.lua", `[string "..."]`) and the line the error names,
    /// if it names one. The message handler hands these back as structure beside the message
    /// (docs/design.md, "Rules for the Lua C API"); they are never read from the text.
    public var file: String?
    /// The line the error names, when it names one.
    public var line: Int?
    /// The stack the error unwound, innermost first, as a traceback shows it; nil when no Lua code
    /// was running (a syntax error, a memory error, a refusal of the host's own).
    public var frames: [Frame]?

    /// An error of `kind` saying `message`, at `file` and `line` when known, with the traceback's frames.
    public init(kind: Kind, message: String, file: String? = nil, line: Int? = nil, frames: [Frame]? = nil) {
        self.kind = kind
        self.message = message
        self.file = file
        self.line = line
        self.frames = frames
    }

    /// Lua's "stack traceback:" block, made from ``frames``.
    public var traceback: String? { frames.map(Frame.traceback) }

    /// The message, as the script raised it.
    public var description: String { message }

    /// The script's error `error` is or carries: itself, an app's load error's, a reload's, or
    /// the cause of a navigation error (a constructor's failure); nil when no script is at fault.
    public static func carried(by error: any Error) -> ScriptError? {
        switch error {
        case let error as ScriptError: error
        case let error as AppLoadError: error.scriptError
        case let error as ReloadError: error.scriptError
        case let error as NavigationError: error.cause.flatMap { carried(by: $0) }
        default: nil
        }
    }
}

extension ScriptError.Kind {
    /// The kind as the shim carries it with a raised error (`WF_KIND_*`), and back.
    package var raised: Int32 {
        switch self {
        case .timeout: Int32(WF_KIND_TIMEOUT)
        case .notFound: Int32(WF_KIND_NOT_FOUND)
        case .memory: Int32(WF_KIND_MEMORY)
        case .failure: Int32(WF_KIND_FAILURE)
        case .pending: Int32(WF_KIND_PENDING)
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
        case Int32(WF_KIND_FAILURE): self = .failure
        case Int32(WF_KIND_PENDING): self = .pending
        default: return nil
        }
    }
}
