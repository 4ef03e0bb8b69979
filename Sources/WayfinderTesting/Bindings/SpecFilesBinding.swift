import Foundation
import Wayfinder
import WayfinderLua

/// `wayfinder.native.spec_files`: the files behind a spec file's `io`, `lfs`, `os.tmpname` and
/// `require` of installed modules (lua/wayfinder/spec_io.lua), within the bounds ``SpecFiles``
/// keeps. Lent to spec files only; every answer that is the caller's data going wrong is
/// `nil, reason`.
enum SpecFilesBinding {
    static let functions: [(String, LuaBinding)] = [
        ("read", read), ("module", module), ("c_module", cModule), ("library_path", libraryPath), ("list", list),
        ("attributes", attributes), ("write", write), ("tmpname", tmpname), ("mkdir", mkdir), ("rmdir", rmdir),
        ("remove", remove), ("rename", rename), ("touch", touch), ("currentdir", currentdir), ("output", output),
    ]

    private static func files(_ call: LuaCall) throws -> SpecFiles { try SpecFile.from(call).files }

    /// read(path) -> bytes | nil, reason
    static let read: LuaBinding = { L in
        LuaCall.run(L) { call in
            call.answer(bytes: try files(call).read(try call.string(1, name: "path"), memoryLimit: call.state.limits.memoryBytes))
        }
    }

    /// module(path) -> text | nil (no such file) | nil, "outside"
    static let module: LuaBinding = { L in
        LuaCall.run(L) { call in
            guard let bytes = try files(call).moduleSource(try call.string(1, name: "path")) else { return [.null] }
            return call.answer(bytes: bytes)
        }
    }

    /// c_module(name) -> path | nil: the C module installed for `name`.
    static let cModule: LuaBinding = { L in
        LuaCall.run(L) { call in [try files(call).cModule(try call.string(1, name: "name")).map(Value.string) ?? .null] }
    }

    /// library_path() -> the templates of the installed modules.
    static let libraryPath: LuaBinding = { L in
        LuaCall.run(L) { call in [.string(try files(call).libraryPath)] }
    }

    static let list: LuaBinding = { L in
        LuaCall.run(L) { call in [.array(try files(call).list(try call.string(1, name: "path")).map(Value.string))] }
    }

    /// attributes(path, follow) -> table | nil, reason
    static let attributes: LuaBinding = { L in
        LuaCall.run(L) { call in
            [.map(try files(call).attributes(try call.string(1, name: "path"), following: call.isTruthy(2)))]
        }
    }

    /// write(path, bytes, append) -> true | nil, reason
    static let write: LuaBinding = { L in
        LuaCall.run(L) { call in
            try files(call).write(try call.string(1, name: "path"), try call.bytes(2, name: "data"), appending: call.isTruthy(3))
            return [true]
        }
    }

    static let tmpname: LuaBinding = { L in
        LuaCall.run(L) { call in [.string(try files(call).temporaryName())] }
    }

    static let mkdir: LuaBinding = { L in
        LuaCall.run(L) { call in
            try files(call).makeDirectory(try call.string(1, name: "path"))
            return [true]
        }
    }

    static let rmdir: LuaBinding = { L in
        LuaCall.run(L) { call in
            try files(call).removeDirectory(try call.string(1, name: "path"))
            return [true]
        }
    }

    static let remove: LuaBinding = { L in
        LuaCall.run(L) { call in
            try files(call).remove(try call.string(1, name: "path"))
            return [true]
        }
    }

    static let rename: LuaBinding = { L in
        LuaCall.run(L) { call in
            try files(call).rename(try call.string(1, name: "from"), try call.string(2, name: "to"))
            return [true]
        }
    }

    /// touch(path [, access [, modification]]) -> true | nil, reason
    static let touch: LuaBinding = { L in
        LuaCall.run(L) { call in
            try files(call).touch(try call.string(1, name: "path"), access: try call.optionalInt(2, name: "access"),
                                  modification: try call.optionalInt(3, name: "modification"))
            return [true]
        }
    }

    static let currentdir: LuaBinding = { L in
        LuaCall.run(L) { call in [.string(try files(call).project)] }
    }

    /// output(text): what a spec writes to io.stdout or io.stderr goes where its print goes
    /// (standard error, so it never mixes into TAP or XML), a line at a time.
    static let output: LuaBinding = { L in
        LuaCall.run(L) { call in
            call.state.printSink(String(decoding: try call.bytes(1, name: "text"), as: UTF8.self))
            return []
        }
    }
}
