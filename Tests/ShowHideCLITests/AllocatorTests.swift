import CAllocator
import XCTest

final class AllocatorTests: XCTestCase {
    /// `showhide`'s entry tells the allocator to keep freed memory; a value glibc refused would change
    /// nothing, silently.
    func testTheAllocatorTakesTheSettingsThatKeepFreedMemory() {
        XCTAssertEqual(sh_allocator_keep_freed_memory(), 1)
    }
}
