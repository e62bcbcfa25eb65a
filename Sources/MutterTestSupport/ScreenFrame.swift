/// One frame of mutter's screen cast: the monitor's physical pixels, 4 bytes each (blue, green, red, unused).
public struct ScreenFrame: Sendable {
    public let width: Int
    public let height: Int
    public let bgrx: [UInt8]

    public init(width: Int, height: Int, bgrx: [UInt8]) {
        precondition(bgrx.count == width * height * 4, "a frame has 4 bytes a pixel")
        (self.width, self.height, self.bgrx) = (width, height, bgrx)
    }

    /// The pixel at (x, y) as red, green, blue.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let index = (y * width + x) * 4
        return (bgrx[index + 2], bgrx[index + 1], bgrx[index])
    }

    public func isWhite(x: Int, y: Int) -> Bool {
        let (red, green, blue) = pixel(x: x, y: y)
        return red == 255 && green == 255 && blue == 255
    }

    /// The rectangle of the one white area at least `minimumWidth` pixels wide in this frame (a canvas: mutter's
    /// own background is dark blue, and libdecor's title bar is not white): its top is the first row with a
    /// run of white that long, its left where that run starts, its width the run's length, and its height the
    /// number of rows below in which the same run is white at both ends. Nil when there is none.
    public func whiteArea(minimumWidth: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        for y in 0..<height {
            var x = 0
            while x < width {
                guard isWhite(x: x, y: y) else {
                    x += 1
                    continue
                }
                var end = x
                while end < width, isWhite(x: end, y: y) { end += 1 }
                if end - x >= minimumWidth {
                    var bottom = y
                    while bottom < height, isWhite(x: x, y: bottom), isWhite(x: end - 1, y: bottom) { bottom += 1 }
                    return (x, y, end - x, bottom - y)
                }
                x = end
            }
        }
        return nil
    }
}
