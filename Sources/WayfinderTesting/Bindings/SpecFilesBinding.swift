import CLuaShim
import Foundation
import Wayfinder
import WayfinderLua

/// `wayfinder.native.spec_files`: the files behind a spec file's `io`, `lfs`, `os.tmpname` and
/// `require` of installed modules (lua/wayfinder/spec_io.lua), within the bounds ``SpecFiles``
/// keeps. Lent to spec files only; every answer that is the caller's data going wrong is
/// `nil, reason`.
enum SpecFilesBinding {
    static let functions: [(String, LuaBinding)] = [
        ("open", open), ("handles", handles), ("standard_streams", standardStreams), ("end_lines", endLines),
        ("at_open_limit", atOpenLimit), ("module", module), ("c_module", cModule), ("library_path", libraryPath), ("list", list),
        ("attributes", attributes), ("tmpname", tmpname), ("mkdir", mkdir), ("rmdir", rmdir),
        ("remove", remove), ("rename", rename), ("touch", touch), ("currentdir", currentdir),
    ]

    private static func files(_ call: LuaCall) throws -> SpecFiles { try SpecFile.from(call).files }

    /// open(path, mode) -> stream | nil, reason: a stream for wrap (see handles) to make a file handle of.
    static let open: LuaBinding = { L in
        LuaCall.run(L) { call in
            let stream = try files(call).open(try call.string(1, name: "path"), mode: try call.string(2, name: "mode"))
            return call.answer(pointers: [UnsafeMutableRawPointer(stream)])
        }
    }

    /// handles() -> wrap(stream) -> file handle, io_type(value) -> "file" | "closed file" | nil
    static let handles: LuaBinding = { L in
        LuaCall.run(L) { call in call.answer(cFunctions: [wf_fn_spec_wrap, wf_fn_spec_io_type]) }
    }

    /// standard_streams() -> stdin, stdout, stderr streams, make(stdin, stdout, stderr) -> their
    /// file handles: standard input reads nothing; output and error go where print goes.
    static let standardStreams: LuaBinding = { L in
        LuaCall.run(L) { call in
            let file = try SpecFile.from(call)
            let outputs = [SpecOutput(sink: call.state.printSink), SpecOutput(sink: call.state.printSink)]
            let streams = [wf_spec_sink_stream(nil, nil, nil), outputs[0].stream(), outputs[1].stream()]
            let made = streams.compactMap { $0 }
            guard made.count == streams.count else {
                for stream in made { fclose(stream) }
                throw Refusal("not enough memory for the standard streams")
            }
            file.outputs = outputs
            return call.answer(pointers: made.map { UnsafeMutableRawPointer($0) }, cFunctions: [wf_fn_spec_standard])
        }
    }

    /// end_lines(): what io.stdout and io.stderr hold of a line not yet ended goes where print goes.
    static let endLines: LuaBinding = { L in
        LuaCall.run(L) { call in
            for output in try SpecFile.from(call).outputs { output.endLine() }
            return []
        }
    }

    /// at_open_limit() -> whether the run's specs hold all the files they may have open.
    static let atOpenLimit: LuaBinding = { L in
        LuaCall.run(L) { call in [.bool(wf_spec_budget_open(try files(call).budget) >= SpecFiles.openLimit)] }
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
}
