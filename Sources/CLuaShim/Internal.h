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
/* The deadline lua_close runs finalizers under (the thread's deadline caps it as for a call). */
void wf_enter_closing(wf_host *h);
/* The sandbox's xpcall: the script's message handler cannot outrun the time budget. */
int wf_xpcall(lua_State *L);

void wf_warn(void *ud, const char *msg, int tocont);

/* Builds the values of the ops in [start, end) onto the stack; raises on malformed ops. */
void wf_build(lua_State *L, wf_host *h, size_t start, size_t end);

int wf_msgh(lua_State *L);
/* Makes the registry table that keeps the runners; once, when the state is made. */
void wf_runners_setup(lua_State *L);
/* Whether `thread` is one of the host's runners (Trampoline.c). */
int wf_is_runner(lua_State *L, lua_State *thread);
/* The kind the error value at `index` was raised with when it is the value the host raised last;
   -1 when it is not. */
int wf_raised_kind(lua_State *L, int index);
/* Makes the registry slot wf_raise_kind keeps its value in; once, when the state is made. */
void wf_raised_setup(lua_State *L);
/* The frames of one call from the host (ErrorRecord.c), innermost first: those of the thread running it, then,
   when that is a runner (Trampoline.c), those of the thread that called the host which called
   into it, and so on, as they were when every nested call ran on one thread. */
typedef struct wf_frames {
    lua_State *thread; /* the thread of the frame wf_next_frame last gave */
    int level;         /* the next level to look at in it */
} wf_frames;
/* The index of the runner `thread` among the host's runners; -1 when it is not one. */
int wf_runner_index(wf_host *h, lua_State *thread);
/* Fills ar (for lua_getinfo on frames->thread) with the next frame; 0 when there is none. */
int wf_next_frame(wf_frames *frames, lua_Debug *ar);
/* The thread that called the host which called into the runner `thread`; NULL when `thread` is
   not a runner. */
lua_State *wf_runner_caller(lua_State *thread);
/* Whether the frame's function is a bundled wayfinder module's (its source after lua_getinfo "S"). */
int wf_is_bundled(const lua_Debug *ar);

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
/* The position Lua's own rule gives an error no raiser placed, raised by `thread`'s frame at
   `level`: that frame's when it is a Lua function, else its caller's (luaL_error's). */
void wf_where_raiser(lua_State *thread, int level, wf_where *w);
/* The position of the innermost Lua function of the script's own in the call `thread` runs (a
   bundled module's when the script has none), found without allocating. */
void wf_where_script_in(lua_State *thread, wf_where *w);
/* The position a syntax error's message at `message` names in the chunk loaded as `chunkname`. */
void wf_where_loaded(lua_State *L, const char *chunkname, int message, wf_where *w);
/* Pushes the frames of the call `thread` runs, from `level` up, that a traceback shows (records:
   see wf_pcall). */
void wf_push_frames(lua_State *L, lua_State *thread, int level);

/* A frame copied out of a stack without allocating, for an error whose stack is about to go (Lua's
   own memory error): its fields cut to these sizes. */
typedef struct wf_frame {
    char source[LUA_IDSIZE];
    char file[LUA_IDSIZE];
    char what[8];
    char name[48];
    char namewhat[16];
    int line;
    int defined;
    int tailcall;
    int skipped;
} wf_frame;
/* How many frames a memory error keeps. */
#define WF_FRAME_COPIES 24
/* Copies at most `cap` of the frames wf_push_frames would push; answers how many. */
int wf_copy_frames(lua_State *thread, int level, wf_frame *copies, int cap);
/* Pushes the copies as wf_push_frames pushes frames. */
void wf_push_frame_copies(lua_State *L, const wf_frame *copies, int n);

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
/* The name require last raised "not found" for (wf_not_found_name). */
#define WF_KEY_NOT_FOUND "wayfinder.require.not_found"
#define WF_KEY_OBJECT_METATABLES "wayfinder.object.metatables"

/* A full userdata that owns a retained Swift object. */
typedef struct wf_object {
    uint64_t magic;
    void *object;
} wf_object;

#define WF_OBJECT_MAGIC UINT64_C(0x5746534f424a4543)

#endif
