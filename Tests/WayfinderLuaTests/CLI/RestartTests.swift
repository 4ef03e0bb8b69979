import Foundation
import Testing
import Wayfinder

/// Quitting and coming back: `wayfinder run` and `wayfinder open` with a state file.
@Suite("wayfinder run and open across restarts")
struct RestartTests {
    let directory: TemporaryDirectory
    let statePath: String

    init() throws {
        directory = try TemporaryDirectory()
        statePath = directory.subpath("restaurant.json")
    }

    @Test func runComesBackWhereItLeftOff() throws {
        // Bacon & Eggs, then Our Story in the About tab, back to Breakfast, an order with a pizza.
        let (before, first) = try RunAndOpenTests.screens(["2", "t 5", "1", "t 1", "b", "8", "1", "q"], options: ["--state", statePath])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(before[7].contains("Modal 1: Place Your Order") && before[7].contains("Your order: Pizza."))

        let (after, second) = try RunAndOpenTests.screens(["d", "t 5", "b", "q"], options: ["--state", statePath])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(after[0].contains("Modal 1: Place Your Order"), "\(after[0])")
        #expect(after[0].contains("Your order: Pizza."), "the order's persist/restore hooks kept the ticket:\n\(after[0])")
        #expect(after[1].contains("[1 Breakfast]") && after[1].contains("Stack:   Breakfast\n"), "\(after[1])")
        #expect(after[2].contains("[5 About]") && after[2].contains("Stack:   About > Our Story\n"),
                "the About tab comes back with its stack; the menu below is not made yet, and shows the title it was saved with:\n\(after[2])")
        #expect(after[3].contains("Stack:   About\n"))
    }

    /// The contacts list changes its order as people are viewed; its selection and scroll
    /// position come back by object ID, not by row number.
    @Test func theContactsListKeepsItsSelectionAcrossARestartThoughItsOrderChanged() throws {
        let (before, first) = try RunAndOpenTests.screens(["t 6", "3", "b", "5", "q"], options: ["--state", statePath])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(before[3].contains("Selected: Carmen Ortiz.") && before[3].contains("> Carmen Ortiz, Pastry chef"), "\(before[3])")
        #expect(before[4].contains("Showing 2-5 of 6.\n    Betty Ross, Waitress\n  > Carmen Ortiz"), "\(before[4])")

        let (after, _) = try RunAndOpenTests.screens(["2", "b", "1", "q"], options: ["--state", statePath])
        // Carmen, viewed last, now comes first; Betty, the first row in view, is third.
        #expect(after[0].contains("Selected: Carmen Ortiz.\n  Showing 3-6 of 6.\n    Betty Ross, Waitress\n    Dale Fenwick"), "\(after[0])")
        #expect(after[1].contains("Stack:   Contacts > Dale Fenwick\n"))
        #expect(after[2].contains("Selected: Dale Fenwick."), "\(after[2])")
        #expect(after[3].contains("Stack:   Contacts > Betty Ross\n"))
    }

    @Test func runUsesTheXDGStateDirectoryUnlessToldNotTo() throws {
        let home = directory.subpath("xdg")
        _ = try RunAndOpenTests.screens(["t 3", "q"], options: ["--no-state"], stateHome: home)
        #expect(!FileManager.default.fileExists(atPath: home + "/wayfinder/restaurant.json"))
        _ = try RunAndOpenTests.screens(["t 3", "q"], stateHome: home)
        #expect(FileManager.default.fileExists(atPath: home + "/wayfinder/restaurant.json"))
        let (screens, _) = try RunAndOpenTests.screens(["q"], stateHome: home)
        #expect(screens[0].contains("[3 Dinner]"), "\(screens[0])")

        let both = try WayfinderCLI.run(["run", RunAndOpenTests.restaurant, "--state", statePath, "--no-state"], input: "q\n")
        #expect(both.status == 2)
        #expect(both.stderr.contains("give --state FILE or --no-state, not both"))
    }

    @Test func openRestoresOpensAndSaves() throws {
        let first = try WayfinderCLI.run(["open", RunAndOpenTests.restaurant, "tt://food/pizza", "tt://order?waitress=Ann", "--state", statePath])
        #expect(first.status == 0, "\(first.stderr)")
        let again = try WayfinderCLI.run(["open", RunAndOpenTests.restaurant, "--state", statePath, "--json"])
        #expect(again.status == 0, "\(again.stderr)")
        let tree = try JSON.decode(again.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(tree["visible"] == "tt://order?waitress=Ann")
        #expect(tree["root"]?["tabs"]?.arrayValue?.first?["entries"] == [
            ["url": "tt://menu/1", "loaded": false], ["url": "tt://food/pizza", "loaded": false],
        ], "restored lazily: only the visible controller is made")

        let third = try WayfinderCLI.run(["open", RunAndOpenTests.restaurant, "tt://dismiss", "tt://about/story", "--state", statePath])
        #expect(third.lines == [
            "tabs (6, tab 5 selected)",
            "   tab 1 (Breakfast): tt://menu/1 (not loaded) > tt://food/pizza",
            "   tab 2 (Lunch): tt://menu/2 (not loaded)",
            "   tab 3 (Dinner): tt://menu/3 (not loaded)",
            "   tab 4 (Dessert): tt://menu/4 (not loaded)",
            "  *tab 5 (About): tt://menu/5 > tt://about/story",
            "   tab 6 (Contacts): tt://contacts (not loaded)",
            "visible: tt://about/story",
        ])
    }

    @Test func anUnreadableStateFileIsMovedAsideAndTheAppStartsFresh() throws {
        try directory.write("restaurant.json", #"{"format":"wayfinder.navigation","version":7}"#)
        let result = try WayfinderCLI.run(["open", RunAndOpenTests.restaurant, "--state", statePath])
        #expect(result.status == 0)
        #expect(result.stderr.contains("the saved navigation state could not be read (unknown state version 7"))
        #expect(result.stderr.contains("it was moved to \(statePath).corrupt-"))
        #expect(result.lines.last == "visible: tt://menu/1")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.contains("restaurant.json"), "a fresh state was saved")
        #expect(files.contains { $0.hasPrefix("restaurant.json.corrupt-") })
    }
}
