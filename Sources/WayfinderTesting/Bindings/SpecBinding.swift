import CLua
import CLuaShim
import Foundation
import OrderedCollections
import Wayfinder
import WayfinderLua

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `wayfinder.native.spec`: what `lua/wayfinder/spec.lua` needs from the host to give spec files
/// busted's rules, lent to spec files only: the source of luassert and say (read-only, from where
/// their packages put them), project files for `require` (confined to the working directory), and
/// the stack information luassert reads (source and line only: never a function, a local or an
/// upvalue, so nothing of the host's own frames leaks), and the mark that makes a failure or a
/// pending() a verdict the host knows again.
enum SpecBinding {
    static let functions: [(String, LuaBinding)] = [
        ("assertion_source", assertionSource), ("project_source", projectSource), ("getinfo", getinfo),
        ("raising", raising), ("not_found", notFound), ("env_of", wf_fn_env_of), ("bind_env", wf_fn_bind_env),
    ]

    /// not_found(err) -> name | nil: the module `require` did not find, when `err` is the very
    /// error it raised saying so, so the spec module tells a missing module from one that fails
    /// to load (or itself requires a missing one) by identity, never by the message's text.
    static let notFound: LuaBinding = { L in
        LuaCall.run(L) { call in
            guard let name = wf_not_found_name(call.thread, 1) else { return [.null] }
            return [.string(String(cString: name))]
        }
    }

    /// The kinds of verdict the spec module raises, by the name it gives them.
    static let verdictKinds: [String: ScriptError.Kind] = ["failure": .failure, "pending": .pending]

    /// raising(verdict, kind): the spec module raises `verdict` (a table) next, as a failed
    /// assertion ("failure") or a pending test ("pending"). The host knows that very value again
    /// when it ends the step, by identity, so an error that merely has a verdict's text is an error.
    static let raising: LuaBinding = { L in
        LuaCall.run(L) { call in
            guard call.type(1) == .table else { throw call.typeError(1, name: "verdict", expected: "table") }
            let name = try call.string(2, name: "kind")
            guard let kind = verdictKinds[name] else {
                throw ScriptError(kind: .runtime, message: "\(call.functionName): no verdict '\(name)' (known: failure, pending)")
            }
            wf_mark_verdict(call.thread, 1, kind.raised)
            return []
        }
    }

    /// `$WAYFINDER_LUASSERT_PATH` when set (a directory holding luassert/ and say/), else where Lua
    /// packages for 5.4 live on Debian (luarocks' tree first), with the versions whose pure-Lua
    /// files run unchanged on 5.4.
    static let assertionRoots: [String] = {
        if let path = ProcessInfo.processInfo.environment["WAYFINDER_LUASSERT_PATH"], !path.isEmpty { return [path] }
        var roots = [String]()
        for prefix in ["/usr/local/share/lua", "/usr/share/lua"] {
            for version in ["5.4", "5.3", "5.1"] { roots.append("\(prefix)/\(version)") }
        }
        return roots
    }()

    /// The directory holding `luassert/init.lua` and `say/init.lua`, if luassert is installed.
    static let assertionRoot: String? = assertionRoots.first { root in
        FileManager.default.fileExists(atPath: root + "/luassert/init.lua")
            && FileManager.default.fileExists(atPath: root + "/say/init.lua")
    }

    static let missingLuassert = "luassert is not installed (wayfinder test uses it for assert, spy, stub, mock and match): "
        + "install Debian's lua-luassert (apt-get install lua-luassert, or scripts/setup), or `luarocks install luassert`"

    /// The chunk names luassert's and say's files load as ("@luassert/assert.lua"): see
    /// `assertionSource`.
    static let assertionPackages = ["luassert", "say"]

    static func isAssertionChunk(_ source: String) -> Bool {
        assertionPackages.contains { source.hasPrefix("@" + $0 + "/") }
    }

    /// assertion_source(relpath) -> text, chunkname. relpath names a file of luassert or say
    /// ("luassert/spy.lua"); anything else is refused before the disk is touched. The chunk name
    /// is "@" and relpath.
    static let assertionSource: LuaBinding = { L in
        LuaCall.run(L) { call in
            let relative = try call.string(1, name: "path")
            let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count >= 2, let package = parts.first, assertionPackages.contains(String(package)), relative.hasSuffix(".lua"),
                  parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." } && !$0.hasPrefix(".") })
            else { throw ScriptError(kind: .runtime, message: "\(relative) is not a file of luassert or say") }
            guard let root = assertionRoot else { throw ScriptError(kind: .runtime, message: missingLuassert) }
            guard let bytes = FileAccess.readBytes(atPath: root + "/" + relative) else { return [.null] }
            return [.string(String(decoding: bytes, as: UTF8.self)), .string("@" + relative)]
        }
    }

    /// project_source(path) -> text | nil, "missing" | nil, "outside". A path relative to the
    /// working directory (busted's root for `require`); a file whose real path lies outside it is
    /// never read.
    static let projectSource: LuaBinding = { L in
        LuaCall.run(L) { call in
            let path = try call.string(1, name: "path")
            let directory = FileManager.default.currentDirectoryPath
            let full = path.hasPrefix("/") ? path : directory + "/" + path
            var info = stat()
            guard stat(full, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { throw Refusal("missing") }
            guard let root = FileAccess.realPath(directory), let real = FileAccess.realPath(full),
                  real.hasPrefix(root == "/" ? "/" : root + "/")
            else { throw Refusal("outside") }
            guard let bytes = FileAccess.readBytes(atPath: real) else { throw Refusal("missing") }
            return [.string(String(decoding: bytes, as: UTF8.self))]
        }
    }

    /// getinfo(level | function) -> { source, short_src, what, currentline, linedefined,
    /// lastlinedefined, name, namewhat } | nil: debug.getinfo's "Sl" fields, and for a level its
    /// "n" ones (a name is only text). Level 1 is the function that called getinfo, as for
    /// debug.getinfo.
    static let getinfo: LuaBinding = { L in
        LuaCall.run(L) { call in
            var record = lua_Debug()
            switch call.type(1) {
            case .number:
                let level = try call.int(1, name: "level")
                guard level >= 0, level < Int64(Int32.max), lua_getstack(call.thread, Int32(level), &record) != 0 else { return [.null] }
                guard lua_getinfo(call.thread, "Sln", &record) != 0 else { return [.null] }
            case .function:
                lua_pushvalue(call.thread, 1)
                guard lua_getinfo(call.thread, ">Sl", &record) != 0 else { return [.null] }
            default:
                throw call.typeError(1, name: "level", expected: "number or function")
            }
            var source = record.source.map { String(cString: $0) } ?? "?"
            // The spec file's chunk is named for the file alone (errors read `a_spec.lua:3`); its
            // source answers the path it was run by, as busted's does, so a suite finds files
            // beside it (busted's fixtures take the spec's directory from it).
            if let workspace = try? SpecFile.from(call).workspace,
               source == "@" + (workspace.specFile as NSString).lastPathComponent, workspace.specFile.contains("/") {
                source = "@" + workspace.specFile
            }
            let shortSource = withUnsafeBytes(of: record.short_src) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            var info: OrderedDictionary<String, Value> = [
                "source": .string(source), "short_src": .string(shortSource),
                "what": .string(record.what.map { String(cString: $0) } ?? "?"),
                "currentline": .int(Int64(record.currentline)), "linedefined": .int(Int64(record.linedefined)),
                "lastlinedefined": .int(Int64(record.lastlinedefined)),
            ]
            if call.type(1) == .number {
                info["namewhat"] = .string(record.namewhat.map { String(cString: $0) } ?? "")
                if let name = record.name { info["name"] = .string(String(cString: name)) }
            }
            return [.map(info)]
        }
    }
}
