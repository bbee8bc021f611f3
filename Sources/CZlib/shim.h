#ifndef TYPESET_CZLIB_H
#define TYPESET_CZLIB_H
// zlib: the tagging pass inflates Cairo's content streams and deflates what it rewrites, its
// object streams and its cross-reference stream (PDF 1.7 §7.4.4, `/FlateDecode`).
#include <zlib.h>
#endif
