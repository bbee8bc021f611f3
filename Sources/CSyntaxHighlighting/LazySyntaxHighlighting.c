// The functions of CSyntaxHighlighting.h, each a trampoline into libTypesetSyntaxHighlighting.so
// (the C++ over KSyntaxHighlighting and Qt 5, built from the SyntaxHighlightingLibrary target),
// which is loaded with dlopen the first time a function is called. A program that renders no
// highlighted code never maps Qt: the dynamic loader's work for Qt 5, ICU and
// KSyntaxHighlighting at every start is what this saves. Without the library every function
// answers as for an unknown language (0, or -1 from tshl_highlight), so code is set plain.
#define _GNU_SOURCE
#include "CSyntaxHighlighting.h"
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/// The library's file name, as the build writes it beside the executable.
static const char library_file[] = "libTypesetSyntaxHighlighting.so";

static pthread_once_t library_once = PTHREAD_ONCE_INIT;
static void *library_handle;

/// Tries `folder`/`relative` (`folder` ends at its last '/').
static void *open_in(const char *folder, size_t folder_length, const char *relative) {
    char path[PATH_MAX];
    if (folder_length + strlen(relative) + 1 > sizeof path) return NULL;
    memcpy(path, folder, folder_length);
    strcpy(path + folder_length, relative);
    return dlopen(path, RTLD_LAZY | RTLD_LOCAL);
}

/// Tries `library_file`, then `../lib/typeset/library_file`, in the folder of `holder` (a path).
static void *open_beside(const char *holder) {
    const char *slash = strrchr(holder, '/');
    if (!slash) return NULL;
    size_t folder_length = (size_t)(slash - holder) + 1;
    void *handle = open_in(holder, folder_length, library_file);
    if (!handle) handle = open_in(holder, folder_length, "../lib/typeset/libTypesetSyntaxHighlighting.so");
    return handle;
}

/// Looks beside the running executable (its path with symbolic links resolved, so a linked
/// `bin/typeset` finds the library of the installation it belongs to), then beside the object
/// that holds this code when that is another one (a shared library that links Typeset), in
/// each folder and in `../lib/typeset/` from it (`make install`), then where the dynamic loader
/// looks (LD_LIBRARY_PATH, the system's folders).
static void open_library(void) {
    void *handle = NULL;
    char executable[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    if (length > 0) {
        executable[length] = '\0';
        handle = open_beside(executable);
    }
    Dl_info info;
    if (!handle && dladdr((void *)&open_library, &info) && info.dli_fname && strchr(info.dli_fname, '/')) {
        handle = open_beside(info.dli_fname);
    }
    if (!handle) handle = dlopen(library_file, RTLD_LAZY | RTLD_LOCAL);
    __atomic_store_n(&library_handle, handle, __ATOMIC_RELEASE);
}

static void *library_symbol(const char *name) {
    pthread_once(&library_once, open_library);
    void *handle = __atomic_load_n(&library_handle, __ATOMIC_ACQUIRE);
    return handle ? dlsym(handle, name) : NULL;
}

int32_t tshl_is_loaded(void) { return __atomic_load_n(&library_handle, __ATOMIC_ACQUIRE) != NULL; }

int32_t tshl_is_available(void) {
    pthread_once(&library_once, open_library);
    return __atomic_load_n(&library_handle, __ATOMIC_ACQUIRE) != NULL;
}

// A function of the library (named `name` with `typeset_` before it there): resolved once (a
// data race only ever stores the same pointer), then called; without the library it returns
// `fallback`.
#define LAZY(ret, name, params, args, fallback)                                     \
    ret name params {                                                               \
        static ret (*resolved) params;                                              \
        ret (*function) params = __atomic_load_n(&resolved, __ATOMIC_RELAXED);      \
        if (!function) {                                                            \
            function = (ret (*) params)library_symbol("typeset_" #name);            \
            __atomic_store_n(&resolved, function, __ATOMIC_RELAXED);                \
        }                                                                           \
        return function ? function args : (fallback);                               \
    }

LAZY(int32_t, tshl_resolve_language, (const char *language, char *buffer, int32_t capacity),
     (language, buffer, capacity), 0)
LAZY(int32_t, tshl_definition_count, (void), (), 0)
LAZY(int32_t, tshl_theme_count, (void), (), 0)
LAZY(int32_t, tshl_theme_name, (int32_t index, char *buffer, int32_t capacity), (index, buffer, capacity), 0)
LAZY(int32_t, tshl_theme_styles, (const char *name, TSThemeStyle *styles, uint32_t *background),
     (name, styles, background), 0)

int32_t tshl_highlight(const char *definition, const char *text, size_t length, TSHighlightSpan **spans) {
    static int32_t (*resolved)(const char *, const char *, size_t, TSHighlightSpan **);
    int32_t (*function)(const char *, const char *, size_t, TSHighlightSpan **) =
        __atomic_load_n(&resolved, __ATOMIC_RELAXED);
    if (!function) {
        function = (int32_t (*)(const char *, const char *, size_t, TSHighlightSpan **))library_symbol(
            "typeset_tshl_highlight");
        __atomic_store_n(&resolved, function, __ATOMIC_RELAXED);
    }
    if (function) return function(definition, text, length, spans);
    if (spans) *spans = NULL;
    return -1;
}

// The library allocates spans with malloc; the same C library frees them.
void tshl_free_spans(TSHighlightSpan *spans) { free(spans); }
