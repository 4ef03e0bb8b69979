// URL reading (URL/NavigationURL.swift) and matching (Routing/). The input is lines: the last is the
// URL; each line before it is a pattern to register, or, starting with '-', a pattern registered and
// then removed again. With no pattern lines a fixed map (every type, catch-alls, host params, query
// and fragment patterns, the default route) is used.
//
// Properties: a URL that reads has a lowercased scheme and non-empty segments, and rewritten from
// its parts (each escaped) it reads back the same, with the same share-mode key; matching gives the
// same answer whatever order the routes were registered in, and after routes were added and removed
// again; `explain` names the same winner as `match`.
import OrderedCollections
import Wayfinder

private let fixedPatterns = [
    "tt://menu/(initWithMenu:int)/(page:int)", "tt://menu/(initWithMenu:int)", "tt://menu/lunch",
    "tt://food/(initWithFood:)", "tt://(user)/profile", "tt://files/(rest:path)",
    "tt://files/docs/(name)/(rest:path)", "tt://order?waitress=(initWithWaitress:)",
    "tt://order?waitress=()#(orderAction:)", "tt://order?table=(table:int)&vip=(vip:bool)",
    "tt://price/(amount:number)", "tt://contact/(objectID:id)", "tt://flag/(on:bool)",
    "tt://slug/(s:slug)", "tt://even/(n:even)", "tt://boom/(x:boom)", "tt://x/(provider)",
    "tt://x/google/callback", "tt://search?q=(q)#results", "http://(host)/(rest:path)",
    "tt://(a:int)/(b:number)/(c:bool)", "*",
]

private struct TypeFailure: Error {}

/// The fixed map registered forwards and backwards, made once: the fuzzer calls from one thread.
nonisolated(unsafe) private let fixedTables: (RouteTable<String>, RouteTable<String>) = {
    let forward = makeTable()
    let backward = makeTable()
    let accepted = register(fixedPatterns, into: forward)
    require(accepted.count == fixedPatterns.count, "the fixed map registers (\(accepted.count) of \(fixedPatterns.count))")
    _ = register(fixedPatterns.reversed(), into: backward)
    return (forward, backward)
}()

/// A table with the script-registered kinds of type: a pattern-like one, a converting one, and one
/// that fails (an error there ends the match call, by design).
private func makeTable() -> RouteTable<String> {
    let table = RouteTable<String>()
    do {
        try table.registerType("slug") { text in
            !text.isEmpty && text.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D })
                ? .string(text) : nil
        }
        try table.registerType("even") { text in
            guard let n = ParamType.parseInt(text), n % 2 == 0 else { return nil }
            return .int(n)
        }
        try table.registerType("boom") { text in
            if text == "boom" { throw TypeFailure() }
            return .string(text)
        }
    } catch {
        fatalError("registering the fuzz types: \(error)")
    }
    return table
}

/// Adds each pattern, returning the texts it accepted.
private func register(_ patterns: [String], into table: RouteTable<String>) -> Set<String> {
    var accepted = Set<String>()
    for pattern in patterns {
        do {
            try table.add(pattern, target: pattern)
            accepted.insert(pattern)
        } catch {}
    }
    return accepted
}

/// What a match answers, for comparing two tables.
private struct Answer: Equatable {
    var winner: String?
    var params: [String: Value]
    var query: [String: Value]
    var fragment: String?
}

private func answer(_ table: RouteTable<String>, _ url: String) -> Answer? {
    guard let result = try? table.match(url) else { return nil }
    guard let match = result.match else { return Answer(winner: nil, params: [:], query: [:], fragment: nil) }
    return Answer(winner: match.route.pattern.text,
                  params: Dictionary(uniqueKeysWithValues: match.params.map { ($0.key, $0.value) }),
                  query: Dictionary(uniqueKeysWithValues: match.query.map { ($0.key, $0.value) }),
                  fragment: match.fragment)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func urlMatchFuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var lines = fuzzText(data, size).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let url = lines.removeLast()
    checkReading(url)

    let kept: [String]
    let removable: [String]
    let forward: RouteTable<String>
    let backward: RouteTable<String>
    if lines.isEmpty {
        (kept, removable) = (fixedPatterns, [])
        (forward, backward) = fixedTables
    } else {
        kept = lines.filter { !$0.hasPrefix("-") }
        removable = lines.filter { $0.hasPrefix("-") }.map { String($0.dropFirst()) }.filter { !kept.contains($0) }
        forward = makeTable()
        let acceptedForward = register(kept, into: forward)
        backward = makeTable()
        let acceptedBackward = register(kept.reversed(), into: backward)
        for pattern in register(removable, into: backward) { backward.remove(pattern) }
        // Two patterns of one shape conflict and the first registered stays: order matters only then.
        guard acceptedForward == acceptedBackward, backward.count == forward.count else { return 0 }
    }

    guard let first = answer(forward, url), let second = answer(backward, url) else { return 0 }
    require(first == second, "\(quoted(url)) with routes \(kept) (then \(removable) added and removed, reversed): \(first) vs \(second)")
    if let explanation = try? forward.explain(url) {
        require(explanation.winner == first.winner,
                "\(quoted(url)) with routes \(kept): explain names \(explanation.winner ?? "nil"), match \(first.winner ?? "nil")")
    }
    _ = forward.routes
    _ = forward.tieWarnings()
    return 0
}

private func checkReading(_ text: String) {
    guard let url = try? NavigationURL(text) else { return }
    require(text.utf8.count <= NavigationURL.maximumLength, "\(quoted(text)) read despite its length")
    require(url.scheme == url.scheme.lowercased() && !url.scheme.isEmpty, "\(quoted(text)) read scheme \(quoted(url.scheme))")
    require(!url.segments.contains(where: \.isEmpty), "\(quoted(text)) read an empty segment")
    require(url.fragment.map { !$0.isEmpty } ?? true, "\(quoted(text)) read an empty fragment")

    var rebuilt = url.scheme + ":"
    if let host = url.host { rebuilt += "//" + PercentEncoding.escape(host) + (url.port.map { ":\($0)" } ?? "") }
    for (index, segment) in url.segments.enumerated() {
        // Without an authority the path follows the colon directly (`tel:5551234`).
        rebuilt += (url.host == nil && index == 0 ? "" : "/") + PercentEncoding.escape(segment)
    }
    if !url.query.isEmpty {
        guard let query = try? QueryString.format(url.query) else {
            require(false, "\(quoted(text)): its query \(url.query) cannot be written")
            return
        }
        rebuilt += "?" + query
    }
    if let fragment = url.fragment { rebuilt += "#" + PercentEncoding.escape(fragment) }
    guard rebuilt.utf8.count <= NavigationURL.maximumLength else { return }
    do {
        let again = try NavigationURL(rebuilt)
        require(again.scheme == url.scheme && again.host == url.host && again.segments == url.segments
                    && again.query == url.query && again.fragment == url.fragment,
                "\(quoted(text)) rewritten as \(quoted(rebuilt)) reads differently")
        require(URLNormalization.key(for: again) == URLNormalization.key(for: url),
                "\(quoted(text)) and its rewriting \(quoted(rebuilt)) have different share keys")
    } catch {
        require(false, "\(quoted(text)) rewritten as \(quoted(rebuilt)) does not read: \(error)")
    }
}
