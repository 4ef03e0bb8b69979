import Wayfinder

/// A controller made by a Lua app: the Lua value its target returned (an instance of its class,
/// any table, or the one `wf.native` makes for a native screen), held by reference so the
/// navigator hands scripts back that very table. The navigator's tree owns it; once its entry
/// leaves the tree the Lua value is free to be collected.
public final class LuaController {
    /// The controller's Lua value, held by reference: handed to Lua, it is that very table.
    public let handle: Value.Handle
    /// The handle's registry reference, kept so the host's raw lookups skip finding it again.
    let ref: LuaRef?
    /// The title its last `render` gave: saved with its entry, so after a relaunch or a reload
    /// the entry is named by it until it is made again (saving renders nothing itself).
    public private(set) var renderedTitle: String?
    /// What its entry keeps in Swift (its URL, an action's query and state), charged to the
    /// state's memory limit while the controller is in the tree.
    let charge: ExternalCharge?
    /// The screen Swift made for it, when its route's target is `wf.native "Name"`
    /// (``NativeScreen``); nil for the app's own controllers.
    public let nativeScreen: (any NativeScreen)?
    /// What the kept title costs, charged the same way.
    private var titleCharge: ExternalCharge?
    private weak var state: LuaState?

    init(handle: Value.Handle, ref: LuaRef?, state: LuaState? = nil, charge: ExternalCharge? = nil, nativeScreen: (any NativeScreen)? = nil) {
        self.handle = handle
        self.ref = ref
        self.state = state
        self.charge = charge
        self.nativeScreen = nativeScreen
    }

    /// Keeps the title a `render` gave, charged to the state's memory; throws the memory limit's
    /// error, keeping the title it had, when it does not fit.
    func keepTitle(_ title: String?) throws(ScriptError) {
        guard title != renderedTitle else { return }
        var charge: ExternalCharge?
        if let title, let state { charge = try ExternalCharge(RetainedCost.text(title), to: state) }
        renderedTitle = title
        titleCharge = charge
    }
}
