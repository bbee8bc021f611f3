#ifndef TYPESET_SYNTAXHIGHLIGHTINGLIBRARY_H
#define TYPESET_SYNTAXHIGHLIGHTINGLIBRARY_H
// What libTypesetSyntaxHighlighting.so exports: the functions of CSyntaxHighlighting.h, each
// named with `typeset_` before the header's name and doing what the header describes. The
// header's functions load this library with dlopen and call these; nothing else should.
#include "../../CSyntaxHighlighting/include/CSyntaxHighlighting.h"

#ifdef __cplusplus
extern "C" {
#endif

int32_t typeset_tshl_resolve_language(const char *language, char *buffer, int32_t capacity);
int32_t typeset_tshl_highlight(const char *definition, const char *text, size_t length, TSHighlightSpan **spans);
int32_t typeset_tshl_definition_count(void);
int32_t typeset_tshl_theme_count(void);
int32_t typeset_tshl_theme_name(int32_t index, char *buffer, int32_t capacity);
int32_t typeset_tshl_theme_styles(const char *name, TSThemeStyle *styles, uint32_t *background);

#ifdef __cplusplus
}
#endif
#endif
