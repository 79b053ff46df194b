import Foundation

// The same code in each target: only the target's default isolation differs.
final class ClockWatchTicker {
    private var timer: Timer?
    func refresh() async {
        timer = Timer.scheduledTimer(withTimeInterval: 30, repeats: true) { _ in }
    }
}
