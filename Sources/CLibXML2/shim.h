#ifndef TYPESET_CLIBXML2_SHIM_H
#define TYPESET_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU and its encoding header then includes ICU's, which clash
// with the ICU copy inside Foundation. Nothing here uses the ICU converter fields.
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <libxml/parser.h>

/// libxml2's HTML parser options used for fragments: no error output, no network. The implied
/// <html>, <head> and <body> elements are kept: without them libxml2 puts every node after the
/// fragment's first element inside that element (after `<hr>`, inside the `<hr>`). (The option
/// enum's values as one int, for Swift.)
static inline int typeset_html_options(void) {
    return HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET;
}
#endif
