#ifndef WF_SHIM_H
#define WF_SHIM_H

/*
 * The C side of Wayfinder's Lua state layer.
 *
 * Everything that may raise a Lua error (a longjmp) happens in this target, never in a Swift frame:
 * Swift functions called from Lua go through wf_trampoline, and Swift calls into Lua go through
 * wf_pcall. Values cross as "ops" written into a per-state byte buffer and built into Lua values
 * by C code running under lua_pcall.
 */

#include "../../CLua/CLua.h"
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

/* ---- Swift functions callable from Lua ---------------------------------------------------- */

/* A binding never raises. It returns how many results it pushed with non-raising API (>= 0), or
   one of the codes below, after writing ops that the trampoline builds once Swift has returned. */
typedef int (*wf_binding)(lua_State *L);

#define WF_RETURN_BUILT (-1)  /* the ops are the results */
#define WF_RAISE_MESSAGE (-2) /* the ops are one string; raise it prefixed with the caller's position */
#define WF_RAISE_VALUE (-3)   /* the ops are one value, then optionally what it carries from where
                                 it was raised: a table { frames = <as wf_pcall hands them back>,
                                 file = <string>, line = <integer> }; raise the value as it is */

/* A C closure over the binding (upvalue 1, light userdata) and its name (upvalue 2). */
int wf_trampoline(lua_State *L);

/* ---- Ops ------------------------------------------------------------------------------------ */

enum {
    WF_OP_NIL = 1,
    WF_OP_TRUE,
    WF_OP_FALSE,
    WF_OP_INT,          /* int64 */
    WF_OP_DOUBLE,       /* double */
    WF_OP_STRING,       /* uint64 length, bytes */
    WF_OP_TABLE,        /* int32 array size hint, int32 record size hint */
    WF_OP_SETFIELD,     /* uint64 length, key bytes: pops a value into the table below it */
    WF_OP_SETINDEX,     /* int64 index: pops a value into the table below it */
    WF_OP_REF,          /* int32 registry reference */
    WF_OP_CFUNCTION,    /* lua_CFunction, written only for this target's own C functions */
    WF_OP_BINDING,      /* wf_binding, uint64 length, name bytes: a trampoline closure */
    WF_OP_LIGHTUSERDATA /* pointer */
};

/* What an error is, decided where it is raised and carried with it, never read from its text. */
enum {
    WF_KIND_RUNTIME = 0, /* the script's own error */
    WF_KIND_TIMEOUT,     /* the time budget ran out */
    WF_KIND_NOT_FOUND,   /* require found no such module */
    WF_KIND_MEMORY,      /* the memory limit was reached (the message names the script's line) */
    WF_KIND_LUA_MEMORY,  /* Lua's own memory error ("not enough memory", no position) */
    WF_KIND_FAILURE,     /* a spec's assertion did not hold (a verdict, see wf_mark_verdict) */
    WF_KIND_PENDING      /* a spec's test called pending() (a verdict) */
};

/* The position an error names, as structure: the chunk as messages name it (Lua's short_src:
   "app.lua", `[string "..."]`) and the line. Line 0: the error names no position. */
typedef struct wf_where {
    char file[LUA_IDSIZE];
    int line;
} wf_where;

/* Raises the error value on top of the stack as one of `kind`: the value is remembered, so the
   message handler knows it again however far up (through pcalls that re-raise it) it travels. */
int wf_raise_kind(lua_State *L, int kind);
/* The same, for a value that names the position `at` (the place where it was made put that
   position's text in the message; the handler hands back the position itself). */
int wf_raise_at(lua_State *L, int kind, const wf_where *at);

/* Remembers the value at `index` as wf_raise_kind would, as a verdict of `kind` (WF_KIND_FAILURE
   or WF_KIND_PENDING), without raising it: the spec module raises it right after. A verdict is
   known by identity, never by its text, and its message is its own text, with no position added.
   Never raises (the registry slot exists). */
void wf_mark_verdict(lua_State *L, int index, int kind);

/* The name of the module that `require` did not find (or whose name no module can have), when
   the error value at `index` is the one it raised saying so; NULL for any other value. */
const char *wf_not_found_name(lua_State *L, int index);

/* Returned by wf_pcall when the stack could not grow to make the call; nothing was pushed. */
#define WF_STATUS_NOSTACK (-100)

typedef void (*wf_text_sink)(void *owner, const char *text, size_t len);

/* Status of a module read (see wf_module_reader). WF_READ_KEEP: read, text, and the host keeps
   the chunk compiled from it (wf_chunk_keeper); WF_READ_PRECOMPILED: read, and the bytes are such
   a kept chunk, bytecode. Only the bundled modules compiled into the library are kept. */
enum { WF_READ_OK = 0, WF_READ_NOT_FOUND, WF_READ_OUTSIDE_ROOT, WF_READ_FAILED, WF_READ_NO_ROOT, WF_READ_TOO_LARGE,
       WF_READ_KEEP, WF_READ_PRECOMPILED };
enum { WF_ROOT_APP = 0, WF_ROOT_BUNDLED = 1 };

/* The chunk name of a bundled module is this prefix and its path under wayfinder/
   ("@wayfinder/map.lua"): messages and tracebacks name it "wayfinder/map.lua". */
#define WF_BUNDLED_CHUNK_PREFIX "@wayfinder/"

/* The longest script source Wayfinder reads (an entry script, a module, a file a spec reads), from
   a file or from memory. */
#define WF_SOURCE_LIMIT_MIB 16

/* Reads `relpath` under a module root. Only file I/O, no Lua API. Returns a malloc'd buffer the
   caller frees, or NULL with *status saying why. */
typedef char *(*wf_module_reader)(void *owner, int root, const char *relpath, size_t *len, int *status);

/* The deepest calls from the host may nest (each level is a C call, so Lua's own limit of about
   200 nested C calls comes first). */
#define WF_MAX_RUNNERS 256

/* Takes the bytecode of a bundled module compiled from text the reader answered WF_READ_KEEP for
   (the bytes are the caller's; copy them). No Lua API. */
typedef void (*wf_chunk_keeper)(void *owner, const char *relpath, const char *bytes, size_t len);

/* Per-state data: the allocator's ud, so any thread of the state finds it with lua_getallocf. */
typedef struct wf_host {
    size_t mem_used;
    size_t mem_limit;

    unsigned char *ops;
    size_t ops_len;
    size_t ops_cap;
    /* Where a write first failed to grow the buffer (SIZE_MAX when none did). */
    size_t ops_broken_from;

    int64_t budget_ns;
    int64_t deadline_ns; /* 0: no deadline */
    /* The budget the deadline belongs to, as messages name it: this state's own, or that of the
       call on the same thread that this state's outermost call was made from (a spec's step
       driving an app), when that one ends first. */
    int64_t deadline_budget_ns;
    /* The thread's deadline (and its budget) from before this state's outermost call, given back
       when that call ends. */
    int64_t outer_deadline_ns;
    int64_t outer_budget_ns;
    int64_t checked_tick; /* the coarse tick (wf_tick) at the hook's last look at the CPU clock */
    int depth;           /* nesting of protected calls from Swift */

    /* What the current outermost call ran into; reset when it starts. */
    int hit_time;
    int hit_memory;
    /* The kind of the error a binding is about to raise (set by Swift with WF_RAISE_*). */
    int raise_kind;
    /* The kind of the last error raised with wf_raise_kind, and of the error the message handler
       of the latest failed wf_pcall saw. */
    int raised_kind;
    int error_kind;
    /* The position the last error raised with wf_raise_at named, and the one the error of the
       latest failed wf_pcall names (set by its message handler). */
    wf_where raised_where;
    wf_where error_where;

    lua_State *main;
    lua_State *current; /* the thread running the innermost binding, if any */
    /* The threads calls from the host run in, by nesting depth (Trampoline.c, "Runners"). */
    lua_State *runners[WF_MAX_RUNNERS];
    /* The thread each running runner was resumed from (for tracebacks across nested calls). */
    lua_State *runner_callers[WF_MAX_RUNNERS];
    int runners_made;
    void *owner;        /* the Swift LuaState, unretained */

    wf_text_sink print_sink;
    wf_text_sink warn_sink;
    wf_module_reader module_reader;
    wf_chunk_keeper chunk_keeper;

    /* Swift objects whose userdata Lua finalized. Swift releases them at its next safe point, never
       inside a collection, so no Swift deinit runs (and calls back into Lua) mid-collection. */
    void **finalized;
    size_t finalized_len;
    size_t finalized_cap;

    /* print and warn text handed to the host since the outermost call began. */
    size_t text_out;

    int warn_on;
    int warn_continuing;
    char *warn_buf;
    size_t warn_len;
    size_t warn_cap;
} wf_host;

/* Whether the running call's time budget is used up (then the call counts as having hit it). For
   host work done on a script's behalf between two Lua instructions, such as copying files. */
int wf_budget_spent(wf_host *h);

/* Creates a state whose allocator counts against `memory_limit` bytes; NULL when out of memory. */
lua_State *wf_newstate(size_t memory_limit, int64_t budget_ns);
/* Closes the state (finalizers run under the time budget). The host stays, for Swift to release
   the objects still queued in it; then wf_free_host frees it. */
wf_host *wf_close(lua_State *L);
void wf_free_host(wf_host *h);

/* A flag one thread raises and another reads without a lock (release and acquire order): Swift's
   own atomics need newer systems than the package supports. */
static inline void wf_flag_store(int *flag, int value) { __atomic_store_n(flag, value, __ATOMIC_RELEASE); }
static inline int wf_flag_load(const int *flag) { return __atomic_load_n(flag, __ATOMIC_ACQUIRE); }

static inline wf_host *wf_host_of(lua_State *L) {
    void *ud = NULL;
    (void)lua_getallocf(L, &ud);
    return (wf_host *)ud;
}

unsigned char *wf_ops_grow(wf_host *h, size_t n);

/* The place to write an n-byte op, or NULL once the buffer could not grow. */
static inline unsigned char *wf_ops_reserve(wf_host *h, size_t n) {
    if (h->ops_broken_from != SIZE_MAX) return NULL;
    if (h->ops_cap - h->ops_len >= n) {
        unsigned char *p = h->ops + h->ops_len;
        h->ops_len += n;
        return p;
    }
    return wf_ops_grow(h, n);
}

static inline void wf_ops_truncate(wf_host *h, size_t to) {
    h->ops_len = to;
    if (to <= h->ops_broken_from) h->ops_broken_from = SIZE_MAX;
}

static inline void wf_op_simple(wf_host *h, unsigned char op) {
    unsigned char *p = wf_ops_reserve(h, 1);
    if (p) p[0] = op;
}
static inline void wf_op_nil(wf_host *h) { wf_op_simple(h, WF_OP_NIL); }
static inline void wf_op_bool(wf_host *h, int b) { wf_op_simple(h, b ? WF_OP_TRUE : WF_OP_FALSE); }
static inline void wf_op_int(wf_host *h, int64_t v) {
    unsigned char *p = wf_ops_reserve(h, 1 + sizeof v);
    if (p) { p[0] = WF_OP_INT; memcpy(p + 1, &v, sizeof v); }
}
static inline void wf_op_double(wf_host *h, double v) {
    unsigned char *p = wf_ops_reserve(h, 1 + sizeof v);
    if (p) { p[0] = WF_OP_DOUBLE; memcpy(p + 1, &v, sizeof v); }
}
static inline void wf_op_bytes(wf_host *h, unsigned char op, const void *bytes, size_t len) {
    uint64_t n = len;
    unsigned char *p = wf_ops_reserve(h, 1 + sizeof n + len);
    if (p) {
        p[0] = op;
        memcpy(p + 1, &n, sizeof n);
        if (len) memcpy(p + 1 + sizeof n, bytes, len);
    }
}
static inline void wf_op_string(wf_host *h, const void *bytes, size_t len) { wf_op_bytes(h, WF_OP_STRING, bytes, len); }
static inline void wf_op_setfield(wf_host *h, const void *key, size_t len) { wf_op_bytes(h, WF_OP_SETFIELD, key, len); }
static inline void wf_op_table(wf_host *h, int32_t narr, int32_t nrec) {
    unsigned char *p = wf_ops_reserve(h, 1 + 2 * sizeof(int32_t));
    if (p) {
        p[0] = WF_OP_TABLE;
        memcpy(p + 1, &narr, sizeof narr);
        memcpy(p + 1 + sizeof narr, &nrec, sizeof nrec);
    }
}
static inline void wf_op_setindex(wf_host *h, int64_t i) {
    unsigned char *p = wf_ops_reserve(h, 1 + sizeof i);
    if (p) { p[0] = WF_OP_SETINDEX; memcpy(p + 1, &i, sizeof i); }
}
static inline void wf_op_ref(wf_host *h, int32_t ref) {
    unsigned char *p = wf_ops_reserve(h, 1 + sizeof ref);
    if (p) { p[0] = WF_OP_REF; memcpy(p + 1, &ref, sizeof ref); }
}
static inline void wf_op_cfunction(wf_host *h, lua_CFunction f) {
    unsigned char *p = wf_ops_reserve(h, 1 + sizeof f);
    if (p) { p[0] = WF_OP_CFUNCTION; memcpy(p + 1, &f, sizeof f); }
}
static inline void wf_op_lightuserdata(wf_host *h, const void *ptr) {
    unsigned char *p = wf_ops_reserve(h, 1 + sizeof ptr);
    if (p) { p[0] = WF_OP_LIGHTUSERDATA; memcpy(p + 1, &ptr, sizeof ptr); }
}
static inline void wf_op_binding(wf_host *h, wf_binding f, const void *name, size_t len) {
    uint64_t n = len;
    unsigned char *p = wf_ops_reserve(h, 1 + sizeof f + sizeof n + len);
    if (p) {
        p[0] = WF_OP_BINDING;
        memcpy(p + 1, &f, sizeof f);
        memcpy(p + 1 + sizeof f, &n, sizeof n);
        if (len) memcpy(p + 1 + sizeof f + sizeof n, name, len);
    }
}

/* ---- Calls from Swift into Lua ------------------------------------------------------------- */

/*
 * Calls, protected and with a message handler that keeps the stack's frames, the callee and
 * arguments formed by the top `nstack` stack values followed by the values built from the ops
 * written since `start` (the first of all these is the callee). Returns the lua_pcall status (or
 * WF_STATUS_NOSTACK); the stack values are replaced by the *nresults results, or, on failure, by
 * two values: the error message and its frames (or nil when the message handler did not see the
 * error: Lua raises a memory error outside the callee without it), while h->error_where holds the
 * position the error names. The frames are a table of records, innermost first, those a
 * traceback shows: { source = chunk name, file = short_src,
 * line = current line (absent in a C function), what = "Lua" | "C" | "main", name, namewhat
 * (absent when the function has no name), global = the name it has in a loaded module (as
 * "string.gsub"; absent when none), defined = the line its definition starts at, tailcall = true
 * (absent when not), skipped = how many levels the traceback leaves out just before this one
 * (absent when none) }. Nothing is ever added to the message. The op buffer is truncated back
 * to `start`. The outermost such call sets the time deadline; nested ones share it.
 */
int wf_pcall(lua_State *L, size_t start, int nstack, int *nresults);

/* Protected helpers, called as the callee of wf_pcall. */
int wf_fn_ref(lua_State *L);        /* (value) -> registry reference */
int wf_fn_call_holding(lua_State *L); /* (function, args...) -> registry reference of its first result
                                         (LUA_REFNIL for nil), that result */
int wf_fn_load(lua_State *L);       /* (pointer, length, chunkname) -> function | nil, message, status,
                                       file, line (the position a syntax error names; line 0: none) */
int wf_fn_preload(lua_State *L);    /* (name, value): the loaded table's entry for require */
int wf_fn_setglobal(lua_State *L);  /* (name, value) */
int wf_fn_getglobal(lua_State *L);  /* (name) -> value */
int wf_fn_newobject(lua_State *L);  /* (retained object pointer, metatable) -> userdata owning it */
int wf_fn_collect(lua_State *L);    /* () full garbage collection */
int wf_fn_require(lua_State *L);    /* the sandbox's require */
int wf_fn_open_sandbox(lua_State *L);

/* A registry reference released with luaL_unref; never raises (see Host.c). */
void wf_unref(lua_State *L, int ref);

/* The Swift object pointer a Wayfinder userdata at idx holds, or NULL. Never raises. */
void *wf_toobject(lua_State *L, int idx);

/* Whether value[key] is certainly nil for the value the registry holds at `target`, told by raw
   reads alone (`key` and `index_key` are registry references of the key and of "__index"): 1
   when it is, 0 when that cannot be told without running Lua. Never raises (see Lookup.c). */
int wf_certainly_lacks(lua_State *L, int target, int key, int index_key);

/* ---- Spec files' io (SpecStreams.c) -------------------------------------------------------- */

/* The limits a run's spec files write and read within, shared by every stream they open. */
typedef struct wf_spec_budget wf_spec_budget;
wf_spec_budget *wf_spec_budget_new(long long file_limit, long long run_limit, long long read_limit);
void wf_spec_budget_release(wf_spec_budget *b);
int wf_spec_budget_open(const wf_spec_budget *b);          /* streams open now */
long long wf_spec_budget_written(const wf_spec_budget *b); /* bytes written so far */

/* Where a standard stream's bytes go, and what lets go of its context when it closes. */
typedef void (*wf_spec_sink)(void *context, const char *bytes, size_t length);
typedef void (*wf_spec_release)(void *context);

/* A stream over the descriptor `fd` (owned from then on) in Lua's `mode` ("r", "w+", "a"...);
   NULL (the descriptor still the caller's) when none can be made. Never raises. */
FILE *wf_spec_file(int fd, const char *mode, wf_spec_budget *budget);
/* A write-only stream handing its bytes to `sink`, or, `sink` NULL, a read-only one that reads
   nothing. Never raises. */
FILE *wf_spec_sink_stream(wf_spec_sink sink, wf_spec_release release, void *context);

int wf_fn_spec_wrap(lua_State *L);     /* (stream) -> Lua file handle owning it */
int wf_fn_spec_standard(lua_State *L); /* (stdin, stdout, stderr streams) -> their handles */
int wf_fn_spec_io_type(lua_State *L);  /* io.type */

/* ---- Macros Swift cannot import ------------------------------------------------------------ */

static inline int wf_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline int wf_upvalueindex(int i) { return lua_upvalueindex(i); }
/* Only for slots that were never marked to-be-closed: then lua_settop runs no __close and so
   cannot raise. Nothing in Wayfinder marks a slot from Swift. */
static inline void wf_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline void wf_settop(lua_State *L, int idx) { lua_settop(L, idx); }
static inline void wf_insert(lua_State *L, int idx) { lua_insert(L, idx); }
static inline void wf_pushcfunction(lua_State *L, lua_CFunction f) { lua_pushcclosure(L, f, 0); }
static inline int wf_isinteger(lua_State *L, int idx) { return lua_isinteger(L, idx); }

/* A Lua function's environment, lent to the spec module (Environment.c). */
int wf_fn_env_of(lua_State *L);     /* (fn) -> whether fn is a Lua function, its _ENV's value */
int wf_fn_bind_env(lua_State *L);   /* (fn, env, cell) -> whether fn's _ENV, now its own, holds env */

#endif
