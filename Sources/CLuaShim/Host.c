#include "CLuaShim.h"
#include "Internal.h"

#include <stdlib.h>

/*
 * The allocator enforces the memory limit. Refusing growth makes Lua run an emergency collection and
 * retry, then raise its memory error, which protected calls turn into LUA_ERRMEM.
 */
static void *wf_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    wf_host *h = (wf_host *)ud;
    /* With ptr == NULL, osize is the kind of object being made, not a size. */
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        h->mem_used -= old;
        return NULL;
    }
    if (nsize > old) {
        size_t grow = nsize - old;
        if (h->mem_used > h->mem_limit || grow > h->mem_limit - h->mem_used) {
            h->hit_memory = 1;
            return NULL;
        }
    }
    void *block = realloc(ptr, nsize);
    if (block == NULL) {
        h->hit_memory = 1;
        return NULL;
    }
    h->mem_used = h->mem_used - old + nsize;
    return block;
}

lua_State *wf_newstate(size_t memory_limit, int64_t budget_ns) {
    wf_host *h = calloc(1, sizeof *h);
    if (h == NULL) return NULL;
    h->mem_limit = memory_limit;
    h->budget_ns = budget_ns;
    h->ops_broken_from = SIZE_MAX;
    h->warn_on = 1;
    lua_State *L = lua_newstate(wf_alloc, h);
    if (L == NULL) {
        free(h);
        return NULL;
    }
    h->main = L;
    wf_raised_setup(L);
    wf_runners_setup(L);
    lua_setwarnf(L, wf_warn, h);
    /* Threads copy their creator's hook, so every coroutine is bounded by the same budget. */
    lua_sethook(L, wf_hook, LUA_MASKCOUNT, WF_HOOK_COUNT);
    return L;
}

wf_host *wf_close(lua_State *L) {
    wf_host *h = wf_host_of(L);
    wf_enter_closing(h);
    lua_close(L);
    h->main = NULL;
    h->current = NULL;
    return h;
}

void wf_free_host(wf_host *h) {
    free(h->ops);
    free(h->warn_buf);
    free(h->finalized);
    free(h);
}

unsigned char *wf_ops_grow(wf_host *h, size_t n) {
    size_t need = h->ops_len + n;
    if (need < h->ops_len) {
        h->ops_broken_from = h->ops_len;
        return NULL;
    }
    size_t cap = h->ops_cap ? h->ops_cap : 256;
    while (cap < need) {
        if (cap > SIZE_MAX / 2) {
            cap = need;
            break;
        }
        cap *= 2;
    }
    unsigned char *ops = realloc(h->ops, cap);
    if (ops == NULL) {
        h->ops_broken_from = h->ops_len;
        return NULL;
    }
    h->ops = ops;
    h->ops_cap = cap;
    unsigned char *p = h->ops + h->ops_len;
    h->ops_len = need;
    return p;
}

/*
 * luaL_unref only rewrites two registry slots that already hold values (the reference's own slot
 * and the free-list head, set when the first reference was made), so it never allocates and never
 * raises. It needs one free stack slot.
 */
void wf_unref(lua_State *L, int ref) {
    if (ref < 0) return;
    if (!lua_checkstack(L, 2)) return;
    luaL_unref(L, LUA_REGISTRYINDEX, ref);
}
