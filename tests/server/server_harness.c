/*
 * server_harness.c - see server_harness.h.
 */
#define _GNU_SOURCE
#include "server_harness.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static void print_log(const test_daemon *d) {
    FILE *f = fopen(d->log, "r");
    if (!f) return;
    char line[1024];
    fprintf(stderr, "---- daemon log %s ----\n", d->log);
    while (fgets(line, sizeof line, f)) fputs(line, stderr);
    fclose(f);
}

int daemon_start(test_daemon *d, const char *bin, const char *const *extra) {
    memset(d, 0, sizeof *d);
    snprintf(d->dir, sizeof d->dir, "/tmp/attu_srv_testXXXXXX");
    if (!mkdtemp(d->dir)) return -1;
    snprintf(d->log, sizeof d->log, "%s/attud.log", d->dir);
    char ready[320];
    snprintf(ready, sizeof ready, "%s/ready", d->dir);
    const char *argv[64];
    int n = 0;
    argv[n++] = bin;
    argv[n++] = "--port"; argv[n++] = "0";
    argv[n++] = "--ready-file"; argv[n++] = ready;
    argv[n++] = "--log-level"; argv[n++] = "info";
    for (int i = 0; extra && extra[i] && n < 60; i++) argv[n++] = extra[i];
    argv[n] = NULL;
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int fd = open(d->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) { dup2(fd, 1); dup2(fd, 2); close(fd); }
        execv(bin, (char *const *)argv);
        _exit(127);
    }
    d->pid = pid;
    for (int i = 0; i < 1000; i++) {   /* up to 20 s (ASan start-up is slow) */
        FILE *f = fopen(ready, "r");
        if (f) {
            int ok = fscanf(f, "%d", &d->port) == 1;
            fclose(f);
            if (ok && d->port > 0) return 0;
        }
        int st;
        if (waitpid(pid, &st, WNOHANG) == pid) { d->pid = 0; print_log(d); return -1; }
        usleep(20000);
    }
    print_log(d);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    d->pid = 0;
    return -1;
}

void daemon_cleanup(test_daemon *d) {
    char ready[320];
    snprintf(ready, sizeof ready, "%s/ready", d->dir);
    unlink(ready);
    unlink(d->log);
    rmdir(d->dir);
}

int daemon_stop(test_daemon *d) {
    if (!d->pid) return -1;
    kill(d->pid, SIGTERM);
    int st = 0;
    for (int i = 0; i < 1500; i++) {
        if (waitpid(d->pid, &st, WNOHANG) == d->pid) {
            d->pid = 0;
            int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
            if (rc != 0) {
                print_log(d);   /* and keep the folder for a look */
            } else {
                daemon_cleanup(d);
            }
            return rc;
        }
        usleep(20000);
    }
    print_log(d);
    kill(d->pid, SIGKILL);
    waitpid(d->pid, NULL, 0);
    d->pid = 0;
    return -1;
}

void daemon_conninfo(const test_daemon *d, char *out, size_t cap) {
    snprintf(out, cap, "host=127.0.0.1 port=%d user=attu dbname=attu sslmode=disable "
             "connect_timeout=10", d->port);
}

int raw_connect(int port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) { close(fd); return -1; }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

int raw_send(int fd, const void *p, size_t n) {
    const char *c = p;
    while (n) {
        ssize_t w = send(fd, c, n, MSG_NOSIGNAL);
        if (w < 0) { if (errno == EINTR) continue; return -1; }
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

int raw_send_msg(int fd, char type, const void *payload, size_t n) {
    char hdr[5];
    uint32_t len = htonl((uint32_t)n + 4);
    hdr[0] = type;
    memcpy(hdr + 1, &len, 4);
    if (raw_send(fd, hdr, 5)) return -1;
    return n ? raw_send(fd, payload, n) : 0;
}

int raw_startup(int fd, const char *user) {
    char pkt[256];
    size_t n = 8;
    n += (size_t)snprintf(pkt + n, sizeof pkt - n, "user") + 1;
    n += (size_t)snprintf(pkt + n, sizeof pkt - n, "%s", user) + 1;
    pkt[n++] = 0;
    uint32_t len = htonl((uint32_t)n), ver = htonl(196608u);
    memcpy(pkt, &len, 4);
    memcpy(pkt + 4, &ver, 4);
    return raw_send(fd, pkt, n);
}

static int read_full(int fd, char *p, size_t n, int timeout_ms) {
    double end = now_ms() + timeout_ms;
    while (n) {
        struct pollfd pfd = { fd, POLLIN, 0 };
        int left = (int)(end - now_ms());
        if (left <= 0 || poll(&pfd, 1, left) <= 0) return -1;
        ssize_t r = recv(fd, p, n, 0);
        if (r <= 0) { if (r < 0 && errno == EINTR) continue; return -1; }
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

long raw_read_msg(int fd, char *type, char **payload, int timeout_ms) {
    char hdr[5];
    *payload = NULL;
    if (read_full(fd, hdr, 5, timeout_ms)) return -1;
    uint32_t len;
    memcpy(&len, hdr + 1, 4);
    len = ntohl(len);
    if (len < 4 || len > (1u << 30)) return -1;
    *type = hdr[0];
    char *p = malloc(len - 4 + 1);
    if (!p) return -1;
    if (len > 4 && read_full(fd, p, len - 4, timeout_ms)) { free(p); return -1; }
    p[len - 4] = 0;
    *payload = p;
    return (long)len - 4;
}

int raw_until_ready(int fd, int timeout_ms) {
    for (;;) {
        char t;
        char *p;
        long n = raw_read_msg(fd, &t, &p, timeout_ms);
        free(p);
        if (n < 0) return -1;
        if (t == 'Z') return 0;
    }
}

const char *raw_error_field(const char *payload, long len, char code) {
    const char *p = payload, *end = payload + len;
    while (p < end && *p) {
        char c = *p++;
        if (c == code) return p;
        p += strlen(p) + 1;
    }
    return "";
}

int raw_expect_error_then_eof(int fd, const char *sqlstate, int timeout_ms) {
    int saw = 0;
    for (;;) {
        char t;
        char *p;
        long n = raw_read_msg(fd, &t, &p, timeout_ms);
        if (n < 0) break;
        if (t == 'E' && !strcmp(raw_error_field(p, n, 'C'), sqlstate)) saw = 1;
        free(p);
    }
    /* the daemon must have closed, not merely gone quiet */
    char b;
    struct pollfd pfd = { fd, POLLIN, 0 };
    int closed = poll(&pfd, 1, timeout_ms) == 1 && recv(fd, &b, 1, 0) <= 0;
    return saw && closed;
}
