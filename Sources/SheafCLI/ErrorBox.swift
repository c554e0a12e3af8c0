import SheafCore

/// Errors the CLI itself raises, as SheafErrors.
enum SheafErrorBox {
    static func editor(_ editor: String, _ cause: String) -> SheafError {
        SheafError("the editor failed", path: editor, cause: cause, hint: "set $VISUAL or $EDITOR to your editor")
    }
}
