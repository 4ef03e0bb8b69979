// State-file decoding (Persistence/): the input is the content of a state file, read through
// FileStateStore.load, the path an app takes at launch (size check, JSON decoding of
// NavigationState, validate, the reason for a file that cannot be used, moving it aside).
//
// Properties: load never crashes and answers .loaded or .unreadable (never .missing for a file that
// is there); an unreadable file is moved aside with a reason, or, when it is not recognizably a
// state (another program's file), left as it is, byte for byte; a loaded state passes validate, and
// saved and loaded again it is the same state; restored into a navigator (as at launch) and walked
// through, it makes only the visible controller, then each entry as it becomes visible.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Wayfinder

@_cdecl("LLVMFuzzerTestOneInput")
public func stateFuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let path = fuzzWorkDirectory + "/state.json"
    let input = fuzzBytes(data, size)
    writeFile(input, to: path)
    let store = FileStateStore(path: path)
    switch store.load() {
    case .missing:
        require(false, "a state file that is there loads as missing")
    case .unreadable(let reason, let keptAt):
        require(!reason.isEmpty, "an unreadable state has no reason")
        if let keptAt {
            unlink(keptAt)
            require(access(path, F_OK) != 0, "an unreadable state moved aside is still in place")
        } else {
            // A file that is not recognizably a state (another program's) is refused, untouched.
            require(reason.hasSuffix("it was left as it is"), "an unreadable state was neither moved aside nor left as it is (\(reason))")
            require(readFile(path) == input,
                    "a file left as it is was changed")
        }
    case .loaded(let state):
        do {
            try state.validate()
        } catch {
            require(false, "a loaded state does not validate: \(error)")
        }
        let copyPath = fuzzWorkDirectory + "/copy.json"
        let copy = FileStateStore(path: copyPath)
        do {
            try copy.save(state)
        } catch {
            // Saving is not under test here, and it may refuse what JSON cannot hold.
            return 0
        }
        let again = copy.load()
        guard case .loaded(let reloaded) = again else {
            if case .unreadable(_, let keptAt?) = again { unlink(keptAt) }
            require(false, "a loaded state, saved, does not load again: \(again)")
            return 0
        }
        require(reloaded == state, "a loaded state, saved and loaded again, differs: \(state) vs \(reloaded)")
        unlink(copyPath)
        unlink(path)
        restoreAndWalk(state)
    }
    return 0
}

// MARK: Restoring what was loaded

private final class Screen {
    let url: String
    init(url: String) { self.url = url }
}

/// A map for the URLs the seeds use, in every mode.
private let restoreRoutes: [(String, NavigationMode)] = [
    ("tt://menu/(id:int)", .create), ("tt://food/(f)", .create), ("tt://order?waitress=(w)", .modal),
    ("tt://help", .popover), ("tt://contacts", .share), ("tt://send", .none), ("tt://x/(rest:path)", .create),
]

/// The launch after the load: restore the tree lazily, then reach every entry (dismissing, selecting
/// each tab, going back), so each one is made from what was saved. Property (README, Persistence):
/// the visible entry is always made, and restoring makes only that one.
private func restoreAndWalk(_ state: NavigationState) {
    let routes = RouteTable<String>()
    for (pattern, mode) in restoreRoutes {
        do { try routes.add(pattern, target: pattern, options: RouteOptions(mode: mode)) } catch {
            fatalError("the restore map does not register: \(error)")
        }
    }
    var made = 0
    let factory = ControllerFactory<String, Screen>(make: { match, _ in
        made += 1
        return Screen(url: match.url.text)
    })
    let navigator = Navigator(routes: routes, factory: factory)
    let app = ContextChain(name: "app")
    guard (try? navigator.restore(state, appContext: app)) == true else { return }
    require(navigator.tree.visible?.isLoaded == true, "restored, the visible entry is not made")
    require(made == 1, "restoring made \(made) controllers")
    _ = navigator.tree.captured(mode: state.mode, appContext: app) { _, _ in ControllerRecord() }

    let budget = state.entries.count + 2
    func walkBack() {
        for _ in 0..<budget {
            guard (try? navigator.back()) == true else { return }
            require(navigator.tree.visible?.isLoaded != false, "after back, the visible entry is not made")
        }
    }
    for _ in 0..<budget {
        guard (try? navigator.dismiss()) == true else { break }
        require(navigator.tree.visible?.isLoaded != false, "after dismiss, the visible entry is not made")
    }
    walkBack()
    if case .tabs(let tabs, _) = navigator.tree.root {
        for index in tabs.indices {
            guard (try? navigator.select(index)) == true else { continue }
            require(navigator.tree.visible?.isLoaded != false, "after selecting tab \(index), the visible entry is not made")
            walkBack()
        }
    }
    _ = navigator.tree.captured(mode: state.mode, appContext: app) { _, _ in ControllerRecord() }
}
