// libhyphen (Debian libhyphen-dev): Liang's pattern hyphenation, as used by LibreOffice.
#include <hyphen.h>
