import Foundation
import OrderedCollections

/// The state as the JSON document a state file holds (docs/persistence.md), written and read
/// through `JSON`, which keeps what each value is (`2.0` stays a float) and the order of keys.
/// `format` comes first, so even a file cut short just after it is recognizably a state.
extension NavigationState {
    /// The document's top-level members, in the order they are written.
    enum Member: String {
        case format, version, app, appVersion = "app_version", savedAt = "saved_at", mode, root, modals, popover, pending, contexts
    }

    /// The most levels the document puts around a value an app gave (the query of an entry in a
    /// tab: the document, its root, the tabs, the tab, the entry, the query), which a host that
    /// hands the document to a script does not count against its limit on nesting.
    public static let documentLevels = 6

    /// The document, its members in `Member` order; nothing that cannot be written (a handle)
    /// is left in it by capture, so it always encodes.
    public var document: Value {
        var members = OrderedDictionary<String, Value>()
        members[Member.format.rawValue] = .string(Self.format)
        members[Member.version.rawValue] = .int(Int64(Self.version))
        if let app { members[Member.app.rawValue] = .string(app) }
        members[Member.appVersion.rawValue] = .int(Int64(appVersion))
        members[Member.savedAt.rawValue] = .string(Self.timestamp(savedAt))
        members[Member.mode.rawValue] = .string(mode.rawValue)
        switch root {
        case .stack(let entries):
            members[Member.root.rawValue] = ["kind": "stack", "entries": .array(entries.map(\.document))]
        case .tabs(let tabs, let selected):
            // Counted from 1, as nav:tree() and nav:select count.
            members[Member.root.rawValue] = ["kind": "tabs", "selected": .int(TabNumber.number(of: selected)),
                                             "tabs": .array(tabs.map { .array($0.map(\.document)) })]
        }
        members[Member.modals.rawValue] = .array(modals.map { .array($0.map(\.document)) })
        if let popover { members[Member.popover.rawValue] = popover.document }
        if let pending { members[Member.pending.rawValue] = pending.document }
        members[Member.contexts.rawValue] = .array(contexts.map(\.document))
        return .map(members)
    }

    /// Reads a document. One of another format or version is refused as such; a member that is
    /// missing or of the wrong kind is named by its path (`root.entries[2].url`).
    public init(document: Value) throws(NavigationStateError) {
        do {
            try self.init(reading: document)
        } catch let error as NavigationStateError {
            throw error
        } catch {
            throw .invalid(String(describing: error))
        }
    }

    private init(reading document: Value) throws {
        let top = DocumentReader(document, path: "")
        guard case .map = document else { throw NavigationStateError.notAState(nil) }
        let format = top.member(Member.format.rawValue).value?.stringValue
        guard format == Self.format else { throw NavigationStateError.notAState(format) }
        let version = try top.member(Member.version.rawValue).int()
        guard version == Self.version else { throw NavigationStateError.unknownVersion(version) }
        app = try top.member(Member.app.rawValue).optional { try $0.string() }
        let appVersionReader = top.member(Member.appVersion.rawValue)
        appVersion = try appVersionReader.optional { try $0.int() } ?? 1
        guard appVersion >= 1 else { throw appVersionReader.failure("app version \(appVersion) is not a version (versions count from 1)") }
        // The file keeps whole seconds; a fraction written by hand would not survive the next save.
        let savedAtReader = top.member(Member.savedAt.rawValue)
        let savedAtText = try savedAtReader.string()
        guard let time = Self.date(from: savedAtText) else {
            throw savedAtReader.failure("'\(savedAtText)' is not a time such as 2026-01-01T00:00:00Z")
        }
        savedAt = Date(timeIntervalSince1970: time.timeIntervalSince1970.rounded(.down))
        let modeReader = top.member(Member.mode.rawValue)
        let modeText = try modeReader.string()
        guard let mode = PersistenceMode(rawValue: modeText) else {
            throw modeReader.failure("'\(modeText)' is not a persistence mode (\(PersistenceMode.listedChoices))")
        }
        self.mode = mode
        let rootReader = top.member(Member.root.rawValue)
        let kindReader = rootReader.member("kind")
        switch try kindReader.string() {
        case "stack":
            root = .stack(try rootReader.member("entries").list { try Entry(reading: $0) })
        case "tabs":
            let selectedReader = rootReader.member("selected")
            let selected = try selectedReader.int()
            guard let index = TabNumber.index(of: Int64(selected)) else {
                throw selectedReader.failure("selected tab \(selected) is not a tab number (tabs count from 1)")
            }
            root = .tabs(try rootReader.member("tabs").list { try $0.list { try Entry(reading: $0) } }, selected: index)
        case let kind:
            throw kindReader.failure("unknown root kind '\(kind)'")
        }
        modals = try top.member(Member.modals.rawValue).list { try $0.list { try Entry(reading: $0) } }
        popover = try top.member(Member.popover.rawValue).optional { try Entry(reading: $0) }
        pending = try top.member(Member.pending.rawValue).optional { try Pending(reading: $0) }
        contexts = try top.member(Member.contexts.rawValue).optional { try $0.list { try Context(reading: $0) } } ?? []
    }

    /// The save time as the document writes it: UTC, whole seconds.
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }

    /// A time as ISO 8601 writes it, with or without a fraction of a second.
    static func date(from text: String) -> Date? {
        (try? Date.ISO8601FormatStyle().parse(text)) ?? (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
    }
}

extension NavigationState.Entry {
    var document: Value {
        var fields = OrderedDictionary<String, Value>()
        fields["url"] = .string(url)
        if let query { fields["query"] = .map(query) }
        if let state { fields["state"] = state }
        if let context { fields["context"] = .int(Int64(context)) }
        if important { fields["important"] = true }
        if let model {
            var position = OrderedDictionary<String, Value>()
            if let selected = model.selected { position["selected"] = selected }
            if let anchor = model.anchor { position["anchor"] = anchor }
            fields["model"] = .map(position)
        }
        if let title { fields["title"] = .string(title) }
        return .map(fields)
    }

    init(reading entry: DocumentReader) throws {
        try entry.object()
        self.init(url: try entry.member("url").string(),
                  query: try entry.member("query").optional { try $0.map() },
                  state: entry.member("state").value,
                  context: try entry.member("context").optional { try $0.int() },
                  important: try entry.member("important").optional { try $0.bool() } ?? false,
                  model: try entry.member("model").optional { model in
                      try model.object()
                      return NavigationState.ModelPosition(selected: model.member("selected").value, anchor: model.member("anchor").value)
                  },
                  title: try entry.member("title").optional { try $0.string() })
    }
}

extension NavigationState.Pending {
    var document: Value {
        var fields = OrderedDictionary<String, Value>()
        fields["url"] = .string(url)
        if let query { fields["query"] = .map(query) }
        if let parent { fields["parent"] = .string(parent) }
        if let state { fields["state"] = state }
        if let presentation { fields["presentation"] = .string(presentation.rawValue) }
        if fromOutside { fields["link"] = true }
        fields["since"] = .string(NavigationState.timestamp(since))
        return .map(fields)
    }

    init(reading pending: DocumentReader) throws {
        try pending.object()
        let presentationReader = pending.member("presentation")
        let presentation = try presentationReader.optional { reader -> Presentation in
            let text = try reader.string()
            guard let verb = Presentation(rawValue: text) else {
                throw reader.failure("'\(text)' is not a presentation (\(Presentation.listedChoices))")
            }
            return verb
        }
        let sinceReader = pending.member("since")
        let sinceText = try sinceReader.string()
        guard let since = NavigationState.date(from: sinceText) else {
            throw sinceReader.failure("'\(sinceText)' is not a time such as 2026-01-01T00:00:00Z")
        }
        self.init(url: try pending.member("url").string(),
                  query: try pending.member("query").optional { try $0.map() },
                  parent: try pending.member("parent").optional { try $0.string() },
                  state: pending.member("state").value.flatMap { $0.isNull ? nil : $0 },
                  presentation: presentation,
                  fromOutside: try pending.member("link").optional { try $0.bool() } ?? false,
                  since: since)
    }
}

extension NavigationState.Context {
    var document: Value {
        var fields = OrderedDictionary<String, Value>()
        if let name { fields["name"] = .string(name) }
        if let declared = self.fields {
            fields["fields"] = .map(OrderedDictionary(uniqueKeysWithValues: declared.sorted { $0.key < $1.key }.map { ($0.key, Value.string($0.value.rawValue)) }))
        }
        fields["values"] = .map(values)
        if let inner { fields["inner"] = .int(Int64(inner)) }
        if isApp { fields["app"] = true }
        return .map(fields)
    }

    init(reading context: DocumentReader) throws {
        try context.object()
        let declared = try context.member("fields").optional { fields -> [String: ContextFieldType] in
            var types = [String: ContextFieldType]()
            for (name, type) in try fields.map() {
                let reader = fields.member(name)
                guard let typeName = type.stringValue, let parsed = ContextFieldType(rawValue: typeName) else {
                    throw reader.failure("\(type) is not a field type (\(ContextFieldType.listedChoices))")
                }
                types[name] = parsed
            }
            return types
        }
        self.init(name: try context.member("name").optional { try $0.string() }, fields: declared,
                  values: try context.member("values").optional { try $0.map() } ?? [:],
                  inner: try context.member("inner").optional { try $0.int() },
                  isApp: try context.member("app").optional { try $0.bool() } ?? false)
    }
}

/// A place in a document being read: its value (nil when absent) and its path, which a failure
/// names.
struct DocumentReader {
    let value: Value?
    let path: String

    init(_ value: Value?, path: String) {
        self.value = value
        self.path = path
    }

    func member(_ name: String) -> DocumentReader {
        DocumentReader(value?[name], path: path.isEmpty ? name : path + "." + name)
    }

    func failure(_ reason: String) -> NavigationStateError {
        .malformed(path: path, reason: reason)
    }

    private func present() throws -> Value {
        guard let value else { throw failure("it is missing") }
        return value
    }

    private func mismatch(_ expected: String, _ found: Value) -> NavigationStateError {
        let kind: String
        switch found {
        case .null: kind = "null"
        case .bool: kind = "true or false"
        case .int, .double: kind = "a number"
        case .string: kind = "a string"
        case .array: kind = "a list"
        case .map: kind = "an object"
        case .handle(let handle): kind = "a \(handle.kind)"
        }
        return failure("\(expected) expected, found \(kind)")
    }

    /// nil when absent or null; else what `read` makes of it.
    func optional<T>(_ read: (DocumentReader) throws -> T) rethrows -> T? {
        guard let value, !value.isNull else { return nil }
        return try read(self)
    }

    func string() throws -> String {
        let value = try present()
        guard case .string(let text) = value else { throw mismatch("a string", value) }
        return text
    }

    func bool() throws -> Bool {
        let value = try present()
        guard case .bool(let flag) = value else { throw mismatch("true or false", value) }
        return flag
    }

    /// An integer; a float with no fraction counts as one.
    func int() throws -> Int {
        let value = try present()
        switch value {
        case .int(let number):
            if let exact = Int(exactly: number) { return exact }
        case .double(let number):
            if let exact = Int(exactly: number) { return exact }
        default:
            break
        }
        throw mismatch("an integer", value)
    }

    func object() throws {
        _ = try map()
    }

    func map() throws -> OrderedDictionary<String, Value> {
        let value = try present()
        guard case .map(let members) = value else { throw mismatch("an object", value) }
        return members
    }

    func list<T>(_ read: (DocumentReader) throws -> T) throws -> [T] {
        let value = try present()
        guard case .array(let items) = value else { throw mismatch("a list", value) }
        var results = [T]()
        results.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            results.append(try read(DocumentReader(item, path: "\(path)[\(index + 1)]")))
        }
        return results
    }
}
