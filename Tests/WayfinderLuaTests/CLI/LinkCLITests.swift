import Foundation
import Testing
import Wayfinder

/// `wayfinder open --link`, `--presentation`, and `run --link` with its commands: links from outside
/// the app, guards that keep them waiting across launches, and the presentation verbs.
@Suite("wayfinder open and run: links from outside, guards, presentations")
struct LinkCLITests {
    static let desk = WayfinderCLI.repositoryRoot.appendingPathComponent("lua/spec/apps/desk").path

    let directory: TemporaryDirectory
    let state: String

    init() throws {
        directory = try TemporaryDirectory()
        state = directory.subpath("desk.json")
    }

    @Test func openAppliesItsURLsFirstThenTheLink() throws {
        let result = try WayfinderCLI.run(["open", Self.desk, "tt://page/a", "--link", "tt://about/hours", "tt://page/b"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "stack: tt://home > tt://page/a > tt://page/b > tt://page/about > tt://about/hours\nvisible: tt://about/hours\n")
    }

    @Test func aLinkToARouteNotMarkedExternalIsRefusedAndNothingChanges() throws {
        _ = try WayfinderCLI.run(["open", Self.desk, "tt://page/a", "--state", state])
        let saved = try String(contentsOfFile: state, encoding: .utf8)
        let result = try WayfinderCLI.run(["open", Self.desk, "--link", "tt://settings", "--state", state])
        #expect(result.status == 1)
        #expect(result.stderr == "wayfinder: cannot open 'tt://settings' from outside the app: its route 'tt://settings' is not marked external\n")
        #expect(result.stdout == "stack: tt://home (not loaded) > tt://page/a\nvisible: tt://page/a\n")
        #expect(try String(contentsOfFile: state, encoding: .utf8).replacingOccurrences(of: #""saved_at":"[^"]*""#, with: "", options: .regularExpression)
            == saved.replacingOccurrences(of: #""saved_at":"[^"]*""#, with: "", options: .regularExpression))
        let moved = try WayfinderCLI.run(["open", Self.desk, "--link", "tt://p/old"])
        #expect(moved.stdout.hasSuffix("visible: tt://page/old\n"), "an old URL moves first: \(moved.stderr)")
    }

    @Test func aRelaunchWithAPendingLinkOpensItAfterSignIn() throws {
        let first = try WayfinderCLI.run(["open", Self.desk, "tt://page/a", "--link", "tt://order/7", "--state", state])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasSuffix("visible: tt://signin?for=tt%3A%2F%2Forder%2F7\n"))
        #expect(first.stderr == "pending: tt://order/7 (a link from outside) opens once its guard lets it through\n")
        #expect(try String(contentsOfFile: state, encoding: .utf8).contains(#""pending":{"url":"tt://order/7","link":true,"since":""#))
        // A second launch: the link still waits; signing in opens it, on top of the restored tree.
        let second = try WayfinderCLI.run(["open", Self.desk, "tt://signin/as/ann", "--state", state])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.isEmpty, "nothing waits any more: \(second.stderr)")
        #expect(second.stdout == "stack: tt://home (not loaded) > tt://page/a > tt://order/7\nvisible: tt://order/7\n")
        #expect(!(try String(contentsOfFile: state, encoding: .utf8)).contains(#""pending""#))
    }

    @Test func runTakesALinkAtLaunchAndKeepsItWaitingAcrossRelaunches() throws {
        let (screens, result) = try RunAndOpenTests.screens(["o tt://page/x", "q"], app: Self.desk,
                                                             options: ["--state", state, "--link", "tt://order/5"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(screens[0].contains("Modal 1: tt://signin?for=tt%3A%2F%2Forder%2F5\n"), "\(screens[0])")
        #expect(screens[0].contains("pending: tt://order/5 (a link from outside) opens once its guard lets it through"))
        let (again, _) = try RunAndOpenTests.screens(["o tt://signin/as/bo", "q"], app: Self.desk, options: ["--state", state])
        #expect(again[0].contains("pending: tt://order/5"), "the relaunch restores it:\n\(again[0])")
        #expect(again[1].contains("Stack:   tt://home > tt://order/5\n"), "\(again[1])")
        #expect(!again[1].contains("pending:"))
    }

    @Test func runCommandsReachTheVerbsAndTheLinkDoor() throws {
        let commands = ["o tt://page/a", "o tt://page/b", "o replace tt://page/c", "o pop tt://page/a", "root", "root", "l tt://settings", "l tt://page/news", "o sideways tt://page/z", "q"]
        let (screens, result) = try RunAndOpenTests.screens(commands, app: Self.desk, options: ["--no-state"])
        #expect(result.status == 0)
        #expect(screens[3].contains("Stack:   tt://home > tt://page/a > tt://page/c\n"), "\(screens[3])")
        #expect(screens[4].contains("Stack:   tt://home > tt://page/a\n"), "\(screens[4])")
        #expect(screens[5].contains("Stack:   tt://home\n"), "\(screens[5])")
        #expect(screens[6].contains("! nothing to pop"), "\(screens[6])")
        #expect(screens[7].contains("! cannot open 'tt://settings' from outside the app: its route 'tt://settings' is not marked external"))
        #expect(screens[8].contains("Stack:   tt://home > tt://page/news\n"), "\(screens[8])")
        // An unknown verb is no verb: the whole argument is taken as the URL.
        #expect(screens[9].contains("! cannot open 'sideways tt://page/z'"), "\(screens[9])")
    }

    /// From home > shelf/s > page/a > page/b, each verb opening tt://page/c (share: the shelf,
    /// whose route has mode share, again): the stack it leaves.
    static let verbs: [(verb: String, stack: [String])] = [
        ("push", ["tt://home", "tt://shelf/s", "tt://page/a", "tt://page/b", "tt://page/c"]),
        ("replace", ["tt://home", "tt://shelf/s", "tt://page/a", "tt://page/c"]),
        ("replace_root", ["tt://page/c"]),
        ("clear_all", ["tt://home", "tt://page/c"]),
        ("refresh", ["tt://home", "tt://shelf/s", "tt://page/a", "tt://page/b"]),
        ("pop", ["tt://home", "tt://shelf/s", "tt://page/a", "tt://page/c"]),
        ("none", ["tt://home", "tt://shelf/s", "tt://page/a", "tt://page/b"]),
        ("share", ["tt://home", "tt://shelf/s"]),
    ]

    @Test(arguments: verbs)
    func openGivesEveryVerbAndTheTreeItLeavesIsSaved(verb: String, stack: [String]) throws {
        let setUp = try WayfinderCLI.run(["open", Self.desk, "tt://shelf/s", "tt://page/a", "tt://page/b", "--state", state])
        #expect(setUp.status == 0, "\(setUp.stderr)")
        let opened = try WayfinderCLI.run(verb == "share" ? ["open", Self.desk, "tt://shelf/s", "--state", state]
                                                          : ["open", Self.desk, "tt://page/c", "--presentation", verb, "--state", state])
        #expect(opened.status == 0, "\(opened.stderr)")
        let shown = "stack: " + stack.joined(separator: " > ") + "\nvisible: \(stack.last ?? "")\n"
        #expect(opened.stdout.replacingOccurrences(of: " (not loaded)", with: "") == shown)
        let relaunched = try WayfinderCLI.run(["open", Self.desk, "--state", state])
        #expect(relaunched.stdout.replacingOccurrences(of: " (not loaded)", with: "") == shown, "saved and restored")
    }

    @Test(arguments: verbs)
    func runGivesEveryVerbAndTheTreeItLeavesIsSaved(verb: String, stack: [String]) throws {
        let command = verb == "share" ? "o tt://shelf/s" : "o \(verb) tt://page/c"
        let (screens, result) = try RunAndOpenTests.screens(["o tt://shelf/s", "o tt://page/a", "o tt://page/b", command, "q"],
                                                             app: Self.desk, options: ["--state", state])
        #expect(result.status == 0, "\(result.stderr)")
        let shown = "Stack:   " + stack.joined(separator: " > ") + "\n"
        #expect(screens[4].contains(shown), "\(screens[4])")
        #expect(!screens[4].contains("! "), "\(screens[4])")
        let (again, _) = try RunAndOpenTests.screens(["q"], app: Self.desk, options: ["--state", state])
        #expect(again[0].contains(shown), "saved and restored:\n\(again[0])")
    }

    static let restaurant = WayfinderCLI.repositoryRoot.appendingPathComponent("lua/examples/restaurant").path
    static func contact(_ id: String) -> String { ObjectID.encode("x-coredata://8C3E6F2A-4B1D-4E7A-9F05-2D6B8A1C3E94/Contact/\(id)") }

    @Test func theRestaurantLinksAContactGuardsAnOrderReplacesAStepAndStartsOver() throws {
        let alice = "tt://contact/" + Self.contact("p3")
        // A link from outside to a contact lands on top of the tab in view; an internal screen is refused.
        let linked = try WayfinderCLI.run(["open", Self.restaurant, "tt://food/porridge", "--link", alice])
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(linked.stdout.contains("  *tab 1 (Breakfast): tt://menu/1 > tt://food/porridge > \(alice)\n"), "\(linked.stdout)")
        let refused = try WayfinderCLI.run(["open", Self.restaurant, "--link", "tt://order/food"])
        #expect(refused.status == 1 && refused.stderr.contains("is not marked external"), "\(refused.stderr)")
        // The guarded order asks who is ordering first, waits through a relaunch, and goes once someone signed in.
        let waiting = try WayfinderCLI.run(["open", Self.restaurant, "tt://order?waitress=Betty", "tt://order/send?items=pizza", "--state", state])
        #expect(waiting.stdout.hasSuffix("modal 2: tt://signin\nvisible: tt://signin\n"), "\(waiting.stdout)")
        #expect(waiting.stderr == "pending: tt://order/send?items=pizza opens once its guard lets it through\n")
        let sent = try WayfinderCLI.run(["open", Self.restaurant, "tt://signin/as/" + Self.contact("p1"), "--state", state])
        #expect(sent.status == 0 && sent.stderr.isEmpty, "\(sent.stderr)")
        #expect(!sent.stdout.contains("modal"), "the order went and its flow closed: \(sent.stdout)")
        // Next: a person takes the place of the one on screen (replace).
        let paged = try WayfinderCLI.run(["open", Self.restaurant, "tt://contacts", "tt://contact/" + Self.contact("p1"), "tt://contacts/next/" + Self.contact("p3")])
        #expect(paged.stdout.contains("  *tab 6 (Contacts): tt://contacts > \(alice)\n"), "\(paged.stdout)")
        // Start over: every modal closed, the tab popped to its menu, a fresh order (clear_all).
        let over = try WayfinderCLI.run(["open", Self.restaurant, "tt://food/porridge", "tt://order?waitress=Betty", "tt://food/pizza", "tt://order/startover?waitress=Betty"])
        #expect(over.stdout.contains("  *tab 1 (Breakfast): tt://menu/1\n") && over.stdout.hasSuffix("modal 1: tt://order?waitress=Betty\nvisible: tt://order?waitress=Betty\n"),
                "\(over.stdout)")
    }

    @Test func aLinkLandsInTheTabHoldingItsParentElseInTheSelectedOne() throws {
        let parented = try WayfinderCLI.run(["open", Self.restaurant, "tt://food/porridge", "--link", "tt://about/story"])
        #expect(parented.status == 0, "\(parented.stderr)")
        #expect(parented.stdout.contains("   tab 1 (Breakfast): tt://menu/1 > tt://food/porridge\n") && parented.stdout.contains("  *tab 5 (About): tt://menu/5 > tt://about/story\n"),
                "\(parented.stdout)")
        let selected = try WayfinderCLI.run(["open", Self.restaurant, "tt://menu/2", "--link", "tt://food/pizza"])
        #expect(selected.stdout.contains("  *tab 2 (Lunch): tt://menu/2 > tt://food/pizza\n"), "\(selected.stdout)")
        let (screens, result) = try RunAndOpenTests.screens(["t 3", "l tt://about/story", "q"], app: Self.restaurant,
                                                             options: ["--no-state", "--link", "tt://food/pizza"])
        #expect(result.status == 0)
        #expect(screens[0].contains("Stack:   Breakfast > Pizza\n"), "the link at launch, in the selected tab:\n\(screens[0])")
        #expect(screens[2].contains("Stack:   About > Our Story\n"), "\(screens[2])")
    }

    @Test func aMalformedLinkIsRefusedWithItsReasonAndNothingChanges() throws {
        for link in ["tt://page/%zz", "not a url", "", "tt://page/a\u{1}b"] {
            let opened = try WayfinderCLI.run(["open", Self.desk, "tt://page/a", "--link", link, "--state", state])
            #expect(opened.status == 1)
            #expect(opened.stderr.hasPrefix("wayfinder: cannot open '"), "\(opened.stderr)")
            #expect(opened.stdout == "stack: tt://home > tt://page/a\nvisible: tt://page/a\n")
            try FileManager.default.removeItem(atPath: state)
        }
        let (screens, result) = try RunAndOpenTests.screens(["q"], app: Self.desk, options: ["--no-state", "--link", "tt://page/%zz"])
        #expect(result.status == 0)
        #expect(screens[0].contains("! cannot open 'tt://page/%zz': invalid percent escape"), "\(screens[0])")
        #expect(screens[0].contains("Stack:   tt://home\n"), "\(screens[0])")
    }

    /// A saved state of the desk, with `pending` as its waiting open.
    func saveState(pending: String) throws {
        try (#"{"format":"wayfinder.navigation","version":1,"app":"desk","app_version":1,"saved_at":""# + ISO8601DateFormatter().string(from: Date())
            + #"","mode":"all","root":{"kind":"stack","entries":[{"url":"tt://home"},{"url":"tt://page/a"}]},"modals":[],"pending":"# + pending + "}")
            .write(toFile: state, atomically: true, encoding: .utf8)
    }

    @Test func aStateWhosePendingLinkIsDamagedIsSetAsideAndTheAppStartsFresh() throws {
        try saveState(pending: #"{"url":5,"link":true,"since":"2026-01-01T00:00:00Z"}"#)
        let damaged = try String(contentsOfFile: state, encoding: .utf8)
        let result = try WayfinderCLI.run(["open", Self.desk, "--state", state])
        #expect(result.status == 0)
        #expect(result.stdout == "stack: tt://home\nvisible: tt://home\n")
        #expect(result.stderr.hasPrefix("warning: the saved navigation state could not be read (pending.url: a string expected, found a number); it was moved to \(state).corrupt-"),
                "\(result.stderr)")
        let aside = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasPrefix("desk.json.corrupt-") })
        #expect(try String(contentsOfFile: directory.subpath(aside), encoding: .utf8) == damaged)
    }

    @Test func aPendingLinkThatExpiredOrCannotOpenNowIsDroppedWithAWarning() throws {
        let cases = [
            (#"{"url":"tt://order/4","link":true,"since":"2020-01-01T00:00:00Z"}"#, "dropped the pending 'tt://order/4': it waited longer than 3600 s"),
            (#"{"url":"tt://settings","link":true,"since":"\#(ISO8601DateFormatter().string(from: Date()))"}"#,
             "dropped the pending 'tt://settings': cannot open 'tt://settings' from outside the app: its route 'tt://settings' is not marked external"),
            (#"{"url":"tt://broken","since":"\#(ISO8601DateFormatter().string(from: Date()))"}"#, "dropped the pending 'tt://broken': "),
        ]
        for (pending, warning) in cases {
            try saveState(pending: pending)
            let result = try WayfinderCLI.run(["open", Self.desk, "--state", state])
            #expect(result.status == 0)
            #expect(result.stderr.hasPrefix("warning: " + warning), "\(result.stderr)")
            #expect(result.stdout == "stack: tt://home (not loaded) > tt://page/a\nvisible: tt://page/a\n", "the state itself is restored")
            #expect(!(try String(contentsOfFile: state, encoding: .utf8)).contains(#""pending""#))
        }
    }

    @Test func aGuardStopsAnOpenFromInsideTooAndOneThatMisbehavesFailsItWithItsLine() throws {
        let stopped = try WayfinderCLI.run(["open", Self.desk, "tt://order/7", "--state", state])
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(stopped.stderr == "pending: tt://order/7 opens once its guard lets it through\n")
        let signedIn = try WayfinderCLI.run(["open", Self.desk, "tt://signin/as/ann", "--state", state])
        #expect(signedIn.stdout.hasSuffix("visible: tt://order/7\n"), "\(signedIn.stdout)")
        let cases = [
            ("tt://broken", #"^wayfinder: cannot open 'tt://broken': app\.lua:\d+: the guard broke\n$"#),
            ("tt://chatty", #"^wayfinder: cannot open 'tt://chatty': the guard of 'tt://chatty' \(app\.lua:\d+\) returned a string; it must return true, or false and a URL to open instead\n$"#),
            ("tt://ping", #"^wayfinder: redirect loop cut after 8 hops: tt://ping -> tt://pong -> tt://ping"#),
            ("tt://dizzy", #"^wayfinder: cannot open 'tt://dizzy': app\.lua:\d+: time budget of 100 ms exceeded\n$"#),
        ]
        for (url, reason) in cases {
            let result = try WayfinderCLI.run(["open", Self.desk, url, "--time-limit", "100"])
            #expect(result.status == 1)
            #expect(result.stderr.range(of: reason, options: .regularExpression) != nil, "\(result.stderr)")
            #expect(result.stdout == "stack: tt://home\nvisible: tt://home\n")
        }
    }

    @Test func openGivesEachURLThePresentationAsked() throws {
        let result = try WayfinderCLI.run(["open", Self.desk, "tt://page/a", "tt://page/b", "--presentation", "replace", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == #"{"root":{"kind":"stack","entries":[{"url":"tt://page/b","loaded":true}]},"modals":[],"visible":"tt://page/b"}"# + "\n")
        let wrong = try WayfinderCLI.run(["open", Self.desk, "tt://page/a", "--presentation", "sideways"])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("push"))
    }
}
