#ifndef SHEAF_CGIT2_SHIM_H
#define SHEAF_CGIT2_SHIM_H
#include <git2.h>
#endif
