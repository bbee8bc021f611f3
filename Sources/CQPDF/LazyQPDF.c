// The qpdf functions Typeset calls, each a trampoline that loads libqpdf with dlopen on first use
// and calls the library's function of the same name (looked up once with dlsym). The program is
// not linked with libqpdf (see CQPDF.h); prototypes are qpdf-c.h's, so the compiler checks that
// each trampoline matches the library's declaration.
#include "CQPDF.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

static void *library;
static const char *load_error;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load_library(void) {
    // The Debian 12 (qpdf 11) soname, then the development link libqpdf-dev installs.
    static const char *const names[] = {"libqpdf.so.29", "libqpdf.so"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (library) return;
    }
    load_error = dlerror();
}

int typeset_qpdf_load(void) {
    pthread_once(&load_once, load_library);
    return library != NULL;
}

const char *typeset_qpdf_load_error(void) {
    return typeset_qpdf_load() ? NULL : load_error;
}

int typeset_qpdf_is_loaded(void) {
    return __atomic_load_n(&library, __ATOMIC_ACQUIRE) != NULL;
}

static void *lazy_symbol(const char *name) {
    return typeset_qpdf_load() ? dlsym(library, name) : NULL;
}

// A function of qpdf's C API: resolved once (a data race only ever stores the same pointer),
// then called; without the library it returns 0.
#define LAZY(ret, name, params, args)                                              \
    ret name params {                                                              \
        static ret (*resolved) params;                                             \
        ret (*fn) params = __atomic_load_n(&resolved, __ATOMIC_RELAXED);           \
        if (!fn) {                                                                 \
            fn = (ret (*) params)lazy_symbol(#name);                               \
            __atomic_store_n(&resolved, fn, __ATOMIC_RELAXED);                     \
        }                                                                          \
        return fn ? fn args : (ret)0;                                              \
    }
#define LAZY_VOID(name, params, args)                                              \
    void name params {                                                             \
        static void (*resolved) params;                                            \
        void (*fn) params = __atomic_load_n(&resolved, __ATOMIC_RELAXED);          \
        if (!fn) {                                                                 \
            fn = (void (*) params)lazy_symbol(#name);                              \
            __atomic_store_n(&resolved, fn, __ATOMIC_RELAXED);                     \
        }                                                                          \
        if (fn) fn args;                                                           \
    }

LAZY_VOID(qpdf_cleanup, (qpdf_data* qpdf), (qpdf))
LAZY(qpdf_error, qpdf_get_error, (qpdf_data qpdf), (qpdf))
LAZY(char const*, qpdf_get_error_full_text, (qpdf_data q, qpdf_error e), (q, e))
LAZY(int, qpdf_get_num_pages, (qpdf_data qpdf), (qpdf))
LAZY(qpdf_oh, qpdf_get_page_n, (qpdf_data qpdf, size_t zero_based_index), (qpdf, zero_based_index))
LAZY(qpdf_oh, qpdf_get_root, (qpdf_data qpdf), (qpdf))
LAZY(QPDF_BOOL, qpdf_has_error, (qpdf_data qpdf), (qpdf))
LAZY(qpdf_data, qpdf_init, (void), ())
LAZY(QPDF_ERROR_CODE, qpdf_init_write, (qpdf_data qpdf, char const* filename), (qpdf, filename))
LAZY_VOID(qpdf_oh_append_item, (qpdf_data qpdf, qpdf_oh oh, qpdf_oh item), (qpdf, oh, item))
LAZY_VOID(qpdf_oh_begin_dict_key_iter, (qpdf_data qpdf, qpdf_oh dict), (qpdf, dict))
LAZY(QPDF_BOOL, qpdf_oh_dict_more_keys, (qpdf_data qpdf), (qpdf))
LAZY(char const*, qpdf_oh_dict_next_key, (qpdf_data qpdf), (qpdf))
LAZY(qpdf_oh, qpdf_oh_get_array_item, (qpdf_data qpdf, qpdf_oh oh, int n), (qpdf, oh, n))
LAZY(int, qpdf_oh_get_array_n_items, (qpdf_data qpdf, qpdf_oh oh), (qpdf, oh))
LAZY(qpdf_oh, qpdf_oh_get_dict, (qpdf_data qpdf, qpdf_oh oh), (qpdf, oh))
LAZY(qpdf_oh, qpdf_oh_get_key, (qpdf_data qpdf, qpdf_oh oh, char const* key), (qpdf, oh, key))
LAZY(int, qpdf_oh_get_object_id, (qpdf_data qpdf, qpdf_oh oh), (qpdf, oh))
LAZY(QPDF_ERROR_CODE, qpdf_oh_get_stream_data, (qpdf_data qpdf, qpdf_oh stream_oh, enum qpdf_stream_decode_level_e decode_level, QPDF_BOOL* filtered, unsigned char** bufp, size_t* len), (qpdf, stream_oh, decode_level, filtered, bufp, len))
LAZY(char const*, qpdf_oh_get_utf8_value, (qpdf_data qpdf, qpdf_oh oh), (qpdf, oh))
LAZY(QPDF_BOOL, qpdf_oh_has_key, (qpdf_data qpdf, qpdf_oh oh, char const* key), (qpdf, oh, key))
LAZY(QPDF_BOOL, qpdf_oh_is_array, (qpdf_data qpdf, qpdf_oh oh), (qpdf, oh))
LAZY(QPDF_BOOL, qpdf_oh_is_dictionary, (qpdf_data qpdf, qpdf_oh oh), (qpdf, oh))
LAZY(QPDF_BOOL, qpdf_oh_is_integer, (qpdf_data qpdf, qpdf_oh oh), (qpdf, oh))
LAZY(QPDF_BOOL, qpdf_oh_is_name_and_equals, (qpdf_data qpdf, qpdf_oh oh, char const* name), (qpdf, oh, name))
LAZY(QPDF_BOOL, qpdf_oh_is_null, (qpdf_data qpdf, qpdf_oh oh), (qpdf, oh))
LAZY(QPDF_BOOL, qpdf_oh_is_stream, (qpdf_data qpdf, qpdf_oh oh), (qpdf, oh))
LAZY(QPDF_BOOL, qpdf_oh_is_string, (qpdf_data qpdf, qpdf_oh oh), (qpdf, oh))
LAZY(qpdf_oh, qpdf_oh_new_array, (qpdf_data qpdf), (qpdf))
LAZY(qpdf_oh, qpdf_oh_new_bool, (qpdf_data qpdf, QPDF_BOOL value), (qpdf, value))
LAZY(qpdf_oh, qpdf_oh_new_dictionary, (qpdf_data qpdf), (qpdf))
LAZY(qpdf_oh, qpdf_oh_new_name, (qpdf_data qpdf, char const* name), (qpdf, name))
LAZY(qpdf_oh, qpdf_oh_new_null, (qpdf_data qpdf), (qpdf))
LAZY(qpdf_oh, qpdf_oh_new_stream, (qpdf_data qpdf), (qpdf))
LAZY(qpdf_oh, qpdf_oh_new_string, (qpdf_data qpdf, char const* str), (qpdf, str))
LAZY(qpdf_oh, qpdf_oh_new_unicode_string, (qpdf_data qpdf, char const* utf8_str), (qpdf, utf8_str))
LAZY_VOID(qpdf_oh_release, (qpdf_data qpdf, qpdf_oh oh), (qpdf, oh))
LAZY_VOID(qpdf_oh_release_all, (qpdf_data qpdf), (qpdf))
LAZY_VOID(qpdf_oh_replace_key, (qpdf_data qpdf, qpdf_oh oh, char const* key, qpdf_oh item), (qpdf, oh, key, item))
LAZY_VOID(qpdf_oh_replace_stream_data, (qpdf_data qpdf, qpdf_oh stream_oh, unsigned char const* buf, size_t len, qpdf_oh filter, qpdf_oh decode_parms), (qpdf, stream_oh, buf, len, filter, decode_parms))
LAZY_VOID(qpdf_oh_set_array_item, (qpdf_data qpdf, qpdf_oh oh, int at, qpdf_oh item), (qpdf, oh, at, item))
LAZY(QPDF_ERROR_CODE, qpdf_read_memory, (qpdf_data qpdf, char const* description, char const* buffer, unsigned long long size, char const* password), (qpdf, description, buffer, size, password))
LAZY_VOID(qpdf_set_decode_level, (qpdf_data qpdf, enum qpdf_stream_decode_level_e level), (qpdf, level))
LAZY_VOID(qpdf_set_deterministic_ID, (qpdf_data qpdf, QPDF_BOOL value), (qpdf, value))
LAZY_VOID(qpdf_set_minimum_pdf_version, (qpdf_data qpdf, char const* version), (qpdf, version))
LAZY_VOID(qpdf_set_object_stream_mode, (qpdf_data qpdf, enum qpdf_object_stream_e mode), (qpdf, mode))
LAZY_VOID(qpdf_set_suppress_warnings, (qpdf_data qpdf, QPDF_BOOL value), (qpdf, value))
LAZY(QPDF_ERROR_CODE, qpdf_write, (qpdf_data qpdf), (qpdf))
