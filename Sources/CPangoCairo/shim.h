#ifndef TYPESET_CPANGOCAIRO_SHIM_H
#define TYPESET_CPANGOCAIRO_SHIM_H
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <pango/pangofc-font.h>
#include <cairo/cairo-pdf.h>
#include <cairo/cairo-svg.h>
#include <gio/gio.h>
#include <cairo/cairo-ft.h>
#include <fontconfig/fontconfig.h>
#include <hb-ot.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_TRUETYPE_TABLES_H
#endif
