// gdk-pixbuf's and librsvg's functions that Typeset calls (CRsvg.h), each a trampoline that
// loads its library with dlopen on first use and calls the library's function of the same name
// (looked up once with dlsym). Without the library a function returns 0 or NULL, which every
// caller already treats as "the picture cannot be read".
#include "CRsvg.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

struct lazy_library {
    const char *const names[2];  // the Debian 12 soname, then the development link
    pthread_once_t once;
    void *handle;
};

static struct lazy_library gdk_pixbuf = {{"libgdk_pixbuf-2.0.so.0", "libgdk_pixbuf-2.0.so"}, PTHREAD_ONCE_INIT, NULL};
static struct lazy_library rsvg = {{"librsvg-2.so.2", "librsvg-2.so"}, PTHREAD_ONCE_INIT, NULL};

static void open_library(struct lazy_library *library) {
    for (size_t i = 0; i < sizeof library->names / sizeof *library->names; i++) {
        void *handle = dlopen(library->names[i], RTLD_NOW | RTLD_LOCAL);
        if (handle) { __atomic_store_n(&library->handle, handle, __ATOMIC_RELEASE); return; }
    }
}
static void open_gdk_pixbuf(void) { open_library(&gdk_pixbuf); }
static void open_rsvg(void) { open_library(&rsvg); }

static void *lazy_symbol(struct lazy_library *library, const char *name) {
    pthread_once(&library->once, library == &rsvg ? open_rsvg : open_gdk_pixbuf);
    return library->handle ? dlsym(library->handle, name) : NULL;
}

int typeset_gdk_pixbuf_is_loaded(void) { return __atomic_load_n(&gdk_pixbuf.handle, __ATOMIC_ACQUIRE) != NULL; }
int typeset_rsvg_is_loaded(void) { return __atomic_load_n(&rsvg.handle, __ATOMIC_ACQUIRE) != NULL; }

// A function of `library`: resolved once (a data race only ever stores the same pointer), then
// called; without the library it returns 0.
#define LAZY(library, ret, name, params, args)                                     \
    ret name params {                                                              \
        static ret (*resolved) params;                                             \
        ret (*fn) params = __atomic_load_n(&resolved, __ATOMIC_RELAXED);           \
        if (!fn) {                                                                 \
            fn = (ret (*) params)lazy_symbol(&library, #name);                     \
            __atomic_store_n(&resolved, fn, __ATOMIC_RELAXED);                     \
        }                                                                          \
        return fn ? fn args : (ret)0;                                              \
    }

LAZY(gdk_pixbuf, gchar *, gdk_pixbuf_format_get_name, (GdkPixbufFormat *format), (format))
LAZY(gdk_pixbuf, GdkPixbuf *, gdk_pixbuf_apply_embedded_orientation, (GdkPixbuf *src), (src))
LAZY(gdk_pixbuf, const gchar *, gdk_pixbuf_get_option, (GdkPixbuf *pixbuf, const gchar *key), (pixbuf, key))
LAZY(gdk_pixbuf, int, gdk_pixbuf_get_width, (const GdkPixbuf *pixbuf), (pixbuf))
LAZY(gdk_pixbuf, int, gdk_pixbuf_get_height, (const GdkPixbuf *pixbuf), (pixbuf))
LAZY(gdk_pixbuf, int, gdk_pixbuf_get_n_channels, (const GdkPixbuf *pixbuf), (pixbuf))
LAZY(gdk_pixbuf, int, gdk_pixbuf_get_rowstride, (const GdkPixbuf *pixbuf), (pixbuf))
LAZY(gdk_pixbuf, int, gdk_pixbuf_get_bits_per_sample, (const GdkPixbuf *pixbuf), (pixbuf))
LAZY(gdk_pixbuf, gboolean, gdk_pixbuf_get_has_alpha, (const GdkPixbuf *pixbuf), (pixbuf))
LAZY(gdk_pixbuf, const guint8 *, gdk_pixbuf_read_pixels, (const GdkPixbuf *pixbuf), (pixbuf))
LAZY(gdk_pixbuf, GdkPixbufLoader *, gdk_pixbuf_loader_new, (void), ())
LAZY(gdk_pixbuf, gboolean, gdk_pixbuf_loader_write, (GdkPixbufLoader *loader, const guchar *buf, gsize count, GError **error), (loader, buf, count, error))
LAZY(gdk_pixbuf, gboolean, gdk_pixbuf_loader_close, (GdkPixbufLoader *loader, GError **error), (loader, error))
LAZY(gdk_pixbuf, GdkPixbuf *, gdk_pixbuf_loader_get_pixbuf, (GdkPixbufLoader *loader), (loader))
LAZY(gdk_pixbuf, GdkPixbufFormat *, gdk_pixbuf_loader_get_format, (GdkPixbufLoader *loader), (loader))

// gdk_pixbuf_loader_set_size returns nothing, so it is written out rather than made by LAZY:
// resolved once, then called; without the library it does nothing.
void gdk_pixbuf_loader_set_size(GdkPixbufLoader *loader, int width, int height) {
    static void (*resolved)(GdkPixbufLoader *, int, int);
    void (*fn)(GdkPixbufLoader *, int, int) = __atomic_load_n(&resolved, __ATOMIC_RELAXED);
    if (!fn) {
        fn = (void (*)(GdkPixbufLoader *, int, int))lazy_symbol(&gdk_pixbuf, "gdk_pixbuf_loader_set_size");
        __atomic_store_n(&resolved, fn, __ATOMIC_RELAXED);
    }
    if (fn) fn(loader, width, height);
}

LAZY(rsvg, RsvgHandle *, rsvg_handle_new_from_data, (const guint8 *data, gsize data_len, GError **error), (data, data_len, error))
LAZY(rsvg, gboolean, rsvg_handle_render_document, (RsvgHandle *handle, cairo_t *cr, const RsvgRectangle *viewport, GError **error), (handle, cr, viewport, error))
