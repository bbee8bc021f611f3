#ifndef TYPESET_CNUMBERFORMATTING_H
#define TYPESET_CNUMBERFORMATTING_H

#include <stddef.h>

/// Writes `value` with `digits` (0…18) digits after the point into `buffer` (at most `size`
/// bytes, terminated), as `snprintf(buffer, size, "%.*f", digits, value)` does in the C locale
/// and the round-to-nearest mode; returns the length of the whole text (as snprintf does), or -1
/// without writing when it leaves the value to glibc (not finite, |value| ≥ 2^63, more digits,
/// another rounding mode or decimal point).
int typeset_format_fixed(char *buffer, size_t size, double value, int digits);

/// 1 when the process's calls of `__snprintf_chk` (libcairo's included) reach this target's
/// definition (NumberFormatting.c); 0 when they reach glibc's. Asked once.
int typeset_number_formatting_in_effect(void);

#endif
