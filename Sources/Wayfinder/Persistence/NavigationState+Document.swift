import Foundation
import OrderedCollections

/// The state as the JSON document a state file holds (docs/persistence.md), written and read
/// through `JSON`, which keeps what each value is (`2.0` stays a float) and the order of keys.
/// `format` comes first, so even a file cut short just after it is recognizably a state.
extension NavigationState {
    typealias Member = StateDocument.Member
    private typealias RootField = StateDocument.RootField
    private typealias RootKind = StateDocument.RootKind

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
            members[Member.root.rawValue] = .map([RootField.kind.rawValue: .string(RootKind.stack.rawValue),
                                                  RootField.entries.rawValue: .array(entries.map(\.document))])
        case .tabs(let tabs, let selected):
            // Counted from 1, as nav:tree() and nav:select count.
            members[Member.root.rawValue] = .map([RootField.kind.rawValue: .string(RootKind.tabs.rawValue),
                                                  RootField.selected.rawValue: .int(TabNumber.number(of: selected)),
                                                  RootField.tabs.rawValue: .array(tabs.map { .array($0.map(\.document)) })])
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
        mode = try modeReader.choice(PersistenceMode.self)
        let rootReader = top.member(Member.root.rawValue)
        switch try rootReader.member(RootField.kind.rawValue).choice(RootKind.self) {
        case .stack:
            root = .stack(try rootReader.member(RootField.entries.rawValue).list { try Entry(reading: $0) })
        case .tabs:
            let selectedReader = rootReader.member(RootField.selected.rawValue)
            let selected = try selectedReader.int()
            guard let index = TabNumber.index(of: Int64(selected)) else {
                throw selectedReader.failure("selected tab \(selected) is not a tab number (tabs count from 1)")
            }
            root = .tabs(try rootReader.member(RootField.tabs.rawValue).list { try $0.list { try Entry(reading: $0) } }, selected: index)
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
    private typealias Field = StateDocument.EntryField

    var document: Value {
        var fields = OrderedDictionary<String, Value>()
        fields[Field.url.rawValue] = .string(url)
        if let query { fields[Field.query.rawValue] = .map(query) }
        if let state { fields[Field.state.rawValue] = state }
        if let context { fields[Field.context.rawValue] = .int(Int64(context)) }
        if important { fields[Field.important.rawValue] = true }
        if let model { fields[Field.model.rawValue] = model.document }
        if let title { fields[Field.title.rawValue] = .string(title) }
        return .map(fields)
    }

    init(reading entry: DocumentReader) throws {
        try entry.object()
        self.init(url: try entry.member(Field.url.rawValue).string(),
                  query: try entry.member(Field.query.rawValue).optional { try $0.map() },
                  state: entry.member(Field.state.rawValue).value,
                  context: try entry.member(Field.context.rawValue).optional { try $0.int() },
                  important: try entry.member(Field.important.rawValue).optional { try $0.bool() } ?? false,
                  model: try entry.member(Field.model.rawValue).optional { model in
                      try model.object()
                      return NavigationState.ModelPosition(selected: model.member(StateDocument.ModelField.selected.rawValue).value,
                                                           anchor: model.member(StateDocument.ModelField.anchor.rawValue).value)
                  },
                  title: try entry.member(Field.title.rawValue).optional { try $0.string() })
    }
}

extension NavigationState.ModelPosition {
    /// The position by name (`StateDocument.ModelField`), the parts it has.
    package var document: Value {
        var position = OrderedDictionary<String, Value>()
        if let selected { position[StateDocument.ModelField.selected.rawValue] = selected }
        if let anchor { position[StateDocument.ModelField.anchor.rawValue] = anchor }
        return .map(position)
    }
}

extension NavigationState.Pending {
    private typealias Field = StateDocument.PendingField

    var document: Value {
        var fields = OrderedDictionary<String, Value>()
        fields[Field.url.rawValue] = .string(url)
        if let query { fields[Field.query.rawValue] = .map(query) }
        if let parent { fields[Field.parent.rawValue] = .string(parent) }
        if let state { fields[Field.state.rawValue] = state }
        if let presentation { fields[Field.presentation.rawValue] = .string(presentation.rawValue) }
        if fromOutside { fields[Field.link.rawValue] = true }
        fields[Field.since.rawValue] = .string(NavigationState.timestamp(since))
        return .map(fields)
    }

    init(reading pending: DocumentReader) throws {
        try pending.object()
        let presentation = try pending.member(Field.presentation.rawValue).optional { try $0.choice(Presentation.self) }
        let sinceReader = pending.member(Field.since.rawValue)
        let sinceText = try sinceReader.string()
        guard let since = NavigationState.date(from: sinceText) else {
            throw sinceReader.failure("'\(sinceText)' is not a time such as 2026-01-01T00:00:00Z")
        }
        self.init(url: try pending.member(Field.url.rawValue).string(),
                  query: try pending.member(Field.query.rawValue).optional { try $0.map() },
                  parent: try pending.member(Field.parent.rawValue).optional { try $0.string() },
                  state: pending.member(Field.state.rawValue).value.flatMap { $0.isNull ? nil : $0 },
                  presentation: presentation,
                  fromOutside: try pending.member(Field.link.rawValue).optional { try $0.bool() } ?? false,
                  since: since)
    }
}

extension NavigationState.Context {
    private typealias Field = StateDocument.ContextField

    var document: Value {
        var fields = OrderedDictionary<String, Value>()
        if let name { fields[Field.name.rawValue] = .string(name) }
        if let declared = self.fields {
            fields[Field.fields.rawValue] = .map(OrderedDictionary(uniqueKeysWithValues: declared.sorted { $0.key < $1.key }.map { ($0.key, Value.string($0.value.rawValue)) }))
        }
        fields[Field.values.rawValue] = .map(values)
        if let inner { fields[Field.inner.rawValue] = .int(Int64(inner)) }
        if isApp { fields[Field.app.rawValue] = true }
        return .map(fields)
    }

    init(reading context: DocumentReader) throws {
        try context.object()
        let declared = try context.member(Field.fields.rawValue).optional { fields -> [String: ContextFieldType] in
            var types = [String: ContextFieldType]()
            for name in try fields.map().keys {
                types[name] = try fields.member(name).choice(ContextFieldType.self)
            }
            return types
        }
        self.init(name: try context.member(Field.name.rawValue).optional { try $0.string() }, fields: declared,
                  values: try context.member(Field.values.rawValue).optional { try $0.map() } ?? [:],
                  inner: try context.member(Field.inner.rawValue).optional { try $0.int() },
                  isApp: try context.member(Field.app.rawValue).optional { try $0.bool() } ?? false)
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

    /// The case of `Choice` the string here names (`Choice.option`'s message, at this path).
    func choice<Choice: CaseIterable & RawRepresentable>(_: Choice.Type) throws -> Choice where Choice.RawValue == String {
        try Choice.option(try string(), for: nil, failing: failure)
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
