#ifndef TYPESET_CRSVG_SHIM_H
#define TYPESET_CRSVG_SHIM_H
#include <librsvg/rsvg.h>
#endif
