import OrderedCollections
import Wayfinder

/// A screen a Swift host makes, for a route whose target is `wf.native "Name"` in the app's map
/// (docs/embedding.md, "Native screens"): a camera, a map, anything that is better written in
/// Swift. Its factory (``NativeScreenFactory``) gets the route and returns the object; the entry
/// holds it as any other entry holds its controller, so it is pushed, presented, popped, saved and
/// restored like the app's own screens. Scripts see a controller of the class `wf.native` gave
/// the name (its `render()` answers this screen's title), and Swift finds the object again with
/// ``LuaController/nativeScreen``.
public protocol NativeScreen: AnyObject {
    /// The title scripts and the host show for it (`render().title` in Lua); nil shows its name.
    var title: String? { get }
    /// What to keep when the navigation state is saved: handed back to its factory as
    /// ``NativeScreenRequest/state`` when its entry is restored. Plain data only (a value Swift
    /// holds by reference cannot be written to disk and is left out, with a warning).
    func savedState() -> [String: Value]
}

extension NativeScreen {
    /// No title of its own: the screen is shown by its name.
    public var title: String? { nil }
    /// Nothing to keep.
    public func savedState() -> [String: Value] { [:] }
}

/// Makes the native screen for one open: what the route matched, and the state it is restored
/// with. An error it throws fails the open, as a Lua constructor's error does; the tree stays as
/// it was.
public typealias NativeScreenFactory = (NativeScreenRequest) throws -> any NativeScreen

/// What a ``NativeScreenFactory`` is asked to make: the route's values, as a Lua constructor
/// gets them.
public struct NativeScreenRequest {
    /// The name `wf.native` gave the target ("Camera").
    public let name: String
    /// The URL opened.
    public let url: String
    /// The pattern of the route it matched.
    public let pattern: String
    /// The pattern's params, by name, typed as the pattern says.
    public let params: OrderedDictionary<String, Value>
    /// The URL's query, joined by the values an action added (`nav:open { url, query }`).
    public let query: OrderedDictionary<String, Value>
    /// The URL's fragment, if it has one.
    public let fragment: String?
    /// The values its context holds (`wf.context`): every key some layer of its chain holds, read
    /// as `context:get(key)` reads it, the app context's included.
    public let context: [String: Value]
    /// The state it is made with: what ``NativeScreen/savedState()`` gave when its entry was
    /// saved (a restore, a hot reload), or an action's `state` field; nil for a plain open.
    public let state: Value?
}

/// The names native screens go by.
enum NativeScreens {
    /// Why `names` cannot name native screens, if one cannot: a name is letters, digits,
    /// underscores, dots and dashes.
    static func problem(naming names: some Sequence<String>) -> String? {
        for name in names.sorted() {
            let allowed = name.utf8.allSatisfy { byte in
                byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            }
            guard !name.isEmpty, allowed else {
                return "cannot register the native screen '\(name)': a native screen's name is letters, digits, underscores, dots and dashes (as in 'Camera')"
            }
        }
        return nil
    }
}
