@testable import Codecs
import Imaging
import XCTest

/// A library loaded when its files are first met: where it cannot be (`missing`, a name no library
/// has), loading it says which files cannot be read and what to install, a decoder (of full size) given
/// that failure fails `file` with that sentence (beginning `saying`, as written by the caller, so that a
/// library of the wrong format shows) and an empty file as empty, and the library itself loads.
func assertWithoutItsLibraryAFileSaysWhatToInstall<Library: SharedLibrary>(
    _ library: Library.Type, missing: String, saying: String, file: Data, decoder: (@escaping @Sendable () -> Result<Library, CodecError>) -> (Data) throws -> DecodedImage,
    sourceFile: StaticString = #filePath, line: UInt = #line
) {
    guard case let .failure(error) = Library.load(soname: missing) else { return XCTFail("\(missing) loaded", file: sourceFile, line: line) }
    guard case let .libraryMissing(format, name, package, reason) = error else { return XCTFail("\(error)", file: sourceFile, line: line) }
    XCTAssertEqual(format, Library.format, file: sourceFile, line: line)
    XCTAssertEqual("cannot read \(format.displayName) files", saying, file: sourceFile, line: line)
    XCTAssertEqual(name, missing, file: sourceFile, line: line)
    XCTAssertEqual(package, Library.package, file: sourceFile, line: line)
    XCTAssertTrue(reason.contains(missing), reason, file: sourceFile, line: line)
    let decode = decoder { Library.load(soname: missing) }
    XCTAssertThrowsError(try decode(file), file: sourceFile, line: line) { thrown in
        let message = (thrown as? CodecError)?.errorDescription ?? "\(thrown)"
        XCTAssertTrue(message.hasPrefix("\(saying): \(missing) cannot be loaded ("), message, file: sourceFile, line: line)
        XCTAssertTrue(message.hasSuffix("); install \(Library.package)"), message, file: sourceFile, line: line)
    }
    XCTAssertThrowsError(try decode(Data()), file: sourceFile, line: line) {
        XCTAssertEqual($0 as? CodecError, .empty, file: sourceFile, line: line)
    }
    guard case .success = Library.load(soname: Library.soname) else { return XCTFail("\(Library.soname) itself loads", file: sourceFile, line: line) }
}
