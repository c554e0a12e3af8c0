// Responses as the routes make them: an HTML page in the layout, a short message page (for the
// access guard, which answers before any vault is read), and a fragment for search as you type.
import Hummingbird

enum Page {
    static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// A page of the layout: the vault's name in the bar, the search box holding `query`, the
    /// shares' line when there are shares, and with a form token (`form`) the Today button.
    static func layout(_ status: HTTPResponse.Status = .ok, title: String, vault: String, query: String = "", form: String?,
                       shares: String? = nil, content: String) -> Response {
        var values: [String: Any] = ["title": title, "vault": vault, "query": query, "content": content]
        values["form"] = form  // (absent, not empty: Mustache takes an empty string as true)
        values["shares"] = shares
        return html(Templates.render("layout", values), status: status)
    }

    /// A page saying one thing, without the layout.
    static func plain(_ status: HTTPResponse.Status, _ message: String) -> Response {
        html(Templates.render("message", ["heading": status.reasonPhrase, "message": message]), status: status)
    }
}
