#ifndef TYPESET_CGIO_SHIM_H
#define TYPESET_CGIO_SHIM_H
// GIO: the file monitor `typeset watch` waits on (GFileMonitor, inotify on Linux).
#include <gio/gio.h>
#endif
