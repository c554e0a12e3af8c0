#ifndef SHEAF_ALLOCATION_WATCH_H
#define SHEAF_ALLOCATION_WATCH_H

/// 1 once any allocation of this process has failed (malloc and its kin returned NULL), else 0.
int sheaf_allocation_failed(void);

#endif
