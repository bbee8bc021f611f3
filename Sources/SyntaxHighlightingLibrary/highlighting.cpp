// KSyntaxHighlighting behind the C interface of CSyntaxHighlighting.h, built into the shared
// library libTypesetSyntaxHighlighting.so. Each function is exported as `typeset_` followed by the
// header's name; the header's own functions (LazySyntaxHighlighting.c) load this library on first
// call and forward to them. The library's headers are named by their path under /usr/include, so
// the target needs no include path of its own; Qt's include paths come from the CQt5 system
// library (pkg-config `Qt5Gui`).
#include "TypesetSyntaxHighlighting.h"

#include <KF5/KSyntaxHighlighting/KSyntaxHighlighting/AbstractHighlighter>
#include <KF5/KSyntaxHighlighting/KSyntaxHighlighting/Definition>
#include <KF5/KSyntaxHighlighting/KSyntaxHighlighting/Format>
#include <KF5/KSyntaxHighlighting/KSyntaxHighlighting/Repository>
#include <KF5/KSyntaxHighlighting/KSyntaxHighlighting/State>
#include <KF5/KSyntaxHighlighting/KSyntaxHighlighting/Theme>

#include <QHash>
#include <QString>
#include <QStringView>
#include <QVector>

#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

namespace {

using KSyntaxHighlighting::AbstractHighlighter;
using KSyntaxHighlighting::Definition;
using KSyntaxHighlighting::Format;
using KSyntaxHighlighting::Repository;
using KSyntaxHighlighting::State;

/// The styles Typeset gives the Diff definition's removed and added lines, past the library's
/// own (`Theme::Others`, 30): the definition marks them String and Variable, which colours
/// removed lines as strings.
constexpr int deletedStyle = 31;
constexpr int insertedStyle = 32;

/// The library's definitions, loaded on first use, a case-insensitive index of their names,
/// and the style each of the Diff definition's line formats is given, by format id (a format
/// keeps its id wherever another definition includes the Diff contexts).
struct Library {
    Repository repository;
    QHash<QString, Definition> byLowercaseName;
    QHash<quint16, int> diffLineStyles;

    Library() {
        for (const Definition &definition : repository.definitions()) {
            byLowercaseName.insert(definition.name().toLower(), definition);
        }
        // The names Pandoc's skylighting gives the same definitions (their file names:
        // "isocpp", "sqlpostgresql", "fortranfree", "objectivec") and each name written without
        // its spaces and punctuation ("commonlisp", "literatehaskell"), where no definition's
        // own name is that.
        for (const Definition &definition : repository.definitions()) {
            const QString file = definition.filePath().section(QLatin1Char('/'), -1).section(QLatin1Char('.'), 0, 0);
            for (const QString &name : {squeezed(file), squeezed(definition.name())}) {
                if (!name.isEmpty() && !byLowercaseName.contains(name)) {
                    byLowercaseName.insert(name, definition);
                }
            }
        }
        for (const Format &format : repository.definitionForName(QStringLiteral("Diff")).formats()) {
            const QString name = format.name();
            if (name == QLatin1String("Removed line") || name == QLatin1String("Changed line (old)")) {
                diffLineStyles.insert(format.id(), deletedStyle);
            } else if (name == QLatin1String("Added line") || name == QLatin1String("Changed line (new)")) {
                diffLineStyles.insert(format.id(), insertedStyle);
            }
        }
    }

    /// `name` in lower case with `+` as "p", `#` as "sharp" and every other character that is
    /// no letter or digit left out: "Objective-C++" is "objectivecpp", "fortran-free"
    /// "fortranfree".
    static QString squeezed(const QString &name) {
        QString result;
        for (const QChar character : name.toLower()) {
            if (character == QLatin1Char('+')) {
                result += QLatin1Char('p');
            } else if (character == QLatin1Char('#')) {
                result += QLatin1String("sharp");
            } else if (character.isLetterOrNumber()) {
                result += character;
            }
        }
        return result;
    }

    Definition resolve(const QString &language) const {
        const QString lowercase = language.toLower();
        for (const QString &key : {lowercase, squeezed(language)}) {
            const auto found = byLowercaseName.constFind(key);
            if (found != byLowercaseName.constEnd()) {
                return found.value();
            }
        }
        // A file extension ("py", "rs") or a file name the definitions claim ("Dockerfile").
        Definition byExtension = repository.definitionForFileName(QStringLiteral("file.") + language);
        if (byExtension.isValid()) {
            return byExtension;
        }
        return repository.definitionForFileName(language);
    }
};

std::mutex libraryLock;

/// The library's one `Repository` and the styles read from it. Made on first use and never
/// destroyed, as the line memo (typeset_tshl_highlight): at the process's exit a thread may
/// still be highlighting (a render's loader runs until its samples are done or it is
/// cancelled), and destroying them then would pull the definitions from under it; nor is there
/// anything to gain in freeing every definition's rules, block by block, as the process ends.
Library &library() {
    static Library &shared = *new Library;
    return shared;
}

/// Collects the formats of one line as UTF-8 byte spans of the whole text.
class SpanCollector final : public AbstractHighlighter {
public:
    std::vector<TSHighlightSpan> spans;
    /// UTF-8 byte offset in the whole text of each UTF-16 unit of the current line, plus its end.
    std::vector<int32_t> byteOffsets;
    /// The styles of the Diff definition's line formats (Library::diffLineStyles).
    const QHash<quint16, int> *diffLineStyles = nullptr;

    State highlight(QStringView line, const State &state) { return highlightLine(line, state); }

protected:
    void applyFormat(int offset, int length, const Format &format) override {
        int style = static_cast<int>(format.textStyle());
        if (style == 0 || length <= 0 || offset < 0) {
            return;
        }
        // Only String (12) and Variable (3) formats can be the Diff definition's lines.
        if ((style == 12 || style == 3) && diffLineStyles != nullptr) {
            style = diffLineStyles->value(format.id(), style);
        }
        const size_t end = static_cast<size_t>(offset + length);
        if (end >= byteOffsets.size()) {
            return;
        }
        const int32_t startByte = byteOffsets[static_cast<size_t>(offset)];
        const int32_t endByte = byteOffsets[end];
        if (!spans.empty() && spans.back().style == style && spans.back().start + spans.back().length == startByte) {
            spans.back().length = endByte - spans.back().start;
            return;
        }
        spans.push_back(TSHighlightSpan{startByte, endByte - startByte, style});
    }
};

/// Lines highlighted before, with the state each began and ended in and its spans (their
/// starts counted from the line's first byte). KSyntaxHighlighting's `State::operator==`
/// promises that "for two equal states and identical text input, AbstractHighlighter guarantees
/// to produce equal results" (state.h), which is what editors re-highlight by; here it lets a
/// line met again in the same definition and state (a closing brace, a blank line, an import
/// every sample opens with) take its spans without the definition's rules being run again.
class LineMemo {
public:
    struct Result {
        State before;
        State after;
        std::vector<TSHighlightSpan> spans;
    };

    /// The result of `key` (the definition's name, a NUL, the line) begun in `before`, if kept.
    const Result *find(const QString &key, const State &before) const {
        const auto found = results.constFind(key);
        if (found == results.constEnd()) {
            return nullptr;
        }
        for (const Result &result : found.value()) {
            if (result.before == before) {
                return &result;
            }
        }
        return nullptr;
    }

    /// Keeps `result` for `key`: at most four states a line, and at most `capacity` bytes in all
    /// (all are given up when full, and kept again from the next line on).
    void store(const QString &key, Result result) {
        const size_t size = static_cast<size_t>(key.size()) * 2 + result.spans.size() * sizeof(TSHighlightSpan) + 96;
        if (bytes + size > capacity) {
            results.clear();
            bytes = 0;
        }
        std::vector<Result> &kept = results[key];
        if (kept.size() >= 4) {
            return;
        }
        kept.push_back(std::move(result));
        bytes += size;
    }

private:
    static constexpr size_t capacity = 4u << 20;
    QHash<QString, std::vector<Result>> results;
    size_t bytes = 0;
};

/// The longest line, in UTF-8 bytes, that is highlighted; a longer one is set plain (typeset_tshl_highlight).
/// Measured on 240 KB of `<a b="` as HTML: in lines of 1,000 to 8,000 bytes the whole render
/// takes the same time (0.75–0.83 s), in lines of 16,000 bytes 1.02 s and on one line 3.9 s.
constexpr size_t kLongestHighlightedLine = 4096;

/// The number of UTF-8 bytes of the character a UTF-16 unit starts (0 for a low surrogate,
/// whose bytes its high surrogate counts).
int32_t utf8Bytes(char16_t unit) {
    if (unit < 0x80) return 1;
    if (unit < 0x800) return 2;
    if (unit >= 0xD800 && unit < 0xDC00) return 4;
    if (unit >= 0xDC00 && unit < 0xE000) return 0;
    return 3;
}

}  // namespace

// Qt 5 compiles every regular expression's just-in-time code for the three modes PCRE2 has
// (`PCRE2_JIT_COMPLETE | PCRE2_JIT_PARTIAL_SOFT | PCRE2_JIT_PARTIAL_HARD`, qregularexpression.cpp's
// `optimizePattern`), as soon as the pattern is compiled. KSyntaxHighlighting matches only
// whole (`QRegularExpression::NormalMatch`), which runs the complete mode's code, so the partial
// modes' code was two thirds of the compiling and never ran. Qt looks this function up where
// the dynamic loader looks, this library first among the ones loaded with it, so Qt's calls
// come here and only the complete mode is compiled. A partial match, were one asked for, would
// run in PCRE2's interpreter, which finds the same matches (pcre2jit(3), "UNSUPPORTED OPTIONS
// AND PATTERN ITEMS" and "PARTIAL MATCHING").
extern "C" __attribute__((visibility("default"))) int pcre2_jit_compile_16(void *code, uint32_t options) {
    using Compile = int (*)(void *, uint32_t);
    static const Compile compile = reinterpret_cast<Compile>(dlsym(RTLD_NEXT, "pcre2_jit_compile_16"));
    // PCRE2_JIT_COMPLETE (pcre2.h), and PCRE2_ERROR_JIT_BADOPTION, which leaves the pattern
    // to the interpreter, when PCRE2 is not found.
    constexpr uint32_t completeMode = 0x1;
    return compile != nullptr ? compile(code, options & completeMode) : -45;
}

extern "C" int32_t typeset_tshl_resolve_language(const char *language, char *buffer, int32_t capacity) {
    if (language == nullptr || buffer == nullptr || capacity <= 0 || language[0] == '\0') {
        return 0;
    }
    std::lock_guard<std::mutex> guard(libraryLock);
    const Definition definition = library().resolve(QString::fromUtf8(language));
    if (!definition.isValid()) {
        return 0;
    }
    const QByteArray name = definition.name().toUtf8();
    if (name.size() + 1 > capacity) {
        return 0;
    }
    std::memcpy(buffer, name.constData(), static_cast<size_t>(name.size()));
    buffer[name.size()] = '\0';
    return static_cast<int32_t>(name.size());
}

extern "C" int32_t typeset_tshl_highlight(const char *definitionName, const char *text, size_t length,
                                  TSHighlightSpan **spans) {
    if (spans == nullptr) {
        return -1;
    }
    *spans = nullptr;
    if (definitionName == nullptr || text == nullptr) {
        return -1;
    }
    std::lock_guard<std::mutex> guard(libraryLock);
    const Definition definition = library().repository.definitionForName(QString::fromUtf8(definitionName));
    if (!definition.isValid()) {
        return -1;
    }
    SpanCollector collector;
    collector.diffLineStyles = &library().diffLineStyles;
    collector.setDefinition(definition);
    // Never destroyed, as the library (library()).
    static LineMemo &memo = *new LineMemo;
    QString key = definition.name();
    key += QChar(0);
    const int definitionPart = key.size();
    State state;
    size_t lineStart = 0;
    while (lineStart <= length) {
        const void *newline = std::memchr(text + lineStart, '\n', length - lineStart);
        const size_t lineEnd = newline ? static_cast<size_t>(static_cast<const char *>(newline) - text) : length;
        // A line longer than kLongestHighlightedLine is set plain, and the next line goes on in
        // the state before it: some definitions take time that grows faster than a line's
        // length (HTML's attribute rules on `<a b="` repeated: 240 KB on one line took 3.9 s).
        if (lineEnd - lineStart > kLongestHighlightedLine) {
            if (newline == nullptr) {
                break;
            }
            lineStart = lineEnd + 1;
            continue;
        }
        const QString line = QString::fromUtf8(text + lineStart, static_cast<int>(lineEnd - lineStart));
        key.truncate(definitionPart);
        key += line;
        const int32_t lineOffset = static_cast<int32_t>(lineStart);
        if (const LineMemo::Result *known = memo.find(key, state)) {
            for (const TSHighlightSpan &span : known->spans) {
                collector.spans.push_back(TSHighlightSpan{span.start + lineOffset, span.length, span.style});
            }
            state = known->after;
        } else {
            collector.byteOffsets.clear();
            int32_t byte = lineOffset;
            for (const QChar unit : line) {
                collector.byteOffsets.push_back(byte);
                byte += utf8Bytes(unit.unicode());
            }
            collector.byteOffsets.push_back(byte);
            const size_t firstSpan = collector.spans.size();
            LineMemo::Result result{state, collector.highlight(QStringView(line), state), {}};
            for (size_t index = firstSpan; index < collector.spans.size(); ++index) {
                const TSHighlightSpan span = collector.spans[index];
                result.spans.push_back(TSHighlightSpan{span.start - lineOffset, span.length, span.style});
            }
            state = result.after;
            memo.store(key, std::move(result));
        }
        if (newline == nullptr) {
            break;
        }
        lineStart = lineEnd + 1;
    }
    const size_t count = collector.spans.size();
    if (count == 0) {
        return 0;
    }
    auto *result = static_cast<TSHighlightSpan *>(std::malloc(count * sizeof(TSHighlightSpan)));
    if (result == nullptr) {
        return 0;
    }
    std::memcpy(result, collector.spans.data(), count * sizeof(TSHighlightSpan));
    *spans = result;
    return static_cast<int32_t>(count);
}



extern "C" int32_t typeset_tshl_definition_count(void) {
    std::lock_guard<std::mutex> guard(libraryLock);
    return static_cast<int32_t>(library().repository.definitions().size());
}

extern "C" int32_t typeset_tshl_theme_count(void) {
    std::lock_guard<std::mutex> guard(libraryLock);
    return static_cast<int32_t>(library().repository.themes().size());
}

extern "C" int32_t typeset_tshl_theme_name(int32_t index, char *buffer, int32_t capacity) {
    if (buffer == nullptr || capacity <= 0 || index < 0) {
        return 0;
    }
    std::lock_guard<std::mutex> guard(libraryLock);
    const QVector<KSyntaxHighlighting::Theme> themes = library().repository.themes();
    if (index >= themes.size()) {
        return 0;
    }
    const QByteArray name = themes[index].name().toUtf8();
    if (name.size() + 1 > capacity) {
        return 0;
    }
    std::memcpy(buffer, name.constData(), static_cast<size_t>(name.size()));
    buffer[name.size()] = '\0';
    return static_cast<int32_t>(name.size());
}

extern "C" int32_t typeset_tshl_theme_styles(const char *name, TSThemeStyle *styles, uint32_t *background) {
    using KSyntaxHighlighting::Theme;
    if (name == nullptr || styles == nullptr || background == nullptr) {
        return 0;
    }
    std::lock_guard<std::mutex> guard(libraryLock);
    const Theme theme = library().repository.theme(QString::fromUtf8(name));
    if (!theme.isValid() || theme.name() != QString::fromUtf8(name)) {
        return 0;
    }
    for (int style = 0; style <= static_cast<int>(Theme::Others); ++style) {
        const auto textStyle = static_cast<Theme::TextStyle>(style);
        const QRgb color = theme.textColor(textStyle);
        styles[style].color = color & 0xFFFFFFu;
        styles[style].has_color = color != 0 ? 1 : 0;
        styles[style].bold = theme.isBold(textStyle) ? 1 : 0;
        styles[style].italic = theme.isItalic(textStyle) ? 1 : 0;
        const QRgb background = theme.backgroundColor(textStyle);
        styles[style].background = background & 0xFFFFFFu;
        styles[style].has_background = background != 0 ? 1 : 0;
    }
    *background = theme.editorColor(Theme::BackgroundColor) & 0xFFFFFFu;
    return 1;
}

// The library holds no Swift code, but SwiftPM links its Swift runtime registration (swiftrt.o)
// into every shared library it builds: a constructor that hands the library's Swift metadata,
// of which it has none, to `swift_addNewDSOImage`. Defined here, hidden, that call stays in the
// library, and linked with the static Swift runtime (`-static-stdlib`, Package.swift) the
// library takes nothing from it and depends on no libswiftCore.so: loading it does not load a
// second Swift runtime (2 MB resident, 1.6 ms) beside the one linked into `typeset`.
extern "C" __attribute__((visibility("hidden"))) void swift_addNewDSOImage(const void *) {}
extern "C" __attribute__((visibility("hidden"))) bool _swift_backtrace_isThunkFunction(const char *) { return false; }
