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
    /// What was typed into its screen's fields (ScreenFieldValues.swift), charged as its title is.
    public private(set) var fieldValues = ScreenFieldValues()
    /// What its entry keeps in Swift (its URL, an action's query and state, the kept title),
    /// charged to the state's memory limit while the controller lives (it lives as long as its
    /// entry is in the tree), and given back when it goes.
    private var charged: Int
    private weak var state: LuaState?
    /// The screen Swift made for it, when its route's target is `wf.native "Name"`
    /// (``NativeScreen``); nil for the app's own controllers.
    public let nativeScreen: (any NativeScreen)?

    /// `charged` bytes were charged to `state` for it already.
    init(handle: Value.Handle, ref: LuaRef?, state: LuaState? = nil, charged: Int = 0, nativeScreen: (any NativeScreen)? = nil) {
        self.handle = handle
        self.ref = ref
        self.state = state
        self.charged = charged
        self.nativeScreen = nativeScreen
    }

    deinit { state?.releaseExternal(charged) }

    /// Keeps the title a `render` gave, charged to the state's memory; throws the memory limit's
    /// error, keeping the title it had, when it does not fit.
    func keepTitle(_ title: String?) throws(ScriptError) {
        guard title != renderedTitle, let state else { return }
        let old = renderedTitle.map(RetainedCost.text) ?? 0
        let new = title.map(RetainedCost.text) ?? 0
        if new > old { try state.chargeExternalCollecting(new - old) } else { state.releaseExternal(old - new) }
        charged += new - old
        renderedTitle = title
    }

    /// Keeps `value` for `field`, charged to the state's memory; throws the memory limit's error,
    /// keeping the values it had, when it does not fit.
    func keepFieldValue(_ value: Value, for field: RenderedScreen.Field) throws(ScriptError) {
        var changed = fieldValues
        changed.set(value, for: field)
        try keepFieldValues(changed)
    }

    /// Replaces the kept field values, charging the difference.
    func keepFieldValues(_ changed: ScreenFieldValues) throws(ScriptError) {
        let old = fieldValues.cost, new = changed.cost
        if let state {
            if new > old { try state.chargeExternalCollecting(new - old) } else { state.releaseExternal(old - new) }
            charged += new - old
        }
        fieldValues = changed
    }

    /// Takes the values restored with its entry, whose cost the caller charged already.
    func adoptFieldValues(_ restored: ScreenFieldValues) {
        fieldValues = restored
        charged += restored.cost
    }
}
