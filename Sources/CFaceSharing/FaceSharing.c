// One FreeType face per font file for the whole process, handed to Cairo with every font face
// Pango asks Cairo to make, so that renders on several threads never close a face under one
// another.
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
// Faces are kept for the life of the process (Cairo may hold them in font faces and scaled
// fonts it caches for as long): one `FT_Face` per file, index, size and modification time.
// FreeType maps the file and closes its descriptor, so a kept face holds address space, not a
// file descriptor; its pages are the file's, read as glyphs are drawn.

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
    FT_Face face;
} SharedFace;

enum { bucketCount = 1024 };

/// The table and its FreeType library, behind one mutex (`FT_New_Face` on one `FT_Library`
/// must not run on two threads at once).
static pthread_mutex_t tableMutex = PTHREAD_MUTEX_INITIALIZER;
static SharedFace *buckets[bucketCount];
static FT_Library library;
static long openFaces;

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

/// FNV-1a of the path and the index.
static unsigned long hashOf(const char *path, int index) {
    unsigned long hash = 14695981039346656037UL;
    for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
        hash = (hash ^ *c) * 1099511628211UL;
    }
    return (hash ^ (unsigned long)(unsigned)index) * 1099511628211UL;
}

/// The face of `path` at `index` (fontconfig's `FC_INDEX`: face index, named instance above
/// bit 16, as `FT_New_Face` takes it), opened on first use; NULL when FreeType cannot open it.
static FT_Face sharedFace(const char *path, int index) {
    struct stat info;
    if (stat(path, &info) != 0) return NULL;
    unsigned long bucket = hashOf(path, index) % bucketCount;
    FT_Face face = NULL;
    pthread_mutex_lock(&tableMutex);
    for (SharedFace *entry = buckets[bucket]; entry; entry = entry->next) {
        if (entry->index == index && entry->device == info.st_dev && entry->inode == info.st_ino &&
            entry->size == info.st_size && entry->modified.tv_sec == info.st_mtim.tv_sec &&
            entry->modified.tv_nsec == info.st_mtim.tv_nsec && strcmp(entry->path, path) == 0) {
            face = entry->face;
            break;
        }
    }
    if (!face && (library || FT_Init_FreeType(&library) == 0) && FT_New_Face(library, path, index, &face) == 0) {
        SharedFace *entry = calloc(1, sizeof(SharedFace));
        char *copy = strdup(path);
        if (entry && copy) {
            *entry = (SharedFace){
                .next = buckets[bucket], .path = copy, .index = index, .device = info.st_dev,
                .inode = info.st_ino, .size = info.st_size, .modified = info.st_mtim, .face = face,
            };
            buckets[bucket] = entry;
            openFaces += 1;
        } else {
            free(entry);
            free(copy);
            FT_Done_Face(face);
            face = NULL;
        }
    }
    pthread_mutex_unlock(&tableMutex);
    return face;
}

/// Cairo's font face for `pattern`, made on the process's shared face of the pattern's file
/// (`FC_FILE`, `FC_INDEX`); a pattern that names a face already, or whose file FreeType cannot
/// open, goes to Cairo unchanged.
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
    FT_Face face = sharedFace((const char *)file, index);
    FcPattern *copy = face ? FcPatternDuplicate(pattern) : NULL;
    if (!copy || !FcPatternAddFTFace(copy, FC_FT_FACE, face)) {
        if (copy) FcPatternDestroy(copy);
        return create(pattern);
    }
    cairo_font_face_t *made = create(copy);
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

long typeset_face_sharing_open_faces(void) {
    pthread_mutex_lock(&tableMutex);
    long count = openFaces;
    pthread_mutex_unlock(&tableMutex);
    return count;
}
