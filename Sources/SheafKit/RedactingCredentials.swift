// A token or password in a remote's URL must never reach a terminal or a log: Kit's callers
// redact every text that may carry one (an offline notice's cause) with this, SheafGit's rule.
import SheafGit

/// Text for people with the user-info (a token or a password) of every URL in it removed.
public func redactingCredentials(_ text: String) -> String { RemoteURL.redacting(text) }
