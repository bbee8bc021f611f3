#ifndef TYPESET_BUILD_INFO_H
#define TYPESET_BUILD_INFO_H
/// The git commit the binary was built from (`make build` writes it), or "unknown".
const char *typeset_build_commit(void);
#endif
