#define _POSIX_C_SOURCE 200809L
#include "Internal.h"

#include <time.h>

/*
 * The time budget. A count hook looks at the clock every WF_HOOK_COUNT instructions (reading the
 * CPU clock, a system call, only when a coarse wall-clock tick has passed since its last look) and
 * raises once the deadline of the outermost call from Swift has passed.
 *
 * The clock is the CPU time of the calling thread, not the wall clock: a script cannot block (it has
 * no I/O and no sleep), so the CPU time it uses is what it costs, and on a busy machine the budget
 * neither fires early nor races the memory limit. Every coroutine of a state runs on the thread that
 * resumed it, so the same clock covers them.
 *
 * The hook sees only Lua instructions. A binding's native work (driving another app, which has
 * its own budget, copying files) runs on the same thread's clock, so the trampoline asks the budget
 * again each time a binding returns; the C functions of Lua's libraries are bounded by their own
 * arguments (see Bounded.c), the memory limit, or both.
 */

int64_t wf_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A coarse clock, where the system has one, is read without a system call: the hook asks it
   often, and a tick of a few milliseconds is fine enough for a wall-clock budget. */
#if defined(CLOCK_MONOTONIC_COARSE)
#define WF_TICK_CLOCK CLOCK_MONOTONIC_COARSE
#elif defined(CLOCK_MONOTONIC_RAW_APPROX)
#define WF_TICK_CLOCK CLOCK_MONOTONIC_RAW_APPROX
#else
#define WF_TICK_CLOCK CLOCK_MONOTONIC
#endif

int64_t wf_tick(void) {
    struct timespec ts;
    clock_gettime(WF_TICK_CLOCK, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void wf_raise_budget(lua_State *L, int level) {
    wf_host *h = wf_host_of(L);
    h->hit_time = 1;
    /* From now on this thread stops at every instruction, so a pcall that caught the error
       cannot keep the script going: the next instruction after it raises again. */
    if (lua_gethookcount(L) != 1) lua_sethook(L, wf_hook, LUA_MASKCOUNT, 1);
    /* The innermost line of the script's own: not a bundled module's, and not a C function's
       (pcall, or a binding), which has none. */
    wf_frames frames = { L, level };
    lua_Debug ar;
    wf_where where;
    int named = 0;
    while (!named && wf_next_frame(&frames, &ar)) {
        if (!lua_getinfo(frames.thread, "Sl", &ar) || ar.currentline <= 0 || wf_is_bundled(&ar)) continue;
        wf_where_of(&where, &ar);
        wf_push_where(L, &where);
        named = 1;
    }
    if (!named) wf_where_script_from(L, level, &where);
    lua_pushfstring(L, "time budget of %d ms exceeded", (int)(h->deadline_budget_ns / 1000000));
    lua_concat(L, 2);
    wf_raise_at(L, WF_KIND_TIMEOUT, &where);
}

void wf_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    wf_host *h = wf_host_of(L);
    if (h->deadline_ns != 0) {
        /* Once spent, the budget stays spent; otherwise the CPU clock (a system call) is read only
           when a coarse tick has passed since the last look, so the budget holds to within a tick
           while the hook costs two cheap reads most of the time. */
        int spent = h->hit_time;
        if (!spent) {
            int64_t tick = wf_tick();
            if (tick != h->checked_tick) {
                h->checked_tick = tick;
                spent = wf_now_ns() >= h->deadline_ns;
            }
        }
        if (spent) {
            /* Level 0: inside a hook that is the Lua function being run, the line that looped (or,
               when that is a bundled module's, the script's line that called into it). */
            wf_raise_budget(L, 0);
            return;
        }
    }
    /* A thread left counting every instruction by an earlier call goes back to the normal pace. */
    if (lua_gethookcount(L) == 1) lua_sethook(L, wf_hook, LUA_MASKCOUNT, WF_HOOK_COUNT);
}

/*
 * The deadline of the innermost call from the host running on this thread, whichever state it
 * belongs to, and that call's budget. A state's outermost call that starts inside another state's
 * call (a spec's step driving an app, on the same thread and so on the same CPU clock) gets its
 * own budget or what remains of the enclosing call's, whichever ends first: the app's work can
 * never outlast the step that asked for it.
 */
static _Thread_local int64_t wf_thread_deadline_ns;
static _Thread_local int64_t wf_thread_budget_ns;

/* Sets h's deadline for a call starting now: its own budget, capped by the thread's deadline. */
static void wf_set_deadline(wf_host *h) {
    int64_t own = h->budget_ns > 0 ? wf_now_ns() + h->budget_ns : 0;
    h->deadline_ns = own;
    h->deadline_budget_ns = h->budget_ns;
    if (wf_thread_deadline_ns != 0 && (own == 0 || wf_thread_deadline_ns < own)) {
        h->deadline_ns = wf_thread_deadline_ns;
        h->deadline_budget_ns = wf_thread_budget_ns;
    }
}

void wf_enter(wf_host *h) {
    if (h->depth++ == 0) {
        wf_set_deadline(h);
        h->outer_deadline_ns = wf_thread_deadline_ns;
        h->outer_budget_ns = wf_thread_budget_ns;
        wf_thread_deadline_ns = h->deadline_ns;
        wf_thread_budget_ns = h->deadline_budget_ns;
        h->hit_time = 0;
        h->hit_memory = 0;
        h->text_out = 0;
    }
}

void wf_leave(wf_host *h) {
    if (--h->depth == 0) {
        h->deadline_ns = 0;
        wf_thread_deadline_ns = h->outer_deadline_ns;
        wf_thread_budget_ns = h->outer_budget_ns;
    }
}

void wf_enter_closing(wf_host *h) {
    h->depth = 1;
    wf_set_deadline(h);
}

/*
 * xpcall with the message handler behind a guard. Lua runs a message handler with hooks off when
 * the error was raised inside a hook, as the budget's is, so a handler that loops (or raises, which
 * runs it again) could never be stopped. Once the budget has run out the guard passes the error
 * through unchanged without calling the script's handler; until then the handler runs with hooks on.
 */
static int wf_guarded_handler(lua_State *L) {
    if (wf_host_of(L)->hit_time) {
        lua_settop(L, 1);
        return 1;
    }
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, 1);
    return 1;
}

static int wf_xpcall_finish(lua_State *L, int status, lua_KContext extra) {
    if (status != LUA_OK && status != LUA_YIELD) {
        lua_pushboolean(L, 0);
        lua_pushvalue(L, -2);
        return 2;
    }
    return lua_gettop(L) - (int)extra;
}

int wf_xpcall(lua_State *L) {
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, wf_guarded_handler, 1);
    lua_replace(L, 2);
    /* 1 function, 2 guarded handler, then true and the function again, then the arguments. */
    lua_pushboolean(L, 1);
    lua_pushvalue(L, 1);
    lua_rotate(L, 3, 2);
    int status = lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, wf_xpcall_finish);
    return wf_xpcall_finish(L, status, 2);
}

int wf_budget_spent(wf_host *h) {
    if (h->deadline_ns == 0 || wf_now_ns() < h->deadline_ns) return 0;
    h->hit_time = 1;
    return 1;
}
