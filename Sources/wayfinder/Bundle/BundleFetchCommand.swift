import ArgumentParser
import Foundation
import Wayfinder
import WayfinderLua
import WayfinderUpdates

/// `wayfinder bundle fetch URL --updates DIR --trust KEY...`: downloads, then installs.
struct BundleFetchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Download a bundle (https, or http on this machine) and install it as `bundle install` does.",
        discussion: """
            The download is cut off past the bundle size limit. The ETag of the last bundle \
            installed from the URL is sent as If-None-Match: an unchanged bundle is not \
            downloaded again (status 0, "not modified"). Status 1 when the download fails or \
            the bundle is refused.

            Example:
              wayfinder bundle fetch https://example.com/shop.wfb --updates updates --trust keys/signing.pub
            """
    )

    @Argument(help: "The bundle's URL.")
    var url: String

    @OptionGroup var updates: UpdateOptions

    @Option(help: "The app's navigation state file, restored in the scratch host through the bundle's migrate.")
    var state: String?

    @OptionGroup var host: HostOptions

    func validate() throws {
        if updates.updates == nil { throw ValidationError("give --updates DIR and --trust KEY") }
        guard let parsed = URL(string: url) else { throw ValidationError("'\(url)' is not a URL") }
        if let problem = BundleFetch.problem(parsed) { throw ValidationError("cannot fetch \(url): \(problem)") }
    }

    func run() throws {
        guard let target = try updates.bundleUpdates(), let parsed = URL(string: url) else { return }
        let tags = target.directory.path + "/fetched.json"
        let known = Self.etag(for: url, in: tags)
        let outcome: BundleFetch.Outcome
        do { outcome = try BundleFetch.fetch(parsed, etag: known) } catch {
            Terminal.error("cannot fetch the bundle: \(error)")
            throw ExitCode(1)
        }
        switch outcome {
        case .notModified:
            Terminal.print("not modified: the bundle at \(url) is the one fetched last")
        case .fetched(let bytes, let etag):
            try BundleInstallCommand.install(bytes, named: url, into: target, state: state, limits: host.limits)
            if let etag { Self.remember(etag, for: url, in: tags) }
        }
    }

    /// The ETag last installed from `url`, kept in the updates directory.
    static func etag(for url: String, in path: String) -> String? {
        guard let bytes = try? FileAccess.readFile(atPath: path, limit: 64 << 10, followingLinks: false),
              let document = try? JSON.decode(bytes: bytes), document["url"] == .string(url),
              case .string(let etag)? = document["etag"] else { return nil }
        return etag
    }

    static func remember(_ etag: String, for url: String, in path: String) {
        guard let text = try? JSON.encode(.map(["url": .string(url), "etag": .string(etag)])) else { return }
        do { try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            Terminal.warning("the ETag of \(url) is not kept: \(error.localizedDescription)")
        }
    }
}
