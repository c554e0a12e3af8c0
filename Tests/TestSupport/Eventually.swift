// Waiting on a condition with a deadline, instead of sleeping a fixed time and hoping.
import Foundation

/// Checks `condition` every 50 ms until it holds (true) or `timeout` seconds have passed (false).
public func eventually(timeout: Double, _ condition: () -> Bool) -> Bool {
    let end = Date().addingTimeInterval(timeout)
    while true {
        if condition() { return true }
        if Date() > end { return false }
        usleep(50_000)
    }
}
