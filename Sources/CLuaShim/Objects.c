#include "Internal.h"

#include <stdlib.h>

/*
 * Small C functions Swift runs as the callee of wf_pcall, because each can raise (they allocate).
 */

int wf_fn_ref(lua_State *L) {
    lua_settop(L, 1);
    int ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_pushinteger(L, ref);
    return 1;
}

/* Calls the function at 1 with the values above it and holds its first result in the registry in
   the same protected call, rather than in a second one: answers the reference (LUA_REFNIL when
   the result is nil, which references nothing) and the result. */
int wf_fn_call_holding(lua_State *L) {
    lua_call(L, lua_gettop(L) - 1, 1);
    lua_pushvalue(L, 1);
    int ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_pushinteger(L, ref);
    lua_insert(L, 1);
    return 2;
}

/* Returns the compiled chunk, or nil, the message, the status and the position the message names
   (file, line; line 0 when none); the caller tells syntax errors from memory errors by that
   status. The source is Swift memory, alive for the whole call. */
int wf_fn_load(lua_State *L) {
    const char *source = (const char *)lua_touserdata(L, 1);
    size_t len = (size_t)lua_tointeger(L, 2);
    const char *chunkname = lua_tostring(L, 3);
    int status = luaL_loadbufferx(L, source, len, chunkname, "t");
    if (status == LUA_OK) return 1;
    wf_where at;
    if (status == LUA_ERRSYNTAX) wf_where_loaded(L, chunkname, -1, &at);
    else wf_where_clear(&at);
    lua_pushnil(L);
    lua_insert(L, -2);
    lua_pushinteger(L, status);
    lua_pushstring(L, at.file);
    lua_pushinteger(L, at.line);
    return 5;
}

int wf_fn_preload(lua_State *L) {
    lua_settop(L, 2);
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_insert(L, 1);
    lua_rawset(L, 1);
    return 0;
}

int wf_fn_setglobal(lua_State *L) {
    lua_settop(L, 2);
    lua_pushglobaltable(L);
    lua_insert(L, 1);
    lua_settable(L, 1);
    return 0;
}

int wf_fn_getglobal(lua_State *L) {
    lua_settop(L, 1);
    lua_pushglobaltable(L);
    lua_insert(L, 1);
    lua_gettable(L, 1);
    return 1;
}

int wf_fn_collect(lua_State *L) {
    lua_gc(L, LUA_GCCOLLECT);
    return 0;
}

static wf_object *wf_checkobject(lua_State *L, int idx) {
    if (lua_type(L, idx) != LUA_TUSERDATA || lua_rawlen(L, idx) != sizeof(wf_object)) return NULL;
    wf_object *u = (wf_object *)lua_touserdata(L, idx);
    return u->magic == WF_OBJECT_MAGIC ? u : NULL;
}

void *wf_toobject(lua_State *L, int idx) {
    wf_object *u = wf_checkobject(L, idx);
    return u ? u->object : NULL;
}

/* Queues the object for Swift to release; if the queue cannot grow the object leaks rather than
   being released in the middle of a collection. */
static int wf_object_gc(lua_State *L) {
    wf_object *u = wf_checkobject(L, 1);
    if (u && u->object) {
        wf_host *h = wf_host_of(L);
        if (h->finalized_len == h->finalized_cap) {
            size_t cap = h->finalized_cap ? h->finalized_cap * 2 : 16;
            void **grown = realloc(h->finalized, cap * sizeof *grown);
            if (grown == NULL) return 0;
            h->finalized = grown;
            h->finalized_cap = cap;
        }
        h->finalized[h->finalized_len++] = u->object;
        u->object = NULL;
    }
    return 0;
}

/*
 * The metatable objects made with `given` get: a copy of its fields (taken at the first object and
 * shared by every later one) with Wayfinder's own __gc, hidden from getmetatable unless `given` says
 * otherwise. Lua reads __gc again when it finalizes and runs it with hooks off, so the table holding
 * it must be one no script can reach: `given` may be a script's own, the copy never is.
 */
static void wf_object_metatable(lua_State *L, int given) {
    lua_getfield(L, LUA_REGISTRYINDEX, WF_KEY_OBJECT_METATABLES);
    lua_pushvalue(L, given);
    if (lua_rawget(L, -2) == LUA_TTABLE) {
        lua_remove(L, -2);
        return;
    }
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, given)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, -4);
    }
    lua_pushcfunction(L, wf_object_gc);
    lua_setfield(L, -2, "__gc");
    lua_pushliteral(L, "__metatable");
    if (lua_rawget(L, -2) == LUA_TNIL) {
        lua_pushboolean(L, 0);
        lua_setfield(L, -3, "__metatable");
    }
    lua_pop(L, 1);
    lua_pushvalue(L, given);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4);
    lua_remove(L, -2);
}

/*
 * The userdata takes ownership of the retained object only in its last step, which cannot fail: so
 * the call succeeded exactly when Lua owns the object, and on failure Swift releases it. The
 * metatable (see wf_object_metatable) is set before that step, so Lua registers the finalizer.
 */
int wf_fn_newobject(lua_State *L) {
    void *object = lua_touserdata(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    wf_object_metatable(L, 2);
    wf_object *u = (wf_object *)lua_newuserdatauv(L, sizeof(wf_object), 0);
    u->magic = WF_OBJECT_MAGIC;
    u->object = NULL;
    lua_insert(L, -2);
    lua_setmetatable(L, -2);
    u->object = object;
    return 1;
}
