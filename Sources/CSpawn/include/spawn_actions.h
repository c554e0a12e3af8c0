#ifndef SHEAF_SPAWN_ACTIONS_H
#define SHEAF_SPAWN_ACTIONS_H
#include <spawn.h>
/* glibc's GNU spawn file actions and pipe2, which Swift's Glibc module does not show (they need _GNU_SOURCE):
   close every descriptor from `from` up in the child, and start it in `path`. 0 or an errno. */
int sheaf_spawn_add_close_from(posix_spawn_file_actions_t *actions, int from);
int sheaf_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path);
/* pipe2(fds, O_CLOEXEC): both ends close-on-exec from the start, so no child another thread
   spawns meanwhile inherits them. 0, or -1 with errno set. */
int sheaf_pipe_closing_on_exec(int fds[2]);
/* prctl(PR_SET_PDEATHSIG, SIGKILL) (prctl is variadic, so Swift cannot call it): the calling
   process is killed when the thread that started it ends. Then 0 when that parent is still
   `parent`, else -1 (it was gone before the call took hold). */
int sheaf_die_with_parent(int parent);
#endif
