import Foundation

/// What the server sends the browser: the simulator page and its style and scripts, plain HTML,
/// CSS and JavaScript kept in Pages/ and compiled into the binary by the EmbedFiles plugin
/// (`EmbeddedPages`): nothing fetched from elsewhere, nothing read from disk at run time.
enum PageAssets {
    struct Asset {
        let contentType: String
        let body: Data
    }

    /// The page (Pages/index.html), its assets' addresses carrying the token (hex digits:
    /// nothing to escape).
    static func page(token: AccessToken) -> Data {
        let html = String(decoding: EmbeddedPages.files["index.html"] ?? [], as: UTF8.self)
        return Data(html.replacingOccurrences(of: "{{token}}", with: token.text).utf8)
    }

    /// `/assets/NAME`: the style sheet or a script of Pages/, by its file name.
    static func asset(at path: String) -> Asset? {
        guard path.hasPrefix("/assets/") else { return nil }
        let name = String(path.dropFirst("/assets/".count))
        guard let type = contentType(of: name), let bytes = EmbeddedPages.files[name] else { return nil }
        return Asset(contentType: type, body: Data(bytes))
    }

    private static func contentType(of name: String) -> String? {
        if name.hasSuffix(".css") { return "text/css; charset=utf-8" }
        if name.hasSuffix(".js") { return "text/javascript; charset=utf-8" }
        return nil
    }
}
