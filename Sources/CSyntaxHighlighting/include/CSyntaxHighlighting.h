#ifndef TYPESET_CSYNTAXHIGHLIGHTING_H
#define TYPESET_CSYNTAXHIGHLIGHTING_H
// A C interface to KSyntaxHighlighting (KDE Frameworks 5), the engine of Kate and Qt Creator:
// its syntax definitions tokenize source text into spans, each with one of the library's default
// text styles (`KSyntaxHighlighting::Theme::TextStyle`). Only plain integers and UTF-8 bytes cross
// this interface; no Qt type does. Every function is safe to call from any thread (one lock
// serializes them).
//
// The program is not linked with KSyntaxHighlighting or Qt: the first call loads
// libTypesetSyntaxHighlighting.so (built beside the executable from the C++ over the library) with
// dlopen, looked for beside the program, then in ../lib/typeset/ from there, then where the dynamic
// loader looks. Without it every function answers as for an unknown language or theme.
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One highlighted stretch of the text: UTF-8 byte offsets into the text given to
/// `tshl_highlight`, and the library's default text style (`Theme::TextStyle`: 0 Normal,
/// 1 Keyword, 2 Function, 3 Variable, 4 ControlFlow, 5 Operator, 6 BuiltIn, 7 Extension,
/// 8 Preprocessor, 9 Attribute, 10 Char, 11 SpecialChar, 12 String, 13 VerbatimString,
/// 14 SpecialString, 15 Import, 16 DataType, 17 DecVal, 18 BaseN, 19 Float, 20 Constant,
/// 21 Comment, 22 Documentation, 23 Annotation, 24 CommentVar, 25 RegionMarker, 26 Information,
/// 27 Warning, 28 Alert, 29 Error, 30 Others), or one of Typeset's own past those: 31 for the
/// Diff definition's removed lines and 32 for its added lines, which the library marks String
/// and Variable.
typedef struct TSHighlightSpan {
    int32_t start;
    int32_t length;
    int32_t style;
} TSHighlightSpan;

/// The name of the syntax definition for `language` (NUL-terminated UTF-8): a definition's
/// name in any case ("python", "C++"), or a file extension ("py", "rs") or file name
/// ("Dockerfile") one claims. Copies the name, NUL-terminated, into `buffer` (`capacity` bytes)
/// and returns its length in bytes; returns 0 when no definition matches or the name does not fit.
int32_t tshl_resolve_language(const char *language, char *buffer, int32_t capacity);

/// Highlights `length` bytes of UTF-8 `text` with the definition named `definition` (as
/// `tshl_resolve_language` returns it), line by line (lines end at '\n'), carrying the
/// definition's state from each line to the next. A line longer than 4,096 bytes is set plain
/// (it has no spans) and the next line goes on in the state before it, so that the time taken
/// grows with the text's length whatever its lines' lengths. On success stores a `malloc`ed array of the
/// spans that are not Normal, in order, in `*spans` (free it with `tshl_free_spans`) and returns
/// how many; returns -1 when no definition has that name (`*spans` is then NULL).
int32_t tshl_highlight(const char *definition, const char *text, size_t length, TSHighlightSpan **spans);

/// Frees an array `tshl_highlight` returned (NULL is ignored).
void tshl_free_spans(TSHighlightSpan *spans);

/// 1 when the highlighting library (and Qt with it) is loaded in this process, 0 before a
/// function above first needs it or when it cannot be found.
int32_t tshl_is_loaded(void);

/// 1 when the highlighting library can be loaded (loading it, without its definitions, when
/// it is not yet), 0 when it cannot be found.
int32_t tshl_is_available(void);

/// How many syntax definitions the library holds.
int32_t tshl_definition_count(void);

/// How many colour themes the library holds (GitHub Light, Solarized Dark, Breeze Light…).
int32_t tshl_theme_count(void);

/// Copies the name of theme `index` (0 up to `tshl_theme_count()`, in the library's order,
/// NUL-terminated UTF-8) into `buffer` (`capacity` bytes); returns its length in bytes, or 0
/// when `index` is out of range or the name does not fit.
int32_t tshl_theme_name(int32_t index, char *buffer, int32_t capacity);

/// One default text style of a theme: its colour as 0xRRGGBB, whether the theme sets one
/// (`has_color` 0 or 1), whether it is bold or italic, and the background the theme paints
/// behind the style's text as 0xRRGGBB, when it sets one (`has_background` 0 or 1; Gruvbox's
/// and Monokai's Information, Warning and Alert styles do).
typedef struct TSThemeStyle {
    uint32_t color;
    int32_t has_color;
    int32_t bold;
    int32_t italic;
    uint32_t background;
    int32_t has_background;
} TSThemeStyle;

/// The text styles of the theme named `name` (exactly as `tshl_theme_name` gives it): fills
/// `styles[0]` up to `styles[30]` (indexed by `Theme::TextStyle`, as `TSHighlightSpan.style`)
/// and stores the editor background as 0xRRGGBB in `*background`; returns 1, or 0 when no
/// theme has that name.
int32_t tshl_theme_styles(const char *name, TSThemeStyle *styles, uint32_t *background);

#ifdef __cplusplus
}
#endif
#endif
