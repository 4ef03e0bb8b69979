#define _POSIX_C_SOURCE 200809L
#include "Internal.h"

#include <time.h>

/*
 * The time budget. A count hook looks at a monotonic clock every WF_HOOK_COUNT instructions and
 * raises once the deadline of the outermost call from Swift has passed.
 *
 * Only Lua instructions are counted: a single C function that runs long (string.find on a
 * pathological pattern, string.rep building a large string) cannot be interrupted, and is bounded
 * only by the memory limit or by finishing.
 */

int64_t wf_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void wf_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    wf_host *h = wf_host_of(L);
    if (h->deadline_ns != 0 && wf_now_ns() >= h->deadline_ns) {
        h->hit_time = 1;
        /* From now on this thread stops at every instruction, so a pcall that caught the error
           cannot keep the script going: the next instruction after it raises again. */
        if (lua_gethookcount(L) != 1) lua_sethook(L, wf_hook, LUA_MASKCOUNT, 1);
        /* Level 0: inside a hook that is the Lua function being run, the line that looped. */
        luaL_where(L, 0);
        lua_pushfstring(L, "time budget of %d ms exceeded", (int)(h->budget_ns / 1000000));
        lua_concat(L, 2);
        lua_error(L);
        return;
    }
    /* A thread left counting every instruction by an earlier call goes back to the normal pace. */
    if (lua_gethookcount(L) == 1) lua_sethook(L, wf_hook, LUA_MASKCOUNT, WF_HOOK_COUNT);
}

void wf_enter(wf_host *h) {
    if (h->depth++ == 0) {
        h->deadline_ns = h->budget_ns > 0 ? wf_now_ns() + h->budget_ns : 0;
        h->hit_time = 0;
        h->hit_memory = 0;
        h->hit_not_found = 0;
    }
}

void wf_leave(wf_host *h) {
    if (--h->depth == 0) h->deadline_ns = 0;
}
