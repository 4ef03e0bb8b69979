import Foundation
import OrderedCollections
import Wayfinder

/// The files the devtools export and import: the navigation state, as a state file holds it
/// (docs/persistence.md), and the event log with the tree after each change, so a session can be
/// looked at again (time travel, restore) elsewhere.
enum SessionFile: String {
    case state, log

    /// What a log file says it is.
    static let logFormat = "wayfinder.event-log"
    static let logVersion = 1
}

/// A file a page imports, arriving in parts (each message is at most `ClientCommand.maximumLength`
/// bytes): kept per page until the last part, bounded by `maximumBytes` and `maximumParts`.
struct SessionImport {
    /// A state file's own bound (`FileStateStore.maximumSize`), for a log too.
    static let maximumBytes = FileStateStore.maximumSize
    static let maximumParts = 4096

    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    let file: SessionFile
    let parts: Int
    private var text = ""
    private var received = 0

    init(file: SessionFile, parts: Int) {
        self.file = file
        self.parts = parts
    }

    /// Adds part `part`; the whole text once it was the last. Parts come in order, from 1.
    mutating func add(part: Int, of parts: Int, file: SessionFile, text piece: String) throws(Refusal) -> String? {
        guard file == self.file, parts == self.parts, part == received + 1 else {
            throw Refusal(description: "import: part \(part) of \(parts) came out of order (expected part \(received + 1) of \(self.parts) of the \(self.file.rawValue))")
        }
        guard text.utf8.count + piece.utf8.count <= Self.maximumBytes else {
            throw Refusal(description: "import: the file is larger than \(Self.maximumBytes) bytes")
        }
        text += piece
        received = part
        return received == parts ? text : nil
    }
}

/// The event log as a file: `{"format":"wayfinder.event-log","version":1,"app":NAME,"events":[...]}`,
/// each event as the page sees it with a `snapshot` of the tree after it (`screen`, `tree` and
/// the saved `state`, as a state file's document) or null. Reading one checks every field as
/// `ClientCommand` checks a message and every state as a state file is checked, and refuses the
/// whole file with the first reason.
enum EventLogFile {
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    static func text(app: String, log: EventLog) throws -> String {
        let events: [Value] = log.events.map { event in
            guard case .map(var fields) = event.json else { return event.json }
            if let snapshot = log.ownSnapshot(at: event.id) {
                fields["snapshot"] = [
                    "screen": snapshot.screen, "tree": snapshot.tree, "state": snapshot.state?.document ?? .null,
                ]
            } else {
                fields["snapshot"] = .null
            }
            return .map(fields)
        }
        let file: Value = [
            "format": .string(SessionFile.logFormat), "version": .int(Int64(SessionFile.logVersion)),
            "app": .string(app), "events": .array(events),
        ]
        return try JSON.encode(file)
    }

    /// The events and their trees, oldest first.
    static func read(_ text: String, app: String) throws(Refusal) -> [(SessionEvent, EventLog.Snapshot?)] {
        let value: Value
        do { value = try JSON.decode(text) } catch { throw Refusal(description: "the log is not JSON: \(error)") }
        guard case .map(let top) = value, top["format"]?.stringValue == SessionFile.logFormat else {
            throw Refusal(description: "the file is no event log (its \"format\" is not \"\(SessionFile.logFormat)\")")
        }
        guard top["version"]?.intValue == Int64(SessionFile.logVersion) else {
            throw Refusal(description: "the log is of version \(top["version"].map { "\($0)" } ?? "none"); this wayfinder reads version \(SessionFile.logVersion)")
        }
        if let other = top["app"]?.stringValue, other != app {
            throw Refusal(description: "the log is of the app '\(other)', not '\(app)'")
        }
        guard let list = top["events"]?.arrayValue else { throw Refusal(description: "the log has no \"events\" list") }
        guard list.count <= EventLog.limit else { throw Refusal(description: "the log holds \(list.count) events; at most \(EventLog.limit) are kept") }
        var out: [(SessionEvent, EventLog.Snapshot?)] = []
        var lastID = 0
        for (index, item) in list.enumerated() {
            let read = try event(item, at: "events[\(index + 1)]", app: app)
            guard read.0.id > lastID else { throw Refusal(description: "events[\(index + 1)].id must be greater than the one before it") }
            lastID = read.0.id
            out.append(read)
        }
        return out
    }

    private static func event(_ value: Value, at path: String, app: String) throws(Refusal) -> (SessionEvent, EventLog.Snapshot?) {
        guard case .map(let fields) = value else { throw Refusal(description: "\(path) must be an object") }
        func text(_ name: String) throws(Refusal) -> String? {
            guard let field = fields[name], !field.isNull else { return nil }
            guard let text = field.stringValue else { throw Refusal(description: "\(path).\(name) must be a string or null") }
            return text
        }
        guard let id = fields["id"]?.intValue, id >= 1, id <= Int64(Int32.max) else { throw Refusal(description: "\(path).id must be a whole number from 1") }
        guard let kind = try text("kind").flatMap(SessionEvent.Kind.init(rawValue:)) else { throw Refusal(description: "\(path).kind is not a kind of event") }
        guard let outcome = try text("outcome").flatMap(SessionEvent.Outcome.init(rawValue:)) else { throw Refusal(description: "\(path).outcome is not an outcome") }
        guard let at = try text("at").flatMap(SessionEvent.clockDate) else { throw Refusal(description: "\(path).at must be a time of day, HH:mm:ss.SSS") }
        var duration: Duration?
        if let ms = fields["ms"], !ms.isNull {
            guard let number = ms.doubleValue ?? ms.intValue.map(Double.init), number.isFinite, number >= 0, number < 1e12 else {
                throw Refusal(description: "\(path).ms must be a number of milliseconds or null")
            }
            duration = .microseconds(Int64(number * 1000))
        }
        let route = fields["route"].flatMap { $0.isNull ? nil : $0 }
        if let route, route.mapValue == nil { throw Refusal(description: "\(path).route must be an object or null") }
        guard let changes = (fields["changes"] ?? .array([])).arrayValue,
              changes.allSatisfy({ $0["text"]?.stringValue != nil }) else {
            throw Refusal(description: "\(path).changes must be a list of objects with a \"text\"")
        }
        let event = SessionEvent(id: Int(id), kind: kind, outcome: outcome, at: at, duration: duration, url: try text("url"), route: route,
                                 message: try text("message"), traceback: try text("traceback"), visible: try text("visible"), changes: changes)
        guard let snapshot = fields["snapshot"], !snapshot.isNull else { return (event, nil) }
        guard let screen = snapshot["screen"], screen.mapValue != nil, let tree = snapshot["tree"], tree.mapValue != nil else {
            throw Refusal(description: "\(path).snapshot must hold a \"screen\" and a \"tree\" object")
        }
        var state: NavigationState?
        if let document = snapshot["state"], !document.isNull {
            do {
                let read = try NavigationState(document: document)
                try read.validate()
                state = read
            } catch {
                throw Refusal(description: "\(path).snapshot.state is not a valid state: \(error)")
            }
            if let other = state?.app, other != app { throw Refusal(description: "\(path).snapshot.state is of the app '\(other)', not '\(app)'") }
        }
        return (event, EventLog.Snapshot(screen: screen, tree: tree, state: state))
    }
}
