#ifndef TYPESET_CPNG_H
#define TYPESET_CPNG_H
// libpng 1.6: a PNG placed much smaller than its pixels is read a row at a time and made smaller
// as it is read (PangoCairoBackend's ReducedPNG), and a page drawn as a PNG is written a row at a
// time (PreviewSink). libpng reports an error by longjmp to the caller's setjmp, which must not
// cross a Swift frame: `typeset_png_read` and `typeset_png_write` below hold the setjmp and make
// every libpng call, and call back into Swift only between them.
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/// What a PNG says before its pixels: its header (`IHDR`), whether it has alpha, its `pHYs`.
typedef struct {
    /// Pixels across and down.
    uint32_t width;
    uint32_t height;
    /// Nonzero when the rows are interlaced (Adam7); such a PNG's rows are not read.
    int interlaced;
    /// Nonzero when the PNG has an alpha channel or a `tRNS` chunk.
    int hasAlpha;
    /// Nonzero when `pHYs` gives the resolution per metre, in the two fields after it.
    int hasResolution;
    /// Pixels per metre across and down (`pHYs`), when `hasResolution`.
    uint32_t pixelsPerMetreX;
    uint32_t pixelsPerMetreY;
} TypesetPNGHeader;

/// How `typeset_png_read` ended.
typedef enum {
    /// Every row was read and handed on.
    TypesetPNGRead = 0,
    /// The header callback answered 0, or the PNG is interlaced: no row was read.
    TypesetPNGStopped = 1,
    /// libpng found the bytes no PNG, damaged (a bad CRC of a critical chunk, bad zlib data),
    /// cut short, or too large (its limits: 1,000,000 pixels a side), or memory ran out.
    TypesetPNGFailed = 2,
} TypesetPNGResult;

/// Told what the PNG says before its pixels; answers nonzero to have its rows read.
typedef int (*TypesetPNGHeaderCallback)(void *context, const TypesetPNGHeader *header);
/// Handed each row, top to bottom: `width` pixels of 8-bit red, green, blue and alpha (not
/// premultiplied), valid until it returns.
typedef void (*TypesetPNGRowCallback)(void *context, const unsigned char *row);

/// The bytes libpng reads from, and how many it has read.
typedef struct {
    const unsigned char *bytes;
    size_t count;
    size_t offset;
} TypesetPNGSource;

/// libpng's read function: the next `count` bytes of the source, or an error when it has fewer.
static inline void typeset_png_read_bytes(png_structp png, png_bytep out, size_t count) {
    TypesetPNGSource *source = (TypesetPNGSource *)png_get_io_ptr(png);
    if (count > source->count - source->offset) png_error(png, "PNG cut short");
    memcpy(out, source->bytes + source->offset, count);
    source->offset += count;
}

/// libpng's error function: back to the setjmp of `typeset_png_read`, saying nothing (the caller
/// warns that the picture cannot be read). It must not return.
static inline void typeset_png_error(png_structp png, png_const_charp message) {
    (void)message;
    png_longjmp(png, 1);
}

/// libpng's warning function (an ancillary chunk's bad CRC, extra data): nothing is said.
static inline void typeset_png_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

/// Reads the PNG of `count` bytes at `bytes` with libpng: hands `onHeader` what it says before
/// its pixels and, when that answers nonzero and the PNG is not interlaced, hands `onRow` each
/// row as 8-bit RGBA (palette, grey and `tRNS` expanded, 16 bits cut to their high byte, opaque
/// alpha added: gdk-pixbuf's own transformations). `context` is passed to both.
static inline TypesetPNGResult typeset_png_read(
    const unsigned char *bytes, size_t count, void *context, TypesetPNGHeaderCallback onHeader,
    TypesetPNGRowCallback onRow) {
    TypesetPNGSource source = {bytes, count, 0};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, typeset_png_error, typeset_png_warning);
    if (png == NULL) return TypesetPNGFailed;
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        return TypesetPNGFailed;
    }
    // Set after setjmp and read after longjmp: volatile, so that it is not kept in a register.
    unsigned char *volatile row = NULL;
    if (setjmp(png_jmpbuf(png))) {
        free(row);
        png_destroy_read_struct(&png, &info, NULL);
        return TypesetPNGFailed;
    }
    png_set_read_fn(png, &source, typeset_png_read_bytes);
    png_read_info(png, info);
    TypesetPNGHeader header = {0};
    header.width = png_get_image_width(png, info);
    header.height = png_get_image_height(png, info);
    header.interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
    header.hasAlpha = (png_get_color_type(png, info) & PNG_COLOR_MASK_ALPHA) != 0 ||
                      png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    png_uint_32 resolutionX = 0;
    png_uint_32 resolutionY = 0;
    int unit = 0;
    if (png_get_pHYs(png, info, &resolutionX, &resolutionY, &unit) != 0 && unit == PNG_RESOLUTION_METER) {
        header.hasResolution = 1;
        header.pixelsPerMetreX = resolutionX;
        header.pixelsPerMetreY = resolutionY;
    }
    if (header.interlaced || onHeader(context, &header) == 0) {
        png_destroy_read_struct(&png, &info, NULL);
        return TypesetPNGStopped;
    }
    // Palette to RGB, grey of 1, 2 or 4 bits to 8, `tRNS` to an alpha channel.
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)header.width * 4) png_error(png, "unexpected row size");
    row = (unsigned char *)malloc((size_t)header.width * 4);
    if (row == NULL) png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < header.height; y++) {
        png_read_row(png, row, NULL);
        onRow(context, row);
    }
    free(row);
    png_destroy_read_struct(&png, &info, NULL);
    return TypesetPNGRead;
}
/// Asked for row `y` (from 0, top to bottom) of a PNG being written: fills `row` with its
/// pixels as 8-bit red, green and blue, and answers nonzero, or 0 to give up.
typedef int (*TypesetPNGRowSource)(void *context, uint32_t y, unsigned char *row);

/// Writes an opaque 8-bit RGB PNG of `width` × `height` pixels to `file`, not interlaced, at
/// libpng's default compression, asking `rowSource` for each row in turn; answers 1 when every
/// row was written, 0 when libpng failed or `rowSource` gave up.
static inline int typeset_png_write(
    FILE *file, uint32_t width, uint32_t height, void *context, TypesetPNGRowSource rowSource) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, typeset_png_error, typeset_png_warning);
    if (png == NULL) return 0;
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        return 0;
    }
    // Set after setjmp and read after longjmp: volatile, so that it is not kept in a register.
    unsigned char *volatile row = NULL;
    if (setjmp(png_jmpbuf(png))) {
        free(row);
        png_destroy_write_struct(&png, &info);
        return 0;
    }
    png_init_io(png, file);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    row = (unsigned char *)malloc((size_t)width * 3);
    if (row == NULL) png_error(png, "out of memory");
    for (uint32_t y = 0; y < height; y++) {
        if (rowSource(context, y, row) == 0) png_error(png, "no row");
        png_write_row(png, row);
    }
    png_write_end(png, info);
    free(row);
    png_destroy_write_struct(&png, &info);
    return 1;
}
#endif
