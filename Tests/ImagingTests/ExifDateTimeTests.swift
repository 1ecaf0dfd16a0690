import Imaging
import XCTest

final class ExifDateTimeTests: XCTestCase {
    func testParsesTheEXIFForm() throws {
        let date = try XCTUnwrap(ExifDateTime(exif: "2008:05:30 15:56:01"))
        XCTAssertEqual(date, ExifDateTime(year: 2008, month: 5, day: 30, hour: 15, minute: 56, second: 1))
        XCTAssertEqual(date.iso8601, "2008-05-30T15:56:01")
        XCTAssertEqual(date.dateString, "2008-05-30")
    }

    func testAddsSubsecondsAndOffsetAsWritten() throws {
        let date = try XCTUnwrap(ExifDateTime(exif: "2015:04:10 20:12:23", subseconds: "016", offset: "-05:30"))
        XCTAssertEqual(date.iso8601, "2015-04-10T20:12:23.016-05:30")
    }

    func testDropsInvalidSubsecondsAndOffsets() throws {
        let date = try XCTUnwrap(ExifDateTime(exif: "2015:04:10 20:12:23", subseconds: "1a", offset: "+25:00"))
        XCTAssertNil(date.subseconds)
        XCTAssertNil(date.offset)
        XCTAssertNil(try XCTUnwrap(ExifDateTime(exif: "2015:04:10 20:12:23", subseconds: " ", offset: "0200")).offset)
    }

    func testReadsAnOffsetOrZAppendedToTheDate() {
        XCTAssertEqual(ExifDateTime(exif: "2013:07:05 03:18:27Z")?.iso8601, "2013-07-05T03:18:27Z")
        XCTAssertEqual(ExifDateTime(exif: "2013:07:05 03:18:27+09:00")?.offset, "+09:00")
        XCTAssertNil(ExifDateTime(exif: "2013:07:05 03:18:27 junk")?.offset)
    }

    func testAcceptsDashesAndAT() throws {
        XCTAssertEqual(ExifDateTime(exif: "2001-02-03T04:05:06")?.iso8601, "2001-02-03T04:05:06")
    }

    func testRefusesBlanksZerosAndGarbage() {
        for text in ["", "    :  :     :  :  ", "0000:00:00 00:00:00", "2008:13:30 15:56:01", "2008:05:30 25:56:01",
                     "2008/05/30 15:56:01", "yesterday at noon!!", "2008:05:3x 15:56:01"] {
            XCTAssertNil(ExifDateTime(exif: text), text)
        }
    }

    func testPadsSmallYears() {
        XCTAssertEqual(ExifDateTime(year: 800, month: 1, day: 2, hour: 3, minute: 4, second: 5).iso8601, "0800-01-02T03:04:05")
    }

    func testDaysAMonthDoesNotHaveAreNoDate() {
        XCTAssertNil(ExifDateTime(exif: "0000:00:00 00:00:00"))
        XCTAssertNil(ExifDateTime(exif: "2003:02:29 10:00:00"))
        XCTAssertNotNil(ExifDateTime(exif: "2004:02:29 10:00:00"), "a leap year")
        XCTAssertNil(ExifDateTime(exif: "1900:02:29 10:00:00"), "not a leap year: divisible by 100")
        XCTAssertNotNil(ExifDateTime(exif: "2000:02:29 10:00:00"), "a leap year: divisible by 400")
        XCTAssertNil(ExifDateTime(exif: "2021:04:31 10:00:00"))
        XCTAssertNotNil(ExifDateTime(exif: "2021:12:31 23:59:59"))
    }

    func testOffsetsUpToFourteenHoursAheadAreKept() throws {
        // Kiribati's Line Islands keep UTC+14:00.
        let date = try XCTUnwrap(ExifDateTime(exif: "2015:04:10 20:12:23", offset: "+14:00"))
        XCTAssertEqual(date.offset, "+14:00")
        XCTAssertEqual(try XCTUnwrap(ExifDateTime(exif: "2015:04:10 20:12:23", offset: "+13:45")).offset, "+13:45")
    }
}
