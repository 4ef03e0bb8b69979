#ifndef WF_SHIM_INTERNAL_H
#define WF_SHIM_INTERNAL_H

#include "CLuaShim.h"

/* An error path, kept out of line so that the calls that succeed do not pay for it. */
#define WF_COLD __attribute__((noinline, cold))

/* Instructions between two looks at the clock. */
#define WF_HOOK_COUNT 1000

int64_t wf_now_ns(void);
/* A coarse wall-clock tick (a few nanoseconds to read, a few milliseconds apart): tells whether
   time has passed at all, before the thread's CPU clock (a system call) is read. */
int64_t wf_tick(void);
void wf_hook(lua_State *L, lua_Debug *ar);
/* Raises the time budget's error at the script's line found from `level` (see wf_where_script_from)
   and leaves the thread stopping at every instruction. */
void wf_raise_budget(lua_State *L, int level);
void wf_enter(wf_host *h);
void wf_leave(wf_host *h);
/* The sandbox's xpcall: the script's message handler cannot outrun the time budget. */
int wf_xpcall(lua_State *L);

void wf_warn(void *ud, const char *msg, int tocont);

/* Builds the values of the ops in [start, end) onto the stack; raises on malformed ops. */
void wf_build(lua_State *L, wf_host *h, size_t start, size_t end);

int wf_msgh(lua_State *L);
/* Makes the registry slot wf_raise_kind keeps its value in; once, when the state is made. */
void wf_raised_setup(lua_State *L);
/* Pushes "chunk:line: " of the innermost caller that is not a bundled wayfinder module, and
   fills *at with that position. */
void wf_where_script(lua_State *L, wf_where *at);
/* The same, looking from `level` up (0: the running function). */
void wf_where_script_from(lua_State *L, int level, wf_where *at);

/* Positions and frames of errors (ErrorRecord.c). */
void wf_where_clear(wf_where *w);
/* The position of a frame filled by lua_getinfo with "Sl" (none for a C function). */
void wf_where_of(wf_where *w, const lua_Debug *ar);
/* Pushes "file:line: ", or "" for no position. */
void wf_push_where(lua_State *L, const wf_where *w);
/* luaL_where that also fills *w: pushes onto L "chunk:line: " of `thread`'s frame at `level`. */
void wf_where_at(lua_State *L, lua_State *thread, int level, wf_where *w);
/* The position an error text names: the frame of `thread`, from `level` up, whose
   "short_src:currentline:" the text starts with; none when no frame's does. */
void wf_where_named(lua_State *thread, int level, const char *text, size_t len, wf_where *w);
/* The position a syntax error's message at `message` names in the chunk loaded as `chunkname`. */
void wf_where_loaded(lua_State *L, const char *chunkname, int message, wf_where *w);
/* Pushes the frames of `thread` from `level` up that a traceback shows (records: see wf_pcall). */
void wf_push_frames(lua_State *L, lua_State *thread, int level);

/* Replaces the library functions that could run long without the budget or the limit seeing it. */
void wf_bound_libraries(lua_State *L);
/* Replaces string.find, match, gmatch and gsub with matchers whose work counts against the budget. */
void wf_bound_patterns(lua_State *L);

/* Creates the registry entries require uses. */
void wf_require_setup(lua_State *L);

/* Registry keys. */
#define WF_KEY_LOADING "wayfinder.loading"
#define WF_KEY_REQUIRE_GUARD "wayfinder.require.guard"
#define WF_KEY_BUNDLED_CHUNKS "wayfinder.require.bundled"
#define WF_KEY_OBJECT_METATABLES "wayfinder.object.metatables"

/* A full userdata that owns a retained Swift object. */
typedef struct wf_object {
    uint64_t magic;
    void *object;
} wf_object;

#define WF_OBJECT_MAGIC UINT64_C(0x5746534f424a4543)

#endif
