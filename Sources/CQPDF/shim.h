#ifndef TYPESET_CQPDF_SHIM_H
#define TYPESET_CQPDF_SHIM_H
#include <qpdf/qpdf-c.h>
#include <zlib.h>
#endif
