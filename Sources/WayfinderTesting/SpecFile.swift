import Wayfinder
import WayfinderLua

/// What a spec file's state has that an app's has not, reached by the bindings only spec files
/// are lent (`wayfinder.native.testing`): the files it may touch (``Workspace``) and the metatable
/// of the apps it drives. It embeds the host the spec file runs in (`AppHost.embedder`), in place
/// before the file's first line runs.
final class SpecFile {
    let workspace: Workspace
    /// The files its `io`, `lfs` and `require` reach (the run's, shared by its files).
    let files: SpecFiles
    /// Its io.stdout and io.stderr, once its io is made.
    var outputs = [SpecOutput]()
    private var driverMetatableRef: LuaRef?

    init(workspace: Workspace, files: SpecFiles) {
        self.workspace = workspace
        self.files = files
    }

    /// The metatable driver userdata share: the one the first launch brought (Wayfinder adds
    /// its `__gc`, which ends the app).
    func driverMetatable(_ brought: @autoclosure () throws(ScriptError) -> LuaRef) throws(ScriptError) -> LuaRef {
        if let driverMetatableRef { return driverMetatableRef }
        let made = try brought()
        driverMetatableRef = made
        return made
    }

    /// The spec file a binding runs for.
    static func from(_ call: LuaCall) throws(ScriptError) -> SpecFile {
        guard let file = try AppHost.from(call).embedder as? SpecFile else {
            throw ScriptError(kind: .runtime, message: "\(call.functionName) is only available in spec files")
        }
        return file
    }
}
