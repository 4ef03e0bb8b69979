import Wayfinder
import WayfinderLua

/// The camera that scans a table's code: a screen Swift makes for the route whose target is
/// `wf.native "Camera"`. A real app would return a view controller here.
final class CameraScreen: NativeScreen {
    let table: Int64
    var flash: Bool

    init(_ request: NativeScreenRequest) {
        table = request.params["table"]?.intValue ?? 0
        flash = request.state?["flash"]?.boolValue ?? false
    }

    var title: String? { "Scan table \(table)" + (flash ? " (flash on)" : "") }

    /// Kept with its entry, and handed back to `init` when the entry is restored.
    func savedState() -> [String: Value] { ["flash": .bool(flash)] }
}
