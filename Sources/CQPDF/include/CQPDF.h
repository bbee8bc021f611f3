#ifndef TYPESET_CQPDF_H
#define TYPESET_CQPDF_H
// qpdf's C API (qpdf 11) and zlib. The program is not linked with libqpdf: the qpdf functions it
// calls are defined in LazyQPDF.c, which loads the library with dlopen on first use (the
// tagging pass's fallback, rarely taken), so a run that never needs qpdf does not pay for
// loading it and its dependencies (GnuTLS, Nettle, GMP…) at start-up.
#include <qpdf/qpdf-c.h>
#include <zlib.h>

/// Loads libqpdf if it is not loaded yet (once per process, thread-safe). Returns 1 when the
/// library and therefore every qpdf function declared here is usable, 0 when it cannot be loaded
/// (then those functions do nothing and return 0 or NULL); `typeset_qpdf_load_error` then says why.
int typeset_qpdf_load(void);

/// The dynamic loader's message when `typeset_qpdf_load` failed, else NULL.
const char *typeset_qpdf_load_error(void);

/// 1 when libqpdf is loaded in this process (a test's probe: nothing loads it before it is needed).
int typeset_qpdf_is_loaded(void);
#endif
