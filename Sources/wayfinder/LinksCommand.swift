import ArgumentParser
import Foundation
import Wayfinder
import WayfinderLua

/// `wayfinder links APP`: which web URLs open which routes (the app's `link_prefixes` over its
/// external routes), and the files a web site publishes so the platforms hand those URLs to the
/// app, written or checked.
struct LinksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "links",
        abstract: "List the web URLs that open the app's routes; write or check the files that prove them.",
        discussion: """
            A web URL opens a route when it is under one of the app's link_prefixes and the route \
            is marked external. --apple-app-site-association writes Apple's file (one component per \
            route), --assetlinks Android's Digital Asset Links statement list; --check FILE says \
            whether a published apple-app-site-association file holds exactly the routes the map \
            opens from the web (exit 1 when it does not, 2 when it is not such a file).

            Example:
              wayfinder links lua/examples/restaurant --apple-app-site-association --app-id ABCDE12345.com.example.app
            """
    )

    @Argument(help: "The app: a directory with app.lua, or a .lua file.")
    var app: String

    @Flag(name: .customLong("apple-app-site-association"), help: "Print the apple-app-site-association file (needs --app-id).")
    var appleAppSiteAssociation = false

    @Option(name: .customLong("app-id"), help: "The iOS app: TEAMID.bundle.id.")
    var appID: String?

    @Flag(help: "Print the assetlinks.json file (needs --package and --sha256).")
    var assetlinks = false

    @Option(help: "The Android app's package name.")
    var package: String?

    @Option(help: "The SHA-256 fingerprint of the Android app's signing certificate (AA:BB:...).")
    var sha256: String?

    @Option(help: "Compare the routes with the published apple-app-site-association FILE.")
    var check: String?

    @Option(help: "The web site (https://host) whose links to write or check, when the prefixes name more than one.")
    var site: String?

    @OptionGroup var host: HostOptions

    func validate() throws {
        let chosen = [appleAppSiteAssociation, assetlinks, check != nil].filter { $0 }.count
        guard chosen <= 1 else { throw ValidationError("choose one of --apple-app-site-association, --assetlinks and --check") }
        if appleAppSiteAssociation, appID == nil { throw ValidationError("--apple-app-site-association needs --app-id TEAMID.bundle.id") }
        if let appID, appID.split(separator: ".").count < 2 || appID.contains(where: \.isWhitespace) {
            throw ValidationError("--app-id must be TEAMID.bundle.id, got '\(appID)'")
        }
        if assetlinks {
            guard let package, !package.isEmpty, let sha256 else { throw ValidationError("--assetlinks needs --package NAME and --sha256 FINGERPRINT") }
            guard WebLinks.isFingerprint(sha256) else {
                throw ValidationError("--sha256 must be 32 bytes in upper-case hex, colon-separated (AB:CD:...), got '\(sha256)'")
            }
        }
    }

    func run() throws {
        let appHost = try host.load(app)
        let routes = try appHost.routeReports().map { (pattern: $0.pattern.text, external: $0.options.external) }
        let links = WebLinks(routes: routes, prefixes: appHost.config.linkPrefixes)
        if assetlinks, let package, let sha256 {
            return Terminal.print(try JSON.encode(WebLinks.assetLinks(package: package, fingerprint: sha256)))
        }
        if appleAppSiteAssociation, let appID {
            return Terminal.print(try JSON.encode(links.appleAppSiteAssociation(appID: appID, site: try chosenSite(links))))
        }
        if let check { return try compare(links, with: check) }
        guard !links.links.isEmpty else {
            Terminal.print("no web URL opens a route (link_prefixes: \(appHost.config.linkPrefixes.pairs.count); a route opens from the web when it is marked external)")
            return
        }
        Terminal.print(TextTable.render(header: ["WEB URL", "ROUTE"], rows: links.links.map { [$0.web, $0.route] }))
    }

    /// The site to write or check: the one asked for, else the only one there is.
    private func chosenSite(_ links: WebLinks) throws -> String {
        if let site {
            let wanted = site.lowercased().hasSuffix("/") ? String(site.lowercased().dropLast()) : site.lowercased()
            guard links.sites.contains(wanted) else {
                Terminal.error("no route opens from '\(site)' (sites: \(links.sites.joined(separator: ", ")))")
                throw ExitCode(2)
            }
            return wanted
        }
        guard links.sites.count == 1, let only = links.sites.first else {
            Terminal.error(links.sites.isEmpty
                ? "no web URL opens a route: give wf.app link_prefixes and mark routes external"
                : "the links are on \(links.sites.count) sites (\(links.sites.joined(separator: ", "))): choose one with --site")
            throw ExitCode(2)
        }
        return only
    }

    private func compare(_ links: WebLinks, with path: String) throws {
        let file: Value
        do {
            file = try JSON.decode(try String(contentsOfFile: path, encoding: .utf8))
        } catch {
            Terminal.error("cannot read '\(path)' as JSON: \(error)")
            throw ExitCode(2)
        }
        let site = try chosenSite(links)
        let differences: (missing: [String], extra: [String])
        do { differences = try links.differences(fromPublished: file, appID: appID, site: site) } catch {
            Terminal.error("'\(path)': \(error)")
            throw ExitCode(2)
        }
        let count = links.links.filter { $0.site == site }.count
        if differences.missing.isEmpty && differences.extra.isEmpty {
            Terminal.print("\(path) covers the \(count) routes that open from \(site)")
            return
        }
        Terminal.print("\(path) differs from the routes that open from \(site) (- in the file only, + in the map only):")
        for component in differences.extra { Terminal.print("- " + component) }
        for component in differences.missing { Terminal.print("+ " + component) }
        throw ExitCode(1)
    }
}
