#ifndef TYPESET_CCMARKGFM_SHIM_H
#define TYPESET_CCMARKGFM_SHIM_H
#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm-core-extensions.h>

// Exported by libcmark-gfm-extensions but declared in no installed header; 0 until the
// core extensions are registered (cmark_gfm_core_extensions_ensure_registered sets them).
extern cmark_node_type CMARK_NODE_TABLE;
extern cmark_node_type CMARK_NODE_TABLE_ROW;
extern cmark_node_type CMARK_NODE_TABLE_CELL;
extern cmark_node_type CMARK_NODE_STRIKETHROUGH;

// Swift 6 treats reads of mutable C globals as unsafe; read them through functions.
static inline cmark_node_type typeset_node_table(void) { return CMARK_NODE_TABLE; }
static inline cmark_node_type typeset_node_table_row(void) { return CMARK_NODE_TABLE_ROW; }
static inline cmark_node_type typeset_node_table_cell(void) { return CMARK_NODE_TABLE_CELL; }
static inline cmark_node_type typeset_node_strikethrough(void) { return CMARK_NODE_STRIKETHROUGH; }
#endif
