#define _GNU_SOURCE
#include <sys/prctl.h>
#include <signal.h>
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>
#include "spawn_actions.h"

int sheaf_spawn_add_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

int sheaf_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int sheaf_pipe_closing_on_exec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int sheaf_die_with_parent(int parent) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return -1;
    return getppid() == parent ? 0 : -1;
}
