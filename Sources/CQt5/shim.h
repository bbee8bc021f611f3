#ifndef TYPESET_CQT5_SHIM_H
#define TYPESET_CQT5_SHIM_H
// Qt 5's compiler flags (include paths from pkg-config `Qt5Gui`, which requires `Qt5Core`) for the
// C++ target that calls KSyntaxHighlighting. No Swift code imports this module: Qt's headers are
// C++ and no Qt type crosses into Swift.
#endif
