import Wayfinder

/// What the page asks over its WebSocket, one JSON object per message, by its `type`:
///
/// - `{"type":"open","url":U}`: open U as a link the user typed (the URL bar); with
///   `"from":F,"title":T` it is the link titled T on the screen at F (the flow graph marks it);
/// - `{"type":"back"}`, `{"type":"dismiss"}`, `{"type":"select","tab":N}` (tabs count from 1);
/// - `{"type":"reload"}`: the app's scripts again from disk;
/// - `{"type":"inspect","event":N}`: the phone and the tree as they were after event N;
/// - `{"type":"restore","event":N}`: that tree becomes the app's again;
/// - `{"type":"explain","url":U}`: which route U opens and why (`wayfinder match --explain`);
/// - `{"type":"fill","field":F,"value":V}`: type V (text, or a boolean for a toggle) into the
///   visible screen's field named F; `{"type":"press","title":T}`: press its button titled T;
/// - `{"type":"record","on":B}`: start recording what is done, or stop and answer the spec that
///   replays it (SessionRecorder.swift).
/// - `{"type":"link","url":U}`: U as a link from outside the app (`WayfinderHost.handleLink`);
/// - `{"type":"export","what":W}`: the state or the event log (`W` is `state` or `log`) as a file;
/// - `{"type":"import","what":W,"part":K,"parts":N,"text":T}`: part K (from 1) of N of such a
///   file (`SessionImport`).
///
/// Anything else is refused with the reason, and the connection stays open.
enum ClientCommand: Equatable {
    case open(url: String, from: String?, title: String?)
    case back
    case dismiss
    case select(tab: Int64)
    case reload
    case inspect(event: Int)
    case restore(event: Int)
    case explain(url: String)
    case fill(field: String, value: Value)
    case press(title: String)
    case record(on: Bool)
    case link(url: String)
    case export(SessionFile)
    case importPart(SessionFile, part: Int, parts: Int, text: String)

    /// Longer messages are refused unread: no command needs more. Over the WebSocket they never
    /// come this far: the front door ends a connection as soon as a frame announces more
    /// (`FrameLimit`).
    static let maximumLength = 64 * 1024

    struct Refusal: Error, Equatable, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    init(json text: String) throws(Refusal) {
        guard text.utf8.count <= Self.maximumLength else {
            throw Refusal(reason: "the message is longer than \(Self.maximumLength) bytes")
        }
        let value: Value
        do { value = try JSON.decode(text) } catch { throw Refusal(reason: "the message is not JSON: \(error)") }
        guard case .map(let fields) = value else { throw Refusal(reason: "the message is not a JSON object") }
        guard let type = fields["type"]?.stringValue else { throw Refusal(reason: "the message has no \"type\" string") }
        func string(_ name: String) throws(Refusal) -> String {
            guard let text = fields[name]?.stringValue else { throw Refusal(reason: "\(type): \"\(name)\" must be a string") }
            return text
        }
        func optionalString(_ name: String) throws(Refusal) -> String? {
            guard let field = fields[name], !field.isNull else { return nil }
            guard let text = field.stringValue else { throw Refusal(reason: "\(type): \"\(name)\" must be a string") }
            return text
        }
        func number(_ name: String) throws(Refusal) -> Int64 {
            guard let number = fields[name]?.intValue else { throw Refusal(reason: "\(type): \"\(name)\" must be an integer") }
            return number
        }
        func eventID() throws(Refusal) -> Int {
            let id = try number("event")
            guard id >= 1, id <= Int64(Int32.max) else { throw Refusal(reason: "\(type): there is no event \(id)") }
            return Int(id)
        }
        switch type {
        case "open":
            self = .open(url: try string("url"), from: try optionalString("from"), title: try optionalString("title"))
        case "back": self = .back
        case "dismiss": self = .dismiss
        case "select": self = .select(tab: try number("tab"))
        case "reload": self = .reload
        case "inspect": self = .inspect(event: try eventID())
        case "restore": self = .restore(event: try eventID())
        case "explain": self = .explain(url: try string("url"))
        case "fill":
            switch fields["value"] {
            case .string(let text)?: self = .fill(field: try string("field"), value: .string(text))
            case .bool(let on)?: self = .fill(field: try string("field"), value: .bool(on))
            default: throw Refusal(reason: "fill: \"value\" must be a string or a boolean")
            }
        case "press": self = .press(title: try string("title"))
        case "record":
            guard case .bool(let on)? = fields["on"] else { throw Refusal(reason: "record: \"on\" must be a boolean") }
            self = .record(on: on)
        case "link": self = .link(url: try string("url"))
        case "export", "import":
            let what = try string("what")
            guard let file = SessionFile(rawValue: what) else { throw Refusal(reason: "\(type): \"what\" must be \"state\" or \"log\", not '\(what)'") }
            guard type == "import" else { self = .export(file); return }
            let parts = try number("parts"), part = try number("part")
            guard parts >= 1, parts <= Int64(SessionImport.maximumParts) else {
                throw Refusal(reason: "import: \"parts\" must be from 1 to \(SessionImport.maximumParts)")
            }
            guard part >= 1, part <= parts else { throw Refusal(reason: "import: \"part\" must be from 1 to \(parts)") }
            self = .importPart(file, part: Int(part), parts: Int(parts), text: try string("text"))
        default:
            throw Refusal(reason: "unknown message type '\(type)' (open, back, dismiss, select, reload, inspect, restore, explain, fill, press, record, link, export, import)")
        }
    }
}
