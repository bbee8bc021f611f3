// One FreeType face per font file and lane for the whole process, handed to Cairo with every
// font face Pango asks Cairo to make, so that renders on several threads never close a face
// under one another, nor wait for one another on a face.
//
// Cairo 1.16 opens the faces of fonts it is given as fontconfig patterns itself and keeps at
// most 10 of them open per process (`MAX_OPEN_FACES`, cairo-ft-font.c). To open another it
// closes one whose lock count it reads as 0 (`_has_unlocked_face`) under its font map's mutex
// but not under that face's own mutex, while another thread may be about to lock that face:
// two threads drawing more than ten faces between them crash in libfreetype. Pango's documented
// way to use PangoCairo from several threads — a font map per thread
// (`pango_cairo_font_map_new`; "the default fontmap is per-thread") — meets that cache all the
// same, since the faces are Cairo's, not the font map's.
//
// Cairo never closes a face it is given (`from_face`): a pattern that holds `FC_FT_FACE` makes
// an unscaled font of that face, locked per face with the unscaled font's own mutex, which is
// also what Pango's `pango_fc_font_lock_face` takes (through `cairo_ft_scaled_font_lock_face`).
// So this file defines `cairo_ft_font_face_create_for_pattern`, the function
// pangocairo-fcfont.c calls to make each font's Cairo face: the executable's definition comes
// first in the process's symbol lookup, libpangocairo's call reaches it, and it calls Cairo's
// (`dlsym(RTLD_NEXT, …)`) with a copy of the pattern that names the shared face.
//
// Each face is opened once per lane. A lane is a font map's (`typeset_face_sharing_set_lane`:
// the render that holds a font map puts its lane on its thread), and font maps held at once are
// given lanes of their own while there are lanes to give, so renders that run at once draw on
// faces, Cairo font faces and scaled fonts of their own. Cairo locks a face's unscaled font for
// every glyph it loads and for each table it copies (`_cairo_ft_unscaled_font_lock_face`; a CJK
// face's 15.5 MB `CFF ` table is copied twice a render, cairo-cff-subset.c), and a scaled font
// for every glyph run it emits (`_cairo_scaled_font_freeze_cache`): on one face for the whole
// process, two renders waited for each other there. A render's second font map (a formula's
// text is measured on one) is of its lane, so a render draws each file on one face. Lane 0 is a
// thread that holds no font map. Lanes are numbered by `CairoFaces.lanes` (PangoCairoBackend),
// at most twice as many as processors, so each file is opened a bounded number of times.
//
// Faces are kept while a font configuration adds their file (the installed fonts' for the
// life of the process): one `FT_Face` per file, index, size and modification time. FreeType
// maps the file and closes its descriptor, so a kept face holds address space, not a file
// descriptor. When the last configuration that added a file is gone,
// `typeset_face_sharing_forget` takes its faces out of the table and lets go of their kept
// Cairo font faces; a face is closed when Cairo has destroyed every font face made on it (a
// user-data destroy function on each counts them down), since Cairo does not close a face it
// is given and may hold its font faces in scaled fonts it caches.
//
// The Cairo font faces made on a shared face are kept for as long, one reference each, and
// made one at a time. Cairo 1.16 finds the font face for a face and its options in a list the
// face's unscaled font keeps (`_cairo_ft_font_face_create`, cairo-ft-font.c) and takes a font
// face out of it when its last reference goes (`_cairo_ft_font_face_destroy`), both without a
// lock: a font face made on one thread while another makes or destroys the same one can come
// out a second font face for the same face and options. A PDF surface gives each font face its
// own font subset (`_cairo_sub_font_init_key`, cairo-scaled-font-subsets.c), so a render whose
// fonts of one file got two font faces writes that file's glyphs into two subsets and its PDF
// differs from the same render alone. Kept, a font face is never destroyed, so the list only
// grows, under `faceMutex`, and every render finds the one font face of a face and options.

#define _GNU_SOURCE
#include <cairo/cairo-ft.h>
#include <dlfcn.h>
#include <fontconfig/fcfreetype.h>
#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "CFaceSharing.h"

/// One face opened, and the file it was opened from as `stat` saw it then.
typedef struct SharedFace {
    struct SharedFace *next;
    char *path;
    int index;
    dev_t device;
    ino_t inode;
    off_t size;
    struct timespec modified;
    long lane;
    FT_Face face;
    /// The Cairo font faces made on `face` (one per set of options), one reference each.
    cairo_font_face_t **made;
    int madeCount;
    int madeCapacity;
    /// How many of those Cairo has not destroyed yet (under `tableMutex`).
    int liveFontFaces;
    /// Taken out of the table: the face is closed when `liveFontFaces` reaches 0.
    int forgotten;
} SharedFace;

enum { bucketCount = 1024 };

/// The table and its FreeType library, behind one mutex (`FT_New_Face` on one `FT_Library`
/// must not run on two threads at once).
static pthread_mutex_t tableMutex = PTHREAD_MUTEX_INITIALIZER;
static SharedFace *buckets[bucketCount];
static FT_Library library;
static long openFaces;
static cairo_user_data_key_t madeOnSharedFace;
/// Held while Cairo makes a font face on a shared face, and while the made faces are counted.
static pthread_mutex_t faceMutex = PTHREAD_MUTEX_INITIALIZER;
static long madeFaces;
/// The lane of the font map the calling thread's render holds; 0 for none.
static __thread long currentLane;

typedef cairo_font_face_t *(*CreateForPattern)(FcPattern *);

static CreateForPattern realFunction;

static void lookUpReal(void) {
    realFunction = (CreateForPattern)dlsym(RTLD_NEXT, "cairo_ft_font_face_create_for_pattern");
}

/// Cairo's own `cairo_ft_font_face_create_for_pattern`, the next definition after this one.
static CreateForPattern real(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, lookUpReal);
    return realFunction;
}

/// FNV-1a of the path, the index and the lane.
static unsigned long hashOf(const char *path, int index, long lane) {
    unsigned long hash = 14695981039346656037UL;
    for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
        hash = (hash ^ *c) * 1099511628211UL;
    }
    hash = (hash ^ (unsigned long)(unsigned)index) * 1099511628211UL;
    return (hash ^ (unsigned long)lane) * 1099511628211UL;
}

/// The entry of the face of `path` at `index` (fontconfig's `FC_INDEX`: face index, named
/// instance above bit 16, as `FT_New_Face` takes it) in `lane`, opened on first use; NULL when
/// FreeType cannot open it.
static SharedFace *sharedFace(const char *path, int index, long lane) {
    struct stat info;
    if (stat(path, &info) != 0) return NULL;
    unsigned long bucket = hashOf(path, index, lane) % bucketCount;
    SharedFace *found = NULL;
    pthread_mutex_lock(&tableMutex);
    for (SharedFace *entry = buckets[bucket]; entry; entry = entry->next) {
        if (entry->index == index && entry->device == info.st_dev && entry->inode == info.st_ino &&
            entry->size == info.st_size && entry->modified.tv_sec == info.st_mtim.tv_sec &&
            entry->modified.tv_nsec == info.st_mtim.tv_nsec && entry->lane == lane &&
            strcmp(entry->path, path) == 0) {
            found = entry;
            break;
        }
    }
    FT_Face face = NULL;
    if (!found && (library || FT_Init_FreeType(&library) == 0) && FT_New_Face(library, path, index, &face) == 0) {
        SharedFace *entry = calloc(1, sizeof(SharedFace));
        char *copy = strdup(path);
        if (entry && copy) {
            *entry = (SharedFace){
                .next = buckets[bucket], .path = copy, .index = index, .device = info.st_dev,
                .inode = info.st_ino, .size = info.st_size, .modified = info.st_mtim, .lane = lane,
                .face = face,
            };
            buckets[bucket] = entry;
            openFaces += 1;
            found = entry;
        } else {
            free(entry);
            free(copy);
            FT_Done_Face(face);
        }
    }
    pthread_mutex_unlock(&tableMutex);
    return found;
}

/// Closes a face taken out of the table and frees its entry; called with `tableMutex` held.
static void closeFace(SharedFace *entry) {
    FT_Done_Face(entry->face);
    free(entry->path);
    free(entry->made);
    free(entry);
}

/// Cairo destroyed a font face made on a shared face: counted down, and the face closed when
/// it was given up and this was its last font face.
static void fontFaceGone(void *data) {
    SharedFace *shared = data;
    pthread_mutex_lock(&tableMutex);
    shared->liveFontFaces -= 1;
    if (shared->forgotten && shared->liveFontFaces == 0) closeFace(shared);
    pthread_mutex_unlock(&tableMutex);
}

/// Keeps one reference to `made`, a font face Cairo made on `shared`'s face, unless one is
/// kept already; called with `faceMutex` held. A face that cannot be kept (no memory) is left
/// to Cairo as before, and so is one whose destruction cannot be counted (its face is then
/// never closed).
static void keep(SharedFace *shared, cairo_font_face_t *made) {
    if (cairo_font_face_status(made) != CAIRO_STATUS_SUCCESS) return;
    for (int i = 0; i < shared->madeCount; i++) {
        if (shared->made[i] == made) return;
    }
    if (shared->madeCount == shared->madeCapacity) {
        int capacity = shared->madeCapacity ? shared->madeCapacity * 2 : 4;
        cairo_font_face_t **grown = realloc(shared->made, (size_t)capacity * sizeof(cairo_font_face_t *));
        if (!grown) return;
        shared->made = grown;
        shared->madeCapacity = capacity;
    }
    if (cairo_font_face_set_user_data(made, &madeOnSharedFace, shared, fontFaceGone) == CAIRO_STATUS_SUCCESS) {
        pthread_mutex_lock(&tableMutex);
        shared->liveFontFaces += 1;
        pthread_mutex_unlock(&tableMutex);
    } else {
        // Never counted down: the face stays open.
        pthread_mutex_lock(&tableMutex);
        shared->liveFontFaces += 1 << 20;
        pthread_mutex_unlock(&tableMutex);
    }
    shared->made[shared->madeCount++] = cairo_font_face_reference(made);
    madeFaces += 1;
}

void typeset_face_sharing_forget(const char *path) {
    if (!path) return;
    pthread_mutex_lock(&faceMutex);
    // Out of the table first, so no font face is made on these faces again.
    SharedFace *given = NULL;
    pthread_mutex_lock(&tableMutex);
    for (int bucket = 0; bucket < bucketCount; bucket++) {
        SharedFace **link = &buckets[bucket];
        while (*link) {
            SharedFace *entry = *link;
            if (strcmp(entry->path, path) == 0) {
                *link = entry->next;
                entry->next = given;
                given = entry;
            } else {
                link = &entry->next;
            }
        }
    }
    pthread_mutex_unlock(&tableMutex);
    // The kept references let go (Cairo may call `fontFaceGone`, which takes `tableMutex`).
    for (SharedFace *entry = given; entry; entry = entry->next) {
        for (int i = 0; i < entry->madeCount; i++) cairo_font_face_destroy(entry->made[i]);
        entry->madeCount = 0;
    }
    pthread_mutex_lock(&tableMutex);
    SharedFace *entry = given;
    while (entry) {
        SharedFace *next = entry->next;
        entry->forgotten = 1;
        if (entry->liveFontFaces == 0) closeFace(entry);
        entry = next;
    }
    pthread_mutex_unlock(&tableMutex);
    pthread_mutex_unlock(&faceMutex);
}

/// Cairo's font face for `pattern`, made on the shared face of the pattern's file (`FC_FILE`,
/// `FC_INDEX`) in the calling thread's lane, one at a time, and kept (see the top of this
/// file); a pattern that names a face already, or whose file FreeType cannot open, goes to
/// Cairo unchanged.
cairo_font_face_t *cairo_ft_font_face_create_for_pattern(FcPattern *pattern) {
    CreateForPattern create = real();
    if (!create) return NULL;
    FT_Face given = NULL;
    FcChar8 *file = NULL;
    int index = 0;
    if (!pattern || FcPatternGetFTFace(pattern, FC_FT_FACE, 0, &given) == FcResultMatch ||
        FcPatternGetString(pattern, FC_FILE, 0, &file) != FcResultMatch || !file) {
        return create(pattern);
    }
    FcPatternGetInteger(pattern, FC_INDEX, 0, &index);
    SharedFace *shared = sharedFace((const char *)file, index, currentLane);
    FcPattern *copy = shared ? FcPatternDuplicate(pattern) : NULL;
    if (!copy || !FcPatternAddFTFace(copy, FC_FT_FACE, shared->face)) {
        if (copy) FcPatternDestroy(copy);
        return create(pattern);
    }
    pthread_mutex_lock(&faceMutex);
    cairo_font_face_t *made = create(copy);
    keep(shared, made);
    pthread_mutex_unlock(&faceMutex);
    FcPatternDestroy(copy);
    return made;
}

static int inEffect;

static void checkInEffect(void) {
    void *found = dlsym(RTLD_DEFAULT, "cairo_ft_font_face_create_for_pattern");
    inEffect = found != NULL && found == (void *)&cairo_ft_font_face_create_for_pattern && real() != NULL;
}

int typeset_face_sharing_in_effect(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, checkInEffect);
    return inEffect;
}

void typeset_face_sharing_set_lane(long lane) {
    currentLane = lane;
}

long typeset_face_sharing_lane(void) {
    return currentLane;
}

long typeset_face_sharing_open_faces(void) {
    pthread_mutex_lock(&tableMutex);
    long count = openFaces;
    pthread_mutex_unlock(&tableMutex);
    return count;
}

long typeset_face_sharing_kept_font_faces(void) {
    pthread_mutex_lock(&faceMutex);
    long count = madeFaces;
    pthread_mutex_unlock(&faceMutex);
    return count;
}
