import CX11
import Foundation
import XorgTestSupport

/// Pixels of a rectangle of the root window, read with XGetImage over its own connection.
/// With no window manager and no compositor the root window's image is what is on screen.
struct Screenshot: Sendable {
    struct RGB: Equatable, Sendable, CustomStringConvertible {
        let r: UInt8
        let g: UInt8
        let b: UInt8

        var isBlackish: Bool { max(r, g, b) < 64 }
        var isWhitish: Bool { min(r, g, b) > 192 }
        var description: String { "rgb(\(r), \(g), \(b))" }
    }

    struct CaptureError: Error, CustomStringConvertible {
        let description: String
    }

    /// Root coordinates of the top-left pixel.
    let originX: Int
    let originY: Int
    let width: Int
    let height: Int
    /// Row-major, `width * height`.
    let pixels: [RGB]

    /// Captures the rectangle (root coordinates; nil size: to the screen's edge) of `display`.
    static func capture(
        display: String, x: Int = 0, y: Int = 0, width: Int? = nil, height: Int? = nil
    ) throws -> Screenshot {
        guard let connection = TestDisplayConnection.open(display) else {
            throw CaptureError(description: "cannot open display \(display)")
        }
        defer { XCloseDisplay(connection) }
        let screen = XDefaultScreen(connection)
        let root = XRootWindow(connection, screen)
        let width = width ?? Int(XDisplayWidth(connection, screen)) - x
        let height = height ?? Int(XDisplayHeight(connection, screen)) - y
        XSync(connection, 0)
        guard
            let image = XGetImage(
                connection, root, Int32(x), Int32(y), UInt32(width), UInt32(height), ~0, ZPixmap)
        else {
            throw CaptureError(description: "XGetImage failed for \(width)x\(height)+\(x)+\(y)")
        }
        // XGetPixel / XDestroyImage are macros over the image's function table.
        defer { _ = image.pointee.f.destroy_image(image) }
        let masks = (image.pointee.red_mask, image.pointee.green_mask, image.pointee.blue_mask)
        func channel(_ pixel: UInt, _ mask: UInt) -> UInt8 {
            guard mask != 0 else { return 0 }
            let shift = mask.trailingZeroBitCount
            let maximum = mask >> shift
            return UInt8(((pixel & mask) >> shift) * 255 / maximum)
        }
        var pixels: [RGB] = []
        pixels.reserveCapacity(width * height)
        let getPixel = image.pointee.f.get_pixel!
        for row in 0..<height {
            for column in 0..<width {
                let pixel = getPixel(image, Int32(column), Int32(row))
                pixels.append(RGB(r: channel(pixel, masks.0), g: channel(pixel, masks.1), b: channel(pixel, masks.2)))
            }
        }
        return Screenshot(originX: x, originY: y, width: width, height: height, pixels: pixels)
    }

    /// The pixel at ROOT coordinates (x, y).
    func pixel(x: Int, y: Int) -> RGB {
        let column = x - originX
        let row = y - originY
        precondition(column >= 0 && column < width && row >= 0 && row < height, "(\(x), \(y)) outside the capture")
        return pixels[row * width + column]
    }

    /// Writes a binary PPM (P6) and returns its URL.
    @discardableResult
    func writePPM(to url: URL) throws -> URL {
        var data = Data("P6\n\(width) \(height)\n255\n".utf8)
        data.reserveCapacity(data.count + pixels.count * 3)
        for pixel in pixels { data.append(contentsOf: [pixel.r, pixel.g, pixel.b]) }
        try data.write(to: url)
        return url
    }

    /// Writes the capture for a human to look at: PNG via ImageMagick if `convert` works, else
    /// PPM. Returns the file written.
    @discardableResult
    func save(named name: String, in directory: URL = FileManager.default.temporaryDirectory) throws -> URL {
        let ppm = try writePPM(to: directory.appendingPathComponent("\(name).ppm"))
        let png = directory.appendingPathComponent("\(name).png")
        let convert = Process()
        convert.executableURL = URL(fileURLWithPath: "/usr/bin/convert")
        convert.arguments = [ppm.path, png.path]
        convert.standardOutput = FileHandle.nullDevice
        convert.standardError = FileHandle.nullDevice
        if (try? convert.run()) != nil {
            convert.waitUntilExit()
            if convert.terminationStatus == 0 {
                try? FileManager.default.removeItem(at: ppm)
                return png
            }
        }
        return ppm
    }
}
