import Foundation
import Testing
import WayfinderLua

/// The project's Lua specs (lua/spec), one Swift test per file, so a failing spec fails
/// `swift test` with its messages.
@Suite("lua/spec")
struct ProjectSpecTests {
    static let specFiles: [String] = {
        let directory = WayfinderCLI.repositoryRoot.appendingPathComponent("lua/spec").path
        return (try? SpecRunner.discover([directory])) ?? []
    }()

    @Test func thereAreSpecs() {
        #expect(Self.specFiles.count >= 3)
    }

    @Test(arguments: specFiles)
    func specFilePasses(_ file: String) {
        let results = SpecRunner().run(file)
        #expect(!results.isEmpty, "\(file) ran no test")
        for result in results where result.isFailure {
            Issue.record("\(result.name): \(result.message ?? "")\n\(result.traceback ?? "")")
        }
    }
}
