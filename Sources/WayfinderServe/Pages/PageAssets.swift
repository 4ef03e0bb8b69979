/// What the server sends the browser, all of it compiled into the binary: the simulator page
/// and its style and scripts, plain HTML, CSS and JavaScript (nothing fetched from elsewhere,
/// nothing read from disk at run time).
enum PageAssets {
    struct Asset {
        let contentType: String
        let body: String
    }

    /// The page, its assets' addresses carrying the token (hex digits: nothing to escape).
    static func page(token: AccessToken) -> String {
        SimulatorPage.html.replacingOccurrences(of: "{{token}}", with: token.text)
    }

    static func asset(at path: String) -> Asset? {
        switch path {
        case "/assets/simulator.css": return Asset(contentType: "text/css; charset=utf-8", body: SimulatorStyle.css)
        case "/assets/phone.js": return Asset(contentType: "text/javascript; charset=utf-8", body: PhoneScript.javascript)
        case "/assets/devtools.js": return Asset(contentType: "text/javascript; charset=utf-8", body: DevtoolsScript.javascript)
        case "/assets/flow-graph.js": return Asset(contentType: "text/javascript; charset=utf-8", body: FlowGraphScript.javascript)
        case "/assets/connection.js": return Asset(contentType: "text/javascript; charset=utf-8", body: ConnectionScript.javascript)
        default: return nil
        }
    }
}
