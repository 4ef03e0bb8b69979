#define _GNU_SOURCE
#include "Internal.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The files a spec file's io opens are Lua's own file handles (luaL_Stream with the LUA_FILEHANDLE
 * metatable, so io.type, tostring and every method are liolib's), over streams whose reads and
 * writes cross this file: a descriptor the host opened after judging its path, read no further
 * than the read limit and written within the budget of the run; the standard output and error,
 * handed line by line to where print goes; a standard input that reads nothing. The streams are
 * C library streams with functions of their own (fopencookie, or funopen where the C library has
 * that instead), so every read and write of every method passes here.
 */

struct wf_spec_budget {
    atomic_long refs;
    atomic_llong written;
    atomic_int open;
    long long file_limit;
    long long run_limit;
    long long read_limit;
};

wf_spec_budget *wf_spec_budget_new(long long file_limit, long long run_limit, long long read_limit) {
    wf_spec_budget *b = malloc(sizeof *b);
    if (!b) return NULL;
    atomic_init(&b->refs, 1);
    atomic_init(&b->written, 0);
    atomic_init(&b->open, 0);
    b->file_limit = file_limit;
    b->run_limit = run_limit;
    b->read_limit = read_limit;
    return b;
}

void wf_spec_budget_release(wf_spec_budget *b) {
    if (b && atomic_fetch_sub(&b->refs, 1) == 1) free(b);
}

int wf_spec_budget_open(const wf_spec_budget *b) { return atomic_load(&b->open); }
long long wf_spec_budget_written(const wf_spec_budget *b) { return atomic_load(&b->written); }

typedef struct wf_spec_cookie {
    int fd;                 /* a file's descriptor; -1 for a standard stream */
    int append;
    wf_spec_budget *budget; /* a file's */
    wf_spec_sink sink;      /* standard output and error: where their bytes go */
    wf_spec_release release;
    void *context;
} wf_spec_cookie;

static ssize_t wf_cookie_read(void *c, char *buf, size_t size) {
    wf_spec_cookie *k = c;
    if (k->fd < 0) return 0;
    off_t at = lseek(k->fd, 0, SEEK_CUR);
    if (at < 0) return -1;
    if (at >= k->budget->read_limit) {
        errno = EFBIG;
        return -1;
    }
    if ((long long)size > k->budget->read_limit - at) size = (size_t)(k->budget->read_limit - at);
    ssize_t n;
    do n = read(k->fd, buf, size);
    while (n < 0 && errno == EINTR);
    return n;
}

/* A write that would take the file past its limit fails whole as a full file does (EFBIG); one
   past the run's budget as a full disk does (ENOSPC). */
static ssize_t wf_cookie_write_file(wf_spec_cookie *k, const char *buf, size_t size) {
    struct stat info;
    off_t at = k->append ? (fstat(k->fd, &info) == 0 ? info.st_size : -1) : lseek(k->fd, 0, SEEK_CUR);
    if (at < 0) return -1;
    if ((long long)size > k->budget->file_limit - at) {
        errno = EFBIG;
        return -1;
    }
    long long before = atomic_fetch_add(&k->budget->written, (long long)size);
    if (before + (long long)size > k->budget->run_limit) {
        atomic_fetch_sub(&k->budget->written, (long long)size);
        errno = ENOSPC;
        return -1;
    }
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(k->fd, buf + done, size - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        done += (size_t)n;
    }
    if (done < size) atomic_fetch_sub(&k->budget->written, (long long)(size - done));
    return done > 0 || size == 0 ? (ssize_t)done : -1;
}

static ssize_t wf_cookie_write(void *c, const char *buf, size_t size) {
    wf_spec_cookie *k = c;
    if (k->fd >= 0) return wf_cookie_write_file(k, buf, size);
    if (!k->sink) {
        errno = EBADF;
        return -1;
    }
    k->sink(k->context, buf, size);
    return (ssize_t)size;
}

static int wf_cookie_seek(void *c, off_t *offset, int whence) {
    wf_spec_cookie *k = c;
    if (k->fd < 0) {
        errno = ESPIPE;
        return -1;
    }
    off_t at = lseek(k->fd, *offset, whence);
    if (at < 0) return -1;
    *offset = at;
    return 0;
}

static int wf_cookie_close(void *c) {
    wf_spec_cookie *k = c;
    int status = 0;
    if (k->fd >= 0) {
        status = close(k->fd);
        atomic_fetch_sub(&k->budget->open, 1);
        wf_spec_budget_release(k->budget);
    }
    if (k->release) k->release(k->context);
    free(k);
    return status;
}

#if defined(__APPLE__)
static int wf_funopen_read(void *c, char *buf, int size) { return (int)wf_cookie_read(c, buf, (size_t)size); }
static int wf_funopen_write(void *c, const char *buf, int size) { return (int)wf_cookie_write(c, buf, (size_t)size); }
static fpos_t wf_funopen_seek(void *c, fpos_t offset, int whence) {
    off_t at = offset;
    return wf_cookie_seek(c, &at, whence) == 0 ? at : -1;
}
#endif

static FILE *wf_cookie_stream(wf_spec_cookie *k, const char *mode) {
#if defined(__APPLE__)
    int writes = mode[0] != 'r' || mode[1] == '+';
    int reads = mode[0] == 'r' || mode[1] == '+';
    return funopen(k, reads ? wf_funopen_read : NULL, writes ? wf_funopen_write : NULL, wf_funopen_seek, wf_cookie_close);
#else
    cookie_io_functions_t functions = {
        .read = wf_cookie_read, .write = wf_cookie_write, .seek = wf_cookie_seek, .close = wf_cookie_close};
    return fopencookie(k, mode, functions);
#endif
}

FILE *wf_spec_file(int fd, const char *mode, wf_spec_budget *budget) {
    wf_spec_cookie *k = calloc(1, sizeof *k);
    if (!k) return NULL;
    k->fd = fd;
    k->append = mode[0] == 'a';
    k->budget = budget;
    FILE *f = wf_cookie_stream(k, mode);
    if (!f) {
        free(k);
        return NULL;
    }
    atomic_fetch_add(&budget->refs, 1);
    atomic_fetch_add(&budget->open, 1);
    return f;
}

FILE *wf_spec_sink_stream(wf_spec_sink sink, wf_spec_release release, void *context) {
    wf_spec_cookie *k = calloc(1, sizeof *k);
    if (!k) return NULL;
    k->fd = -1;
    k->sink = sink;
    k->release = release;
    k->context = context;
    FILE *f = wf_cookie_stream(k, sink ? "w" : "r");
    if (!f) {
        free(k);
        return NULL;
    }
    /* Each write reaches the sink as it is made; the sink keeps a line until its end. */
    setvbuf(f, NULL, _IONBF, 0);
    return f;
}

/* ---- Lua's file handles -------------------------------------------------------------------- */

#define WF_KEY_STANDARD "wayfinder.spec_standard_streams"

/* The LUA_FILEHANDLE metatable, made by liolib's own opener, whose io table is dropped: nothing
   of it but the handles' methods stays reachable. Its defaults (the registry's _IO_input and
   _IO_output, the process's own streams) are cleared, and getmetatable on a handle answers false
   so no script can replace its __gc or methods. */
static void wf_filehandle_metatable(lua_State *L) {
    if (luaL_getmetatable(L, LUA_FILEHANDLE) == LUA_TTABLE) {
        lua_pop(L, 1);
        return;
    }
    lua_pop(L, 1);
    lua_pushcfunction(L, luaopen_io);
    lua_call(L, 0, 1);
    lua_pop(L, 1);
    lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, "_IO_input");
    lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, "_IO_output");
    luaL_getmetatable(L, LUA_FILEHANDLE);
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);
}

static int wf_file_close(lua_State *L) {
    luaL_Stream *p = (luaL_Stream *)luaL_checkudata(L, 1, LUA_FILEHANDLE);
    errno = 0;
    return luaL_fileresult(L, fclose(p->f) == 0, NULL);
}

/* A standard stream's close: refused, as Lua's own; its stream is closed with the state. */
static int wf_standard_noclose(lua_State *L) {
    luaL_Stream *p = (luaL_Stream *)luaL_checkudata(L, 1, LUA_FILEHANDLE);
    p->closef = &wf_standard_noclose;
    luaL_pushfail(L);
    lua_pushliteral(L, "cannot close standard file");
    return 2;
}

static luaL_Stream *wf_new_handle(lua_State *L) {
    luaL_Stream *p = (luaL_Stream *)lua_newuserdatauv(L, sizeof(luaL_Stream), 0);
    p->f = NULL;
    p->closef = NULL; /* closed until it holds its stream, so a collection before then does nothing */
    luaL_setmetatable(L, LUA_FILEHANDLE);
    return p;
}

static int wf_wrap_protected(lua_State *L) {
    FILE *f = (FILE *)lua_touserdata(L, 1);
    wf_filehandle_metatable(L);
    luaL_Stream *p = wf_new_handle(L);
    p->f = f;
    p->closef = &wf_file_close;
    return 1;
}

/* (stream) -> file handle owning it. The stream is closed when making the handle fails. */
int wf_fn_spec_wrap(lua_State *L) {
    FILE *f = (FILE *)lua_touserdata(L, 1);
    if (!f) return luaL_argerror(L, 1, "a stream expected");
    lua_settop(L, 1);
    lua_pushcfunction(L, wf_wrap_protected);
    lua_insert(L, 1);
    if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
        fclose(f);
        return lua_error(L);
    }
    return 1;
}

/* The standard streams' keeper, held by the registry: it closes their streams when the state
   closes, after marking their handles closed, so no finalizer that runs later reaches a stream
   that is gone. */
typedef struct wf_standard_keeper {
    FILE *files[3];
    luaL_Stream *handles[3];
} wf_standard_keeper;

static int wf_standard_keeper_gc(lua_State *L) {
    wf_standard_keeper *k = (wf_standard_keeper *)lua_touserdata(L, 1);
    for (int i = 0; i < 3; i++) {
        if (k->handles[i]) k->handles[i]->closef = NULL;
        if (k->files[i]) fclose(k->files[i]);
        k->files[i] = NULL;
    }
    return 0;
}

static int wf_standard_protected(lua_State *L) {
    int *taken = (int *)lua_touserdata(L, 4);
    wf_filehandle_metatable(L);
    wf_standard_keeper *k = (wf_standard_keeper *)lua_newuserdatauv(L, sizeof *k, 3);
    memset(k, 0, sizeof *k);
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, wf_standard_keeper_gc);
    lua_setfield(L, -2, "__gc");
    lua_setmetatable(L, -2);
    for (int i = 0; i < 3; i++) k->files[i] = (FILE *)lua_touserdata(L, i + 1);
    *taken = 1;
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, WF_KEY_STANDARD);
    for (int i = 0; i < 3; i++) {
        luaL_Stream *p = wf_new_handle(L);
        lua_pushvalue(L, -1);
        lua_setiuservalue(L, 5, i + 1);
        p->f = k->files[i];
        p->closef = &wf_standard_noclose;
        k->handles[i] = p;
    }
    return 3;
}

/* (stdin stream, stdout stream, stderr stream) -> their three handles. The streams are closed
   when making them fails. */
int wf_fn_spec_standard(lua_State *L) {
    FILE *files[3];
    for (int i = 0; i < 3; i++) {
        files[i] = (FILE *)lua_touserdata(L, i + 1);
        if (!files[i]) return luaL_argerror(L, i + 1, "a stream expected");
    }
    int taken = 0;
    lua_settop(L, 3);
    lua_pushlightuserdata(L, &taken);
    lua_pushcfunction(L, wf_standard_protected);
    lua_insert(L, 1);
    if (lua_pcall(L, 4, 3, 0) != LUA_OK) {
        if (!taken)
            for (int i = 0; i < 3; i++) fclose(files[i]);
        return lua_error(L);
    }
    return 3;
}

/* io.type: "file", "closed file", or fail for what is not a file handle. */
int wf_fn_spec_io_type(lua_State *L) {
    luaL_checkany(L, 1);
    luaL_Stream *p = (luaL_Stream *)luaL_testudata(L, 1, LUA_FILEHANDLE);
    if (!p)
        luaL_pushfail(L);
    else if (p->closef == NULL)
        lua_pushliteral(L, "closed file");
    else
        lua_pushliteral(L, "file");
    return 1;
}
