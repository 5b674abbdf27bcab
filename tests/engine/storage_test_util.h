/* Helpers shared by the storage tests (test_storage.c, test_storage_append.c):
 * temporary data directories, damaging a file, and crashes: a forked child
 * runs a save or a commit, the storage's test hook stops it at a named stage,
 * and the parent kills it there with SIGKILL. */
#ifndef ATTU_TEST_STORAGE_UTIL_H
#define ATTU_TEST_STORAGE_UTIL_H

#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/storage.h"

/* A fresh directory under /tmp named after prefix; the caller frees it. */
static inline char *storage_tmp_dir(const char *prefix) {
    char *d = malloc(strlen(prefix) + 16);
    cr_assert_not_null(d);
    sprintf(d, "/tmp/%s_XXXXXX", prefix);
    cr_assert_not_null(mkdtemp(d));
    return d;
}

static inline void rm_rf(const char *d) {
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", d);
    cr_assert_eq(system(cmd), 0);
}

/* Flips one bit of the byte at offset `at` of the file. */
static inline void flip_byte(const char *path, off_t at) {
    int fd = open(path, O_RDWR);
    cr_assert_geq(fd, 0, "%s", path);
    unsigned char ch;
    cr_assert_eq(pread(fd, &ch, 1, at), 1);
    ch ^= 0x10;
    cr_assert_eq(pwrite(fd, &ch, 1, at), 1);
    close(fd);
}

/* The child's side: at g_stop_stage, tell the parent and wait to be killed. */
static const char *g_stop_stage;
static int g_stop_pipe;
static inline void storage_stop_hook(const char *stage) {
    if (strcmp(stage, g_stop_stage) != 0) return;
    char ch = 'x';
    if (write(g_stop_pipe, &ch, 1) != 1) _exit(3);
    for (;;) pause();
}

/* Forks a child that runs fn(arg) with the hook stopping it at stage, and
 * kills it there. */
static inline void kill_at(const char *stage, void (*fn)(void *), void *arg) {
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        close(fds[0]);
        g_stop_pipe = fds[1];
        g_stop_stage = stage;
        attu_storage_test_hook = storage_stop_hook;
        fn(arg);
        _exit(2);   /* the hook never returns */
    }
    close(fds[1]);
    char ch;
    cr_assert_eq(read(fds[0], &ch, 1), 1, "child reached %s", stage);
    close(fds[0]);
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

#endif
