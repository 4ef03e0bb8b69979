import Testing
import TestSupport
@testable import Wayfinder

/// A presenter as a UIKit adapter would be one: it keeps its own model of the screens (stacks
/// of views, modals, a popover) and changes it only as events say, never by reading the
/// navigator. Only a `.replacedTree` makes it render the event's tree afresh. A change that
/// does not fit its model (popping more than a stack holds, selecting a tab that is not
/// there, showing a popover over another) is noted as a fault.
final class MirrorPresenter {
    struct Screen: Equatable {
        let id: Int
        let url: String
        var made: Bool
    }

    enum Root: Equatable {
        case stack([Screen])
        case tabs([[Screen]], selected: Int)
    }

    private(set) var root = Root.stack([])
    private(set) var modals: [[Screen]] = []
    private(set) var popover: Screen?
    private(set) var faults: [String] = []
    private(set) var heard = 0

    init(_ snapshot: NavigationSnapshot) {
        render(snapshot)
    }

    func apply(_ event: NavigationEvent) {
        heard += 1
        switch event.change {
        case .pushed(let entry, let stack):
            changeStack(stack) { $0.append(Screen(entry)) }
        case .popped(let count, let stack):
            changeStack(stack) { screens in
                guard count >= 1, count <= screens.count else { return fault("popped \(count) of \(screens.count)") }
                screens.removeLast(count)
            }
        case .presentedModal(let entry):
            if popover != nil { fault("a modal presented under a popover") }
            modals.append([Screen(entry)])
        case .dismissedModal:
            if popover != nil { fault("a modal dismissed under a popover") }
            if modals.isEmpty { fault("dismissed with no modal") } else { modals.removeLast() }
        case .showedPopover(let entry):
            if popover != nil { fault("a popover shown over another") }
            popover = Screen(entry)
        case .closedPopover:
            if popover == nil { fault("closed a popover that is not there") }
            popover = nil
        case .selectedTab(let tab):
            guard case .tabs(let tabs, let selected) = root, tabs.indices.contains(tab), tab != selected else {
                return fault("selected tab \(tab) of \(root)")
            }
            root = .tabs(tabs, selected: tab)
        case .replacedRoot(let newRoot):
            root = Self.root(newRoot)
        case .loaded(let entry, let location):
            load(entry, at: location)
        case .replacedTree:
            render(event.tree)
        }
        if Self.snapshot(root: root, modals: modals, popover: popover) != event.tree {
            fault("the event's tree is not the tree after its change (\(event.change))")
        }
    }

    /// Whether the model is the navigator's tree: the same entries (by id and URL, made or
    /// not) in the same places.
    func mirrors<Controller>(_ tree: NavigationTree<Controller>) -> Bool {
        func screens(_ stack: NavigationStack<Controller>) -> [Screen] {
            stack.entries.map { Screen(id: $0.id, url: $0.url, made: $0.isLoaded) }
        }
        let treeRoot: Root
        switch tree.root {
        case .stack(let stack): treeRoot = .stack(screens(stack))
        case .tabs(let tabs, let selected): treeRoot = .tabs(tabs.map(screens), selected: selected)
        }
        let treePopover = tree.popover.map { Screen(id: $0.id, url: $0.url, made: $0.isLoaded) }
        return root == treeRoot && modals == tree.modals.map(screens) && popover == treePopover
    }

    private func render(_ snapshot: NavigationSnapshot) {
        root = Self.root(snapshot.root)
        modals = snapshot.modals.map { $0.map(Screen.init) }
        popover = snapshot.popover.map(Screen.init)
    }

    private func load(_ entry: NavigationSnapshot.Entry, at location: NavigationSnapshot.Location) {
        func made(_ screen: inout Screen) {
            guard screen.id == entry.id, !screen.made, entry.isLoaded else { return fault("loaded \(entry) over \(screen)") }
            screen.made = true
        }
        switch location {
        case .popover:
            if popover == nil { fault("loaded a popover that is not there") } else { made(&popover!) }
        case .root(let index):
            changeStack(.root) { if $0.indices.contains(index) { made(&$0[index]) } else { fault("no root entry \(index)") } }
        case .tab(let tab, let index):
            changeStack(.tab(tab)) { if $0.indices.contains(index) { made(&$0[index]) } else { fault("no entry \(index) in tab \(tab)") } }
        case .modal(let modal, let index):
            changeStack(.modal(modal)) { if $0.indices.contains(index) { made(&$0[index]) } else { fault("no entry \(index) in modal \(modal)") } }
        }
    }

    private func changeStack(_ stack: NavigationSnapshot.StackLocation, _ body: (inout [Screen]) -> Void) {
        switch (stack, root) {
        case (.root, .stack(var screens)):
            body(&screens)
            root = .stack(screens)
        case (.tab(let t), .tabs(var tabs, let selected)) where tabs.indices.contains(t):
            body(&tabs[t])
            root = .tabs(tabs, selected: selected)
        case (.modal(let m), _) where modals.indices.contains(m):
            body(&modals[m])
        default:
            fault("no stack \(stack) in \(root) with \(modals.count) modals")
        }
    }

    private func fault(_ message: String) {
        faults.append(message)
    }

    private static func root(_ root: NavigationSnapshot.Root) -> Root {
        switch root {
        case .stack(let entries): return .stack(entries.map(Screen.init))
        case .tabs(let tabs, let selected): return .tabs(tabs.map { $0.map(Screen.init) }, selected: selected)
        }
    }

    private static func snapshot(root: Root, modals: [[Screen]], popover: Screen?) -> NavigationSnapshot {
        func entries(_ screens: [Screen]) -> [NavigationSnapshot.Entry] {
            screens.map { NavigationSnapshot.Entry(id: $0.id, url: $0.url, isLoaded: $0.made) }
        }
        let snapshotRoot: NavigationSnapshot.Root
        switch root {
        case .stack(let screens): snapshotRoot = .stack(entries(screens))
        case .tabs(let tabs, let selected): snapshotRoot = .tabs(tabs.map(entries), selected: selected)
        }
        return NavigationSnapshot(root: snapshotRoot, modals: modals.map(entries),
                                  popover: popover.map { entries([$0])[0] })
    }
}

extension MirrorPresenter.Screen {
    init(_ entry: NavigationSnapshot.Entry) {
        self.init(id: entry.id, url: entry.url, made: entry.isLoaded)
    }
}

/// Random sequences of everything that changes the tree, or fails to: opens of every mode
/// (parents, actions that navigate, fragments, external and unknown URLs) with every
/// presentation, links from outside, guards that stop opens (which then wait, and open by
/// themselves once the guard lets them), constructors that fail, back, dismiss, pop to root,
/// tab selection, tab lists, restores of captured states, routes removed under restored
/// entries. After every step each presenter's model, built from events alone, must be the
/// navigator's tree.
@Suite("Navigation events: a presenter mirrors the tree from events alone")
struct NavigationEventPropertyTests {
    static let routes: [(String, RouteOptions)] = [
        ("tt://menu/(id:int)", RouteOptions(mode: .share)),
        ("tt://food/(name)", RouteOptions()),
        ("tt://about/(page)", RouteOptions(parent: "tt://menu/5")),
        ("tt://deep/(page)", RouteOptions(parent: "tt://about/x")),
        ("tt://order?waitress=(w)", RouteOptions(mode: .modal)),
        ("tt://order?waitress=()#(action)", RouteOptions()),
        ("tt://confirm", RouteOptions(mode: .popover)),
        ("tt://tip", RouteOptions(mode: .popover)),
        ("tt://send", RouteOptions(mode: .none)),
        ("tt://act", RouteOptions(mode: .none, parent: "tt://menu/2")),
        ("tt://gone/(id)", RouteOptions()),
        ("tt://step/(n)", RouteOptions(presentation: .replace, external: true)),
        ("tt://restart", RouteOptions(presentation: .clearAll)),
        ("tt://locked/(n)", RouteOptions(external: true)),
        ("tt://signin", RouteOptions(mode: .modal)),
    ]

    static let urls = [
        "tt://menu/1", "tt://menu/2", "tt://menu/5", "tt://menu/6", "tt://food/a", "tt://food/b", "tt://food/c",
        "tt://about/x", "tt://about/y", "tt://deep/1", "tt://order?waitress=Ann", "tt://order?waitress=Bo",
        "tt://order?waitress=Ann#pizza", "tt://order?waitress=Cy#soup", "tt://menu/2#top", "tt://menu/5#boom",
        "tt://food/a#boom", "tt://confirm", "tt://tip", "tt://send", "tt://act", "tt://gone/1", "tt://gone/2",
        "tt://nowhere/1", "tt://food/%zz", "tel:555", "tt://step/1", "tt://step/2", "tt://restart", "tt://locked/1",
        "tt://locked/2", "tt://signin",
    ]
    static let tabChoices = ["tt://menu/1", "tt://menu/2", "tt://menu/5", "tt://food/a", "tt://gone/1", "tt://about/y"]
    static let failable = ["tt://food/b", "tt://menu/2", "tt://menu/5", "tt://order?waitress=Bo", "tt://send", "tt://gone/1",
                           "tt://about/x", "tt://tip", "tt://food/a"]

    static let seeds = 0..<200

    @Test(arguments: seeds)
    func presentersMirrorTheTree(seed: Int) throws {
        _ = try Self.run(seed: seed)
    }

    /// The sequences reach what they are meant to: every kind of change, batches of several,
    /// operations that fail or change nothing, observers added and removed along the way.
    @Test func theSequencesReachEveryKindOfChange() throws {
        var total = Coverage()
        for seed in Self.seeds { total.add(try Self.run(seed: seed)) }
        let kinds = ["pushed", "popped", "presentedModal", "dismissedModal", "showedPopover", "closedPopover", "selectedTab",
                     "replacedRoot", "loaded", "replacedTree(restore)", "replacedTree(reload)"]
        for kind in kinds { #expect(total.kinds[kind, default: 0] > 0, "no \(kind) in \(total.kinds)") }
        for presentation in Presentation.allCases {
            #expect(total.presented[presentation, default: 0] > 10, "few opens with \(presentation) that went through: \(total.presented)")
        }
        #expect(total.resumedByThemselves > 50, "pending opens that opened after a change: \(total.resumedByThemselves)")
        #expect(total.linksOpened > 10 && total.linksRefused > 10)
        // A popover is only ever unmade when restored, and then it is made at once (or dropped).
        for location in ["root", "tab", "modal"] {
            #expect(total.loadedAt.contains(location), "no entry loaded in a \(location) stack: \(total.loadedAt)")
        }
        #expect(total.severalPopped > 0)
        #expect(total.longestBatch >= 4)
        #expect(total.failed > 50 && total.unchanged > 50)
        #expect(total.failedAfterMaking > 0, "no failed operation had made a restored entry it then took back")
        #expect(total.presentersAdded > 50 && total.presentersRemoved > 10)
    }

    /// What a run reached.
    struct Coverage {
        var kinds: [String: Int] = [:]
        var loadedAt: Set<String> = []
        var severalPopped = 0
        var longestBatch = 0
        var failed = 0
        var unchanged = 0
        var failedAfterMaking = 0
        var presentersAdded = 0
        var presentersRemoved = 0
        /// Opens with each presentation that went through (and changed the tree, but `none`).
        var presented: [Presentation: Int] = [:]
        var resumedByThemselves = 0
        var linksOpened = 0
        var linksRefused = 0

        mutating func heard(_ batch: [NavigationChange]) {
            longestBatch = max(longestBatch, batch.count)
            for change in batch {
                let kind: String
                switch change {
                case .replacedTree(let replacement): kind = "replacedTree(\(replacement))"
                case .loaded(_, let location):
                    kind = "loaded"
                    loadedAt.insert(String("\(location)".prefix { $0.isLetter }))
                case .popped(let count, _):
                    kind = "popped"
                    if count > 1 { severalPopped += 1 }
                default: kind = String("\(change)".prefix { $0.isLetter })
                }
                kinds[kind, default: 0] += 1
            }
        }

        mutating func add(_ other: Coverage) {
            kinds.merge(other.kinds, uniquingKeysWith: +)
            loadedAt.formUnion(other.loadedAt)
            severalPopped += other.severalPopped
            longestBatch = max(longestBatch, other.longestBatch)
            failed += other.failed
            unchanged += other.unchanged
            failedAfterMaking += other.failedAfterMaking
            presentersAdded += other.presentersAdded
            presentersRemoved += other.presentersRemoved
            presented.merge(other.presented, uniquingKeysWith: +)
            resumedByThemselves += other.resumedByThemselves
            linksOpened += other.linksOpened
            linksRefused += other.linksRefused
        }
    }

    /// One sequence of 60 random steps, checked after each.
    static func run(seed: Int) throws -> Coverage {
        var coverage = Coverage()
        var random = SeededGenerator(seed: UInt64(seed) &* 0x9E37_79B9 &+ 17)
        let h = try NavigatorHarness(Self.routes)
        var droppedPending = 0
        h.navigator.warn = { if $0.hasPrefix("dropped the pending") { droppedPending += 1 } }
        h.navigator.factory.handleFragment = { _, match in
            if match.fragment == "boom" { throw NavigationError.controllerFailed(match.url.text, reason: "fragment refused") }
        }
        // The guard of tt://locked/(n): shut, it sends to the sign-in, to nothing, or to another
        // locked URL (a loop, cut as a redirect loop).
        var unlocked = false
        var instead: String? = "tt://signin"
        h.navigator.routeGuard = { match, _ in
            guard match.route.pattern.text == "tt://locked/(n)", !unlocked else { return .pass }
            return .stop(instead: instead)
        }
        // What the action does this time: nothing, or navigation of its own.
        var actionPlan = 0
        h.whileMaking["tt://send"] = { navigator in
            switch actionPlan {
            case 1: try navigator.dismiss()
            case 2: try navigator.back(); try navigator.open("tt://food/c")
            case 3: try navigator.open("tt://order?waitress=Ann"); try navigator.open("tt://food/a")
            case 4: _ = try? navigator.open("tt://nowhere/2"); try navigator.select(1)
            default: break
            }
        }

        var presenters: [(presenter: MirrorPresenter, token: NavigationObserverToken)] = []
        // The tree an observer read while hearing each event, with the event's own tree.
        var treesRead: [(read: NavigationSnapshot, event: NavigationSnapshot)] = []
        var batch: [NavigationChange] = []
        func addPresenter() {
            let presenter = MirrorPresenter(NavigationSnapshot(h.navigator.tree))
            let first = presenters.isEmpty
            let token = h.navigator.observe { [unowned navigator = h.navigator] event in
                presenter.apply(event)
                treesRead.append((NavigationSnapshot(navigator.tree), event.tree))
                if first { batch.append(event.change) }
            }
            presenters.append((presenter, token))
        }
        addPresenter()
        var made = h.made.count

        var saved: [NavigationState] = []
        var goneRemoved = false
        for step in 0..<60 {
            let before = NavigationSnapshot(h.navigator.tree)
            let heardBefore = Dictionary(uniqueKeysWithValues: presenters.map { (ObjectIdentifier($0.presenter), $0.presenter.heard) })
            treesRead.removeAll()
            batch.removeAll()
            var failed = false
            var operation = ""
            func attempt(_ name: String, _ body: () throws -> Void) {
                operation = name
                do { try body() } catch { failed = true }
            }
            let pendingBefore = h.navigator.pendingOpen?.request.url
            let droppedBefore = droppedPending
            var presentation: Presentation?
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<30:
                let url = Self.urls.randomElement(using: &random)!
                actionPlan = Int.random(in: 0...4, using: &random)
                attempt("open \(url) (action plan \(actionPlan))") { try h.navigator.open(url) }
            case 30..<40:
                let url = Self.urls.randomElement(using: &random)!
                presentation = Presentation.allCases.randomElement(using: &random)!
                actionPlan = Int.random(in: 0...4, using: &random)
                attempt("open \(url) as \(presentation!) (action plan \(actionPlan))") {
                    try h.navigator.open(NavigationRequest(url: url, presentation: presentation))
                }
            case 40..<45:
                let url = Self.urls.randomElement(using: &random)!
                attempt("link \(url)") { try h.navigator.handleLink(url) }
                if failed { coverage.linksRefused += 1 } else { coverage.linksOpened += 1 }
            case 45..<55:
                attempt("back") { try h.navigator.back() }
            case 55..<62:
                attempt("dismiss") { try h.navigator.dismiss() }
            case 62..<70:
                let tab = Int.random(in: -1...3, using: &random)
                attempt("select \(tab)") { try h.navigator.select(tab) }
            case 70..<75:
                let urls = (0..<Int.random(in: 1...3, using: &random)).map { _ in Self.tabChoices.randomElement(using: &random)! }
                attempt("tabs \(urls)") { try h.navigator.setTabs(urls) }
            case 75..<80:
                let mode: PersistenceMode = Bool.random(using: &random) ? .all : .top
                operation = "capture (\(mode))"
                saved.append(h.navigator.tree.captured(mode: mode) { entry, _ in ControllerRecord(persists: entry.url != "tt://food/c") }.state)
            case 80..<86:
                guard let state = saved.randomElement(using: &random) else { continue }
                let strict = Bool.random(using: &random)
                let replacement: NavigationChange.Replacement = Bool.random(using: &random) ? .restore : .reload
                attempt("restore (strict: \(strict), \(replacement))") { try h.navigator.restore(state, strict: strict, as: replacement) }
            case 86..<90:
                let url = Self.failable.randomElement(using: &random)!
                operation = "toggle failing \(url)"
                if h.failOn.remove(url) == nil { h.failOn.insert(url) }
            case 90..<94:
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    unlocked.toggle()
                    operation = "guard \(unlocked ? "open" : "shut")"
                case 1:
                    instead = [nil, "tt://signin", "tt://locked/2", "tt://tip"].randomElement(using: &random)!
                    operation = "guard sends to \(instead ?? "nothing")"
                case 2:
                    attempt("resume") { try h.navigator.resume() }
                default:
                    attempt("pop to root") { try h.navigator.popToRoot() }
                }
            case 94..<96:
                operation = goneRemoved ? "add tt://gone back" : "remove tt://gone"
                if goneRemoved { try h.routes.add("tt://gone/(id)", target: "tt://gone/(id)") } else { h.routes.remove("tt://gone/(id)") }
                goneRemoved.toggle()
            default:
                if presenters.count < 3 || Bool.random(using: &random) {
                    operation = "add a presenter"
                    addPresenter()
                    coverage.presentersAdded += 1
                } else {
                    operation = "remove a presenter"
                    let (_, token) = presenters.remove(at: Int.random(in: 1..<presenters.count, using: &random))
                    #expect(h.navigator.removeObserver(token))
                    coverage.presentersRemoved += 1
                }
            }

            let after = NavigationSnapshot(h.navigator.tree)
            let context = "seed \(seed), step \(step), \(operation)"
            for (presenter, _) in presenters {
                let heard = presenter.heard - (heardBefore[ObjectIdentifier(presenter)] ?? 0)
                if failed || before == after {
                    #expect(heard == 0, "\(context): an operation that failed or changed nothing sent \(heard) events")
                }
                #expect(presenter.faults.isEmpty, "\(context): \(presenter.faults)")
                #expect(presenter.mirrors(h.navigator.tree), "\(context): the presenter's model is not the tree")
                if !presenter.faults.isEmpty || !presenter.mirrors(h.navigator.tree) { return coverage }
            }
            // While a batch is told, the tree is the one committed after its last change: the
            // tree of an event heard then or later. A step is one batch, or two when a change let a
            // waiting open through (its own operation, told after).
            #expect(treesRead.indices.allSatisfy { i in treesRead[i...].contains { $0.event == treesRead[i].read } }
                        && (treesRead.last.map { $0.read == after } ?? true), "\(context): an observer read an uncommitted tree")
            coverage.heard(batch)
            if failed { coverage.failed += 1 } else if before == after { coverage.unchanged += 1 }
            // Opens with a presentation that did what it does: `none` leaves the tree as it was.
            if let presentation, !failed, (presentation == .none) == (before == after) { coverage.presented[presentation, default: 0] += 1 }
            // A waiting open that went through by itself after the step's change.
            if pendingBefore != nil, h.navigator.pendingOpen == nil, droppedPending == droppedBefore, !failed,
               operation != "resume", before != after {
                coverage.resumedByThemselves += 1
            }
            // A restored entry made by a failed operation that found it in the tree (a parent, a
            // fragment's screen) and was taken back.
            if failed, h.made.count > made, before == after, h.made.suffix(h.made.count - made).contains(where: { url in
                   Self.unloadedURLs(before).contains(url) }) {
                coverage.failedAfterMaking += 1
            }
            made = h.made.count
        }
        return coverage
    }

    private static func unloadedURLs(_ snapshot: NavigationSnapshot) -> Set<String> {
        var urls = Set<String>()
        switch snapshot.root {
        case .stack(let entries): urls.formUnion(entries.filter { !$0.isLoaded }.map(\.url))
        case .tabs(let tabs, _): for tab in tabs { urls.formUnion(tab.filter { !$0.isLoaded }.map(\.url)) }
        }
        for modal in snapshot.modals { urls.formUnion(modal.filter { !$0.isLoaded }.map(\.url)) }
        return urls
    }
}
