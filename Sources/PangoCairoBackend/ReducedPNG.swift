internal import CPNG
internal import CPangoCairo
import Foundation

/// A PNG read a row at a time by libpng and made smaller as it is read: each pixel of the
/// result is the average of the PNG pixels it covers (a box filter, averaged with
/// premultiplied alpha). Only libpng's own row buffers, one row of sums and the result are
/// alive, so a 100-million-pixel PNG placed small costs the memory of what it prints, not of
/// its pixels. Interlaced PNGs (Adam7), whose rows come in seven passes, are not read here.
enum ReducedPNG {
    /// What gdk-pixbuf's PNG loader says of the PNG `bytes` (``ImageDecoder/Info``), read by
    /// libpng up to the pixels without making a pixbuf: its size, its resolution from `pHYs`
    /// when given per metre (rounded to whole dots per inch, as the loader does), upright (the
    /// loader reads no orientation from a PNG); nil when it is no PNG libpng reads, damaged
    /// before its pixels, or interlaced.
    static func info(_ bytes: Data) -> ImageDecoder.Info? {
        var found: ImageDecoder.Info?
        let reading = Reading(
            header: { header in
                func dpi(_ perMetre: UInt32) -> Double? {
                    let whole = (Double(perMetre) * 25.4 / 1000).rounded()
                    return header.hasResolution != 0 && whole > 1 && whole < 100_000 ? whole : nil
                }
                found = ImageDecoder.Info(
                    pixelWidth: Int(header.width), pixelHeight: Int(header.height), dpiX: dpi(header.pixelsPerMetreX),
                    dpiY: dpi(header.pixelsPerMetreY), orientation: 1, format: "png")
                return false
            },
            row: { _ in })
        // An interlaced PNG stops before the header callback: `found` stays nil.
        _ = reading.read(bytes)
        return found
    }

    /// The PNG `bytes` as a Cairo image surface of `width` × `height` pixels (at most the
    /// PNG's own), ARGB32 when the PNG has alpha (an alpha channel or `tRNS`), else RGB24;
    /// nil when the PNG is interlaced, damaged, or cut short (whatever libpng refuses).
    static func surface(_ bytes: Data, width: Int, height: Int) -> (surface: OpaquePointer, width: Int, height: Int)? {
        guard width > 0, height > 0 else { return nil }
        var reducer: Reducer?
        let reading = Reading(
            header: { header in
                guard width <= Int(header.width), height <= Int(header.height) else { return false }
                reducer = Reducer(
                    pngWidth: Int(header.width), pngHeight: Int(header.height), width: width, height: height,
                    alpha: header.hasAlpha != 0)
                return reducer != nil
            },
            row: { reducer?.sum($0) })
        let result = reading.read(bytes)
        guard let reducer else { return nil }
        guard result == TypesetPNGRead else {
            cairo_surface_destroy(reducer.surface)
            return nil
        }
        cairo_surface_mark_dirty(reducer.surface)
        return (reducer.surface, width, height)
    }

    /// One reading of a PNG by libpng (`typeset_png_read`, in CPNG's shim, which holds
    /// libpng's setjmp so that its errors never cross a Swift frame): what is told of the
    /// header, and what takes each row.
    final class Reading {
        /// Told what the PNG says before its pixels; answers whether its rows are read.
        let header: (TypesetPNGHeader) -> Bool
        /// Takes each row, top to bottom: 8-bit red, green, blue and alpha, not premultiplied.
        let row: (UnsafePointer<UInt8>) -> Void

        /// A reading that tells `header` of the header and hands each row to `row`.
        init(header: @escaping (TypesetPNGHeader) -> Bool, row: @escaping (UnsafePointer<UInt8>) -> Void) {
            self.header = header
            self.row = row
        }

        /// Reads the PNG `bytes`: whether every row was read, the reading stopped after the
        /// header, or libpng failed (no PNG, damaged, cut short).
        func read(_ bytes: Data) -> TypesetPNGResult {
            let context = Unmanaged.passUnretained(self).toOpaque()
            return withExtendedLifetime(self) {
                bytes.withUnsafeBytes { all in
                    typeset_png_read(
                        all.baseAddress?.assumingMemoryBound(to: UInt8.self), all.count, context,
                        { context, header in
                            let reading = Unmanaged<Reading>.fromOpaque(context!).takeUnretainedValue()
                            return reading.header(header!.pointee) ? 1 : 0
                        },
                        { context, row in
                            Unmanaged<Reading>.fromOpaque(context!).takeUnretainedValue().row(row!)
                        })
                }
            }
        }
    }

    /// Rows summed into the rows of the result as they come; its buffers are its own, freed
    /// with it, and its surface the caller's.
    final class Reducer {
        /// The PNG's pixels across and down.
        let pngWidth: Int, pngHeight: Int
        /// The result's pixels across and down.
        let width: Int, height: Int
        /// The result, a Cairo image surface.
        let surface: OpaquePointer
        /// The result's first byte.
        let target: UnsafeMutablePointer<UInt8>
        /// The result's bytes a row.
        let stride: Int
        /// The PNG row that comes next.
        var row = 0
        /// Premultiplied red, green, blue and alpha summed for each pixel of the result row
        /// being made.
        let sums: UnsafeMutableBufferPointer<UInt64>
        /// How many PNG pixels each pixel's sums add up.
        let counts: UnsafeMutableBufferPointer<UInt64>
        /// The result row the sums belong to.
        var targetRow = 0
        /// The result's column for each PNG column.
        let columns: UnsafeMutableBufferPointer<Int>

        /// Sums for a PNG of `pngWidth` × `pngHeight` pixels made `width` × `height` (no
        /// more), into a new surface, ARGB32 when `alpha`, else RGB24; nil when Cairo cannot
        /// make it.
        init?(pngWidth: Int, pngHeight: Int, width: Int, height: Int, alpha: Bool) {
            guard
                let surface = cairo_image_surface_create(
                    alpha ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24, Int32(width), Int32(height))
            else { return nil }
            guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
                let target = cairo_image_surface_get_data(surface)
            else {
                cairo_surface_destroy(surface)
                return nil
            }
            cairo_surface_flush(surface)
            self.pngWidth = pngWidth
            self.pngHeight = pngHeight
            self.width = width
            self.height = height
            self.surface = surface
            self.target = target
            stride = Int(cairo_image_surface_get_stride(surface))
            sums = .allocate(capacity: width * 4)
            sums.initialize(repeating: 0)
            counts = .allocate(capacity: width)
            counts.initialize(repeating: 0)
            columns = .allocate(capacity: pngWidth)
            for x in 0..<pngWidth { columns[x] = x * width / pngWidth }
        }

        deinit {
            sums.deallocate()
            counts.deallocate()
            columns.deallocate()
        }

        /// Adds the PNG row `pixels` (8-bit RGBA) to the sums of the result row it falls in,
        /// writing that row out when the next PNG row falls in another.
        func sum(_ pixels: UnsafePointer<UInt8>) {
            for x in 0..<pngWidth {
                let red = UInt64(pixels[x * 4])
                let green = UInt64(pixels[x * 4 + 1])
                let blue = UInt64(pixels[x * 4 + 2])
                let opacity = UInt64(pixels[x * 4 + 3])
                let column = columns[x]
                sums[column * 4] += (red * opacity + 127) / 255
                sums[column * 4 + 1] += (green * opacity + 127) / 255
                sums[column * 4 + 2] += (blue * opacity + 127) / 255
                sums[column * 4 + 3] += opacity
                counts[column] += 1
            }
            let next = (row + 1) * height / pngHeight
            if row + 1 == pngHeight || next != targetRow {
                writeRow()
                targetRow = next
            }
            row += 1
        }

        /// Writes the averages of the sums as result row `targetRow` (native-endian ARGB,
        /// premultiplied) and clears the sums.
        func writeRow() {
            let out = UnsafeMutableRawPointer(target + targetRow * stride).assumingMemoryBound(to: UInt32.self)
            for column in 0..<width {
                let count = max(1, counts[column])
                let red = UInt32((sums[column * 4] + count / 2) / count)
                let green = UInt32((sums[column * 4 + 1] + count / 2) / count)
                let blue = UInt32((sums[column * 4 + 2] + count / 2) / count)
                let opacity = UInt32((sums[column * 4 + 3] + count / 2) / count)
                out[column] = opacity << 24 | red << 16 | green << 8 | blue
            }
            sums.update(repeating: 0)
            counts.update(repeating: 0)
        }
    }
}
