#ifndef SHEAF_GIT2_LOADER_H
#define SHEAF_GIT2_LOADER_H
/* libgit2 is bound lazily (git2_loader.c): whether this process has loaded it yet. */
int sheaf_git2_is_loaded(void);
#endif
