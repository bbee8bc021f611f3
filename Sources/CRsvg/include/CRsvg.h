#ifndef TYPESET_CRSVG_H
#define TYPESET_CRSVG_H
// The few functions of gdk-pixbuf 2.42 and librsvg 2.54 that Typeset calls, declared as their
// headers (gdk-pixbuf/gdk-pixbuf.h, librsvg/rsvg.h) declare them. The program is not linked with
// either library: each function is defined in LazyImageLibraries.c, which loads the library
// with dlopen the first time a picture needs it, so a document without pictures does not pay
// for loading them (and their dependencies) at start-up.
#include <glib.h>
#include <cairo.h>

typedef struct _GdkPixbuf GdkPixbuf;
typedef struct _GdkPixbufFormat GdkPixbufFormat;
typedef struct _GdkPixbufLoader GdkPixbufLoader;
typedef struct _RsvgHandle RsvgHandle;
/// A rectangle in user units (librsvg's `RsvgRectangle`).
typedef struct _RsvgRectangle { double x; double y; double width; double height; } RsvgRectangle;

gchar *gdk_pixbuf_format_get_name(GdkPixbufFormat *format);
GdkPixbuf *gdk_pixbuf_apply_embedded_orientation(GdkPixbuf *src);
const gchar *gdk_pixbuf_get_option(GdkPixbuf *pixbuf, const gchar *key);
int gdk_pixbuf_get_width(const GdkPixbuf *pixbuf);
int gdk_pixbuf_get_height(const GdkPixbuf *pixbuf);
int gdk_pixbuf_get_n_channels(const GdkPixbuf *pixbuf);
int gdk_pixbuf_get_rowstride(const GdkPixbuf *pixbuf);
int gdk_pixbuf_get_bits_per_sample(const GdkPixbuf *pixbuf);
gboolean gdk_pixbuf_get_has_alpha(const GdkPixbuf *pixbuf);
const guint8 *gdk_pixbuf_read_pixels(const GdkPixbuf *pixbuf);
GdkPixbufLoader *gdk_pixbuf_loader_new(void);
gboolean gdk_pixbuf_loader_write(GdkPixbufLoader *loader, const guchar *buf, gsize count, GError **error);
gboolean gdk_pixbuf_loader_close(GdkPixbufLoader *loader, GError **error);
GdkPixbuf *gdk_pixbuf_loader_get_pixbuf(GdkPixbufLoader *loader);
GdkPixbufFormat *gdk_pixbuf_loader_get_format(GdkPixbufLoader *loader);
void gdk_pixbuf_loader_set_size(GdkPixbufLoader *loader, int width, int height);

RsvgHandle *rsvg_handle_new_from_data(const guint8 *data, gsize data_len, GError **error);
gboolean rsvg_handle_render_document(RsvgHandle *handle, cairo_t *cr, const RsvgRectangle *viewport, GError **error);

/// 1 when gdk-pixbuf (raster pictures) is loaded in this process, 0 before a picture needs it.
int typeset_gdk_pixbuf_is_loaded(void);
/// 1 when librsvg (SVG pictures) is loaded in this process, 0 before an SVG picture needs it.
int typeset_rsvg_is_loaded(void);
#endif
