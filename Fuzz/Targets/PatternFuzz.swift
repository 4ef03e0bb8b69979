// Pattern parsing (Patterns/PatternParser.swift) through the public RouteTable API. The input's
// first line is a pattern; the lines after it are field values for its params, in order.
//
// Properties: a pattern that parses registers, and registering its text again replaces it; a
// generator pattern filled with values that its types accept makes a URL (URLGeneration.swift:
// "matching the generated URL gives back the values it was made from") that matches the pattern
// back with exactly those values.
import Wayfinder

@_cdecl("LLVMFuzzerTestOneInput")
public func patternFuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var lines = fuzzText(data, size).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let text = lines.removeFirst()
    let table = RouteTable<String>()
    guard let pattern = try? table.parse(text) else { return 0 }
    require(pattern.text == text, "parse(\(quoted(text))) keeps the text \(quoted(pattern.text))")
    require(pattern.isDefault || pattern.precedence.ranks.count == 1 + pattern.path.count, "\(quoted(text)): ranks and host and path components differ in number")
    do {
        try table.add(text, target: text)
        let replaced = try table.add(text, target: text + "'")
        require(replaced?.target == text && table.count == 1, "\(quoted(text)) registered twice is not one replaced route")
    } catch {
        require(false, "\(quoted(text)) parses but does not register: \(error)")
    }

    guard let generator = try? table.generatorPattern(text) else { return 0 }
    let params = generator.orderedComponents.compactMap(\.param)
    var fields: [String: Value] = [:]
    var expected: [String: Value] = [:]
    for (index, param) in params.enumerated() {
        guard let name = param.name else { return 0 }
        let given = index < lines.count ? lines[index] : sample(param.type)
        fields[name] = .string(given)
        switch param.type {
        case "id", "path":
            expected[name] = .string(given)
        default:
            guard let converted = try? table.convert(given, as: param.type) else { return 0 }
            expected[name] = converted
        }
    }
    guard let url = try? table.url(for: generator, field: { fields[$0] }) else { return 0 }
    guard url.utf8.count <= NavigationURL.maximumLength else { return 0 }
    do {
        guard let match = try table.match(url).match else {
            require(false, "\(quoted(text)) with \(fields) generates \(quoted(url)), which it does not match")
            return 0
        }
        require(match.route.pattern.text == text, "\(quoted(url)) from \(quoted(text)) matched \(quoted(match.route.pattern.text))")
        for (name, value) in expected {
            require(match.params[name] == value,
                    "\(quoted(text)) with \(fields) generates \(quoted(url)), which gives back \(name) = \(String(describing: match.params[name])), not \(value)")
        }
    } catch {
        require(false, "\(quoted(url)) from \(quoted(text)) fails to match: \(error)")
    }
    return 0
}

/// A value each built-in type accepts, for params the input gives no value for.
private func sample(_ type: String) -> String {
    switch type {
    case "int": return "42"
    case "number": return "2.5"
    case "bool": return "yes"
    case "path": return "a/b c"
    default: return "v w"
    }
}
