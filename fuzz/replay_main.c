/* Replay driver: runs a fuzz target over files and directories without a fuzzing
 * engine, so corpora and reproducers are plain regression tests.
 *
 *   replay_X PATH...        run every file under each PATH (directories recursively,
 *                           sorted), print TAP
 *   replay_X                the same over the directories compiled in as
 *                           FUZZ_DEFAULT_DIRS (what `make check` runs)
 *
 * Each input runs in a child process, so one crash is reported with its file name and
 * the remaining inputs still run. Files under a directory named "regress" (minimised
 * reproducers) get one TAP line each; every other directory gets one line for all its
 * files, since merged corpora hold thousands of inputs. Set FUZZ_REPLAY_NOFORK=1 to run
 * in-process (for a debugger). */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz.h"

#ifndef FUZZ_DEFAULT_DIRS
#define FUZZ_DEFAULT_DIRS ""
#endif
#ifndef FUZZ_TIMEOUT
#define FUZZ_TIMEOUT 120
#endif

typedef struct strlist {
    char **v;
    size_t n, cap;
} strlist;

static void strlist_push(strlist *l, const char *s)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v) {
            perror("realloc");
            exit(2);
        }
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n] = strdup(s);
    if (!l->v[l->n]) {
        perror("strdup");
        exit(2);
    }
    l->n++;
}

static void strlist_free(strlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_dir(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* Lists the regular files directly in `dir` into files, and subdirectories into dirs. */
static int list_dir(const char *dir, strlist *files, strlist *dirs)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        char *p = malloc(len);
        if (!p) {
            perror("malloc");
            exit(2);
        }
        snprintf(p, len, "%s/%s", dir, e->d_name);
        struct stat sb;
        if (stat(p, &sb) == 0) {
            if (S_ISDIR(sb.st_mode))
                strlist_push(dirs, p);
            else if (S_ISREG(sb.st_mode))
                strlist_push(files, p);
        }
        free(p);
    }
    closedir(d);
    if (files->n > 1)
        qsort(files->v, files->n, sizeof *files->v, cmp_str);
    if (dirs->n > 1)
        qsort(dirs->v, dirs->n, sizeof *dirs->v, cmp_str);
    return 0;
}

static int read_file(const char *path, uint8_t **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        return -1;
    }
    for (;;) {
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                fclose(f);
                return -1;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return -1;
    }
    /* Exact-size copy so that ASan/valgrind catch a target reading past the input. */
    uint8_t *exact = malloc(n ? n : 1);
    if (!exact) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, n);
    free(buf);
    *out = exact;
    *len = n;
    return 0;
}

static int run_inprocess(const char *path)
{
    uint8_t *data;
    size_t len;
    if (read_file(path, &data, &len) != 0) {
        fprintf(stderr, "cannot read %s: %s\n", path, strerror(errno));
        return 2;
    }
    LLVMFuzzerTestOneInput(data, len);
    free(data);
    return 0;
}

/* Returns 0 when the target accepted the input; otherwise prints why not. */
static int run_one(const char *path)
{
    const char *nofork = getenv("FUZZ_REPLAY_NOFORK");
    if (nofork && strcmp(nofork, "1") == 0)
        return run_inprocess(path);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 2;
    }
    if (pid == 0) {
        alarm(FUZZ_TIMEOUT);
        /* exit(), not _exit(): gcov and LeakSanitizer report at exit. */
        exit(run_inprocess(path));
    }
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            perror("waitpid");
            return 2;
        }
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    if (WIFSIGNALED(status))
        printf("# %s: killed by signal %d%s\n", path, WTERMSIG(status),
               WTERMSIG(status) == SIGALRM ? " (timeout)" : "");
    else
        printf("# %s: exit status %d\n", path, WEXITSTATUS(status));
    return 1;
}

typedef struct tap {
    unsigned n, failed;
} tap;

static void tap_line(tap *t, int ok, const char *fmt, ...) FUZZ_PRINTF(3, 4);

static void tap_line(tap *t, int ok, const char *fmt, ...)
{
    t->n++;
    if (!ok)
        t->failed++;
    printf("%s %u - ", ok ? "ok" : "not ok", t->n);
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

static void replay_dir(tap *t, const char *dir)
{
    strlist files = { 0 }, dirs = { 0 };
    if (list_dir(dir, &files, &dirs) != 0) {
        printf("# cannot open %s: %s\n", dir, strerror(errno));
        tap_line(t, 0, "%s: readable directory", dir);
        return;
    }
    const char *base = strrchr(dir, '/');
    base = base ? base + 1 : dir;
    if (strcmp(base, "regress") == 0) {
        for (size_t i = 0; i < files.n; i++)
            tap_line(t, run_one(files.v[i]) == 0, "reproducer %s", files.v[i]);
    } else if (files.n) {
        size_t bad = 0;
        for (size_t i = 0; i < files.n; i++)
            bad += run_one(files.v[i]) != 0;
        tap_line(t, bad == 0, "corpus %s (%zu files)", dir, files.n);
    }
    for (size_t i = 0; i < dirs.n; i++)
        replay_dir(t, dirs.v[i]);
    strlist_free(&files);
    strlist_free(&dirs);
}

int main(int argc, char **argv)
{
    tap t = { 0, 0 };
    strlist paths = { 0 };
    for (int i = 1; i < argc; i++)
        strlist_push(&paths, argv[i]);
    if (paths.n == 0) {
        /* FUZZ_DEFAULT_DIRS is a colon-separated list. */
        char *all = strdup(FUZZ_DEFAULT_DIRS);
        for (char *tok = strtok(all, ":"); tok; tok = strtok(NULL, ":"))
            strlist_push(&paths, tok);
        free(all);
    }
    printf("# replaying %s\n", argv[0]);
    for (size_t i = 0; i < paths.n; i++) {
        if (is_dir(paths.v[i]))
            replay_dir(&t, paths.v[i]);
        else
            tap_line(&t, run_one(paths.v[i]) == 0, "input %s", paths.v[i]);
    }
    if (t.n == 0)
        tap_line(&t, 0, "no inputs found");
    printf("1..%u\n", t.n);
    strlist_free(&paths);
    return t.failed ? 1 : 0;
}
