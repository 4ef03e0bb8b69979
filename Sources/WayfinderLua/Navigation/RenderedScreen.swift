import Wayfinder

/// What a controller's `render()` returned: `{ title = ..., lines = { ... }, links = { { "Label",
/// "url" }, ... } }`. A link may also be written `{ title = "Label", url = "..." }`; lines may hold
/// numbers and booleans, shown as text.
public struct RenderedScreen: Equatable, Sendable {
    /// One link: what it says, and the URL it opens.
    public struct Link: Equatable, Sendable {
        /// The link's label.
        public var title: String
        /// The URL it opens.
        public var url: String
    }

    /// The screen's title; nil when it gives none.
    public var title: String?
    /// Its text, a line each.
    public var lines: [String]
    /// Its links, in order.
    public var links: [Link]
    /// Its fields, in order (ScreenFields.swift).
    public var fields: [Field]
    /// Its buttons, in order (ScreenButtons.swift).
    public var buttons: [Button]

    /// A screen described by hand.
    public init(title: String?, lines: [String] = [], links: [Link] = [], fields: [Field] = [], buttons: [Button] = []) {
        self.title = title
        self.lines = lines
        self.links = links
        self.fields = fields
        self.buttons = buttons
    }

    /// Reads render()'s result; `owner` names the controller in the error.
    init(_ value: Value, owner: String) throws(ScriptError) {
        func failure(_ problem: String) -> ScriptError {
            ScriptError(kind: .conversion, message: "render() of \(owner) \(problem)")
        }
        guard case .map(let fields) = value else {
            throw failure("returned \(value.typeDescription), not a table { title, lines, links }")
        }
        if let unknown = fields.keys.first(where: { ScreenRecord(rawValue: $0) == nil }) {
            throw failure("returned an unknown field '\(unknown)' (fields: \(ScreenRecord.names.joined(separator: ", ")))")
        }
        self.fields = try Self.fields(fields[ScreenRecord.fields.rawValue], failure: failure)
        buttons = try Self.buttons(fields[ScreenRecord.buttons.rawValue], failure: failure)
        switch fields[ScreenRecord.title.rawValue] {
        case nil, .null?: title = nil
        case .string(let text)?: title = text
        case let other?: throw failure("returned a title that is \(other.typeDescription), not a string")
        }
        lines = []
        switch fields[ScreenRecord.lines.rawValue] {
        case nil, .null?: break
        case .array(let items)?:
            for (i, item) in items.enumerated() {
                switch item {
                case .string(let text): lines.append(text)
                case .int, .double, .bool: lines.append(item.description)
                default: throw failure("returned lines[\(i + 1)] that is \(item.typeDescription), not text")
                }
            }
        case .map(let map)? where map.isEmpty: break
        case let other?: throw failure("returned lines that are \(other.typeDescription), not a list")
        }
        links = []
        switch fields[ScreenRecord.links.rawValue] {
        case nil, .null?: break
        case .array(let items)?:
            for (i, item) in items.enumerated() {
                switch item {
                case .array(let pair) where pair.count == 2:
                    guard let title = pair[0].stringValue, let url = pair[1].stringValue else {
                        throw failure("returned links[\(i + 1)] that is not { \"label\", \"url\" }")
                    }
                    links.append(Link(title: title, url: url))
                case .map(let link):
                    guard let title = link["title"]?.stringValue, let url = link["url"]?.stringValue else {
                        throw failure("returned links[\(i + 1)] without a string title and url")
                    }
                    links.append(Link(title: title, url: url))
                default:
                    throw failure("returned links[\(i + 1)] that is not { \"label\", \"url\" }")
                }
            }
        case .map(let map)? where map.isEmpty: break
        case let other?: throw failure("returned links that are \(other.typeDescription), not a list")
        }
    }
}
