#ifndef CINTL_SHIM_H
#define CINTL_SHIM_H

// glibc's gettext and locale functions (libintl is part of glibc: nothing to link). Swift's Glibc module leaves
// libintl.h out.
#include <libintl.h>
#include <locale.h>

#endif
