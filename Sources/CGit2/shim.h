#ifndef SHEAF_CGIT2_SHIM_H
#define SHEAF_CGIT2_SHIM_H
#include <git2.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

/* git_libgit2_opts is variadic, which Swift cannot call: one wrapper per option used. */
static inline int sheaf_git_set_ssl_cert_locations(const char *file, const char *path) {
    return git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, file, path);
}

/* Pack files are read through mapped windows: their size and how much may be mapped at once
   (the mapped pages of a large pack count in the resident memory of every command). */
static inline int sheaf_git_set_mwindow(size_t window, size_t mapped_limit) {
    int rc = git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, window);
    if (rc != 0) return rc;
    return git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, mapped_limit);
}

/* Whether adding an index entry or writing a tree first checks that the objects it names exist
   (libgit2 reads each object's header, resolving deltas: costly for entries taken from a tree). */
static inline int sheaf_git_set_strict_object_creation(int on) {
    return git_libgit2_opts(GIT_OPT_ENABLE_STRICT_OBJECT_CREATION, on);
}

/* For the transfer watchdog: whether fd is a TCP socket, and if so how many milliseconds ago it
   last received data and an acknowledgement (from the kernel's TCP_INFO). Returns 0 when fd is
   a TCP socket. */
static inline int sheaf_tcp_idle(int fd, unsigned int *last_data_recv, unsigned int *last_ack_recv) {
    int domain = 0, type = 0;
    socklen_t size = sizeof(int);
    if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &size) != 0) return -1;
    if (domain != AF_INET && domain != AF_INET6) return -1;
    size = sizeof(int);
    if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &size) != 0 || type != SOCK_STREAM) return -1;
    struct tcp_info info;
    size = sizeof(info);
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &size) != 0) return -1;
    *last_data_recv = info.tcpi_last_data_recv;
    *last_ack_recv = info.tcpi_last_ack_recv;
    return 0;
}
#endif
