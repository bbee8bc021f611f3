// The commit `typeset --version` prints. `make build` writes commit.h (git rev-parse --short
// HEAD, with -dirty for uncommitted changes) beside this file; a plain `swift build` has none.
#include "build_info.h"
#if __has_include("commit.h")
#include "commit.h"
#endif
#ifndef TYPESET_COMMIT
#define TYPESET_COMMIT "unknown"
#endif

const char *typeset_build_commit(void) { return TYPESET_COMMIT; }
