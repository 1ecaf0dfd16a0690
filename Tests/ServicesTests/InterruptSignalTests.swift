import Foundation
@testable import Services
import XCTest

final class InterruptSignalTests: XCTestCase {
    /// The first Ctrl-C is caught and kept as a request to stop, not the end of the process. (The
    /// second ends the process, so it is not tried here.)
    func testCtrlCIsARequestToStop() {
        let interruption = InterruptSignal()
        XCTAssertFalse(interruption.isRequested)
        // To the process, not this thread (which may block it): any thread that does not block it takes it.
        kill(getpid(), SIGINT)
        // The signal is handled on a dispatch queue: wait for it to be seen, not for a set time.
        let seen = XCTNSPredicateExpectation(predicate: NSPredicate { _, _ in interruption.isRequested }, object: nil)
        wait(for: [seen], timeout: 30)
        XCTAssertTrue(interruption.isRequested)
    }

    /// `kill` and `timeout` send SIGTERM, a closed terminal SIGHUP: the command stops as on Ctrl-C,
    /// keeping what it did and taking away what it started (a zip file's `.partial`).
    func testTermAndHangUpAreRequestsToStopToo() {
        for stopping in [SIGTERM, SIGHUP] {
            let interruption = InterruptSignal()
            XCTAssertFalse(interruption.isRequested)
            kill(getpid(), stopping)
            let seen = XCTNSPredicateExpectation(predicate: NSPredicate { _, _ in interruption.isRequested }, object: nil)
            wait(for: [seen], timeout: 30)
            XCTAssertTrue(interruption.isRequested, "signal \(stopping)")
            signal(stopping, SIG_DFL)  // a CI timeout's SIGTERM ends this process again
        }
    }

    /// `nohup showhide gallery import …` goes on after a logout: a signal ignored when the command
    /// starts stays ignored.
    func testASignalIgnoredAtTheStartStaysIgnored() {
        signal(SIGHUP, SIG_IGN)
        defer { signal(SIGHUP, SIG_DFL) }
        _ = InterruptSignal()
        XCTAssertTrue(InterruptSignal.isIgnored(SIGHUP), "nohup's SIGHUP left ignored")
        XCTAssertFalse(InterruptSignal.isIgnored(SIGTERM))
        signal(SIGTERM, SIG_DFL)
    }
}
