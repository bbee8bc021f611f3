// Fixed-point formatting of a double (`%f`, `%.Nf`, `%.*f`) without glibc's general conversion,
// for the numbers Cairo writes into every PDF content stream.
//
// Cairo 1.16 writes each coordinate, matrix entry and glyph adjustment of a page through
// `_cairo_dtostr` (cairo-output-stream.c), which formats it with `snprintf("%f")`, or, for a
// number below 0.1, `"%.18f"` and then `"%.*f"` with enough digits. glibc converts each through
// its arbitrary-precision path (`__printf_fp`): about 2,000 instructions a number, a sixth of
// the work of a page of many short runs (a list, a paragraph of links or footnote references).
//
// This file defines `__snprintf_chk`, the function Cairo calls for it (Debian builds Cairo with
// _FORTIFY_SOURCE). The executable's definition comes first in the process's symbol lookup, so
// libcairo's calls reach it, as they reach CFaceSharing's; every other format, and every value
// this file does not convert itself, goes on to glibc's `__vsnprintf_chk`.
// A double is m × 2^e with m < 2^53; for |value| < 2^63 and at most 18 digits after the point,
// m × 10^digits fits in 128 bits, so the digits are those of an exact integer division, rounded
// to nearest with ties to even: the conversion glibc makes (C11 7.21.6.1: "correctly rounded"),
// in the round-to-nearest mode and with the "." decimal point of the C locale, the only cases
// taken here.

#define _GNU_SOURCE
#include <dlfcn.h>
#include <fenv.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CNumberFormatting.h"

int __vsnprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *format, va_list ap);

/// 10^k for k in 0...18.
static const uint64_t powersOfTen[19] = {
    1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL, 100000000ULL,
    1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL, 10000000000000ULL,
    100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
    1000000000000000000ULL,
};

int typeset_format_fixed(char *buffer, size_t size, double value, int digits) {
    if (!isfinite(value) || digits < 0 || digits > 18) return -1;
    if (fegetround() != FE_TONEAREST) return -1;
    const char *point = localeconv()->decimal_point;
    if (point == NULL || point[0] != '.' || point[1] != '\0') return -1;
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    int negative = (int)(bits >> 63);
    int biased = (int)((bits >> 52) & 0x7FF);
    uint64_t mantissa = bits & ((1ULL << 52) - 1);
    if (biased == 0) {
        biased = 1;  // a subnormal: m × 2^-1074
    } else {
        mantissa |= 1ULL << 52;
    }
    int exponent = biased - 1075;  // value = mantissa × 2^exponent
    if (exponent > 10) return -1;  // |value| ≥ 2^63
    unsigned __int128 scaled = (unsigned __int128)mantissa * powersOfTen[digits];
    unsigned __int128 quotient;
    if (exponent >= 0) {
        quotient = scaled << exponent;
    } else if (exponent <= -120) {
        quotient = 0;  // scaled < 2^113, less than half of 2^-exponent: rounds to 0
    } else {
        int shift = -exponent;
        quotient = scaled >> shift;
        unsigned __int128 remainder = scaled - (quotient << shift);
        unsigned __int128 half = (unsigned __int128)1 << (shift - 1);
        if (remainder > half || (remainder == half && (quotient & 1))) quotient += 1;
    }
    char reversed[48];
    int count = 0;
    // Digits of the 128-bit quotient until it fits in 64 bits (a 128-bit division is a call
    // into the compiler's runtime; the coordinates Cairo writes fit from the start).
    while (quotient > UINT64_MAX) {
        reversed[count++] = (char)('0' + (int)(quotient % 10));
        quotient /= 10;
    }
    uint64_t rest = (uint64_t)quotient;
    do {
        reversed[count++] = (char)('0' + (int)(rest % 10));
        rest /= 10;
    } while (rest > 0);
    while (count < digits + 1) reversed[count++] = '0';
    char text[64];
    int length = 0;
    if (negative) text[length++] = '-';
    for (int i = count - 1; i >= digits; i--) text[length++] = reversed[i];
    if (digits > 0) {
        text[length++] = '.';
        for (int i = digits - 1; i >= 0; i--) text[length++] = reversed[i];
    }
    if (size > 0) {
        size_t copied = (size_t)length < size - 1 ? (size_t)length : size - 1;
        memcpy(buffer, text, copied);
        buffer[copied] = '\0';
    }
    return length;
}

/// The digits after the point that `format` asks of one double, reading `*.` from `ap`:
/// `%f` (6), `%.Nf` or `%.*f`; -1 for any other format.
static int fixedDigits(const char *format, va_list *ap) {
    if (format[0] != '%') return -1;
    if (format[1] == 'f' && format[2] == '\0') return 6;
    if (format[1] != '.') return -1;
    if (format[2] == '*' && format[3] == 'f' && format[4] == '\0') return va_arg(*ap, int);
    int digits = 0;
    int at = 2;
    while (format[at] >= '0' && format[at] <= '9' && at < 4) digits = digits * 10 + (format[at++] - '0');
    return at > 2 && format[at] == 'f' && format[at + 1] == '\0' ? digits : -1;
}

/// Set from `TYPESET_GLIBC_NUMBERS=1` when the process starts: every format goes to glibc (to
/// compare the two, as the tests do).
static int glibcOnly;

__attribute__((constructor)) static void readEnvironment(void) {
    const char *setting = getenv("TYPESET_GLIBC_NUMBERS");
    glibcOnly = setting != NULL && strcmp(setting, "1") == 0;
}

int __snprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *format, ...) {
    va_list ap;
    va_start(ap, format);
    if (!glibcOnly && maxlen <= slen && format != NULL) {
        va_list peek;
        va_copy(peek, ap);
        int digits = fixedDigits(format, &peek);
        int length = digits >= 0 ? typeset_format_fixed(s, maxlen, va_arg(peek, double), digits) : -1;
        va_end(peek);
        if (length >= 0) {
            va_end(ap);
            return length;
        }
    }
    int result = __vsnprintf_chk(s, maxlen, flag, slen, format, ap);
    va_end(ap);
    return result;
}

static int inEffect;

static void checkInEffect(void) {
    void *found = dlsym(RTLD_DEFAULT, "__snprintf_chk");
    inEffect = found != NULL && found == (void *)&__snprintf_chk;
}

int typeset_number_formatting_in_effect(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, checkInEffect);
    return inEffect;
}
