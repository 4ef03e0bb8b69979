#include "Internal.h"

#include <string.h>

/*
 * A Lua function's environment: its `_ENV` upvalue. The spec module gives each spec file's chunk
 * its environment and rebinds functions for `bindfenv`; no script reaches these (they are lent
 * to the spec module alone, through wayfinder.native.spec).
 */

/* The number of the upvalue named _ENV of the Lua function at `index`, or 0 when it has none. */
static int env_upvalue(lua_State *L, int index) {
    for (int n = 1;; n++) {
        const char *name = lua_getupvalue(L, index, n);
        if (name == NULL) return 0;
        lua_pop(L, 1);
        if (strcmp(name, "_ENV") == 0) return n;
    }
}

/* Bindings must not raise (the trampoline calling them expects a return), so a value of the
   wrong kind is answered, not raised: the spec module names it. */
static int is_lua_function(lua_State *L, int index) {
    return lua_type(L, index) == LUA_TFUNCTION && !lua_iscfunction(L, index);
}

/* env_of(fn) -> false when fn is not a Lua function; true and the value of its _ENV; true alone
   when it reads no global. */
int wf_fn_env_of(lua_State *L) {
    if (!is_lua_function(L, 1)) {
        lua_pushboolean(L, 0);
        return 1;
    }
    lua_pushboolean(L, 1);
    int n = env_upvalue(L, 1);
    if (n == 0) return 1;
    lua_getupvalue(L, 1, n);
    return 2;
}

/* bind_env(fn, env, cell) -> whether fn's _ENV was rebound: it becomes cell's first upvalue (a
   variable of its own, so the functions that shared fn's keep theirs), holding env. False when
   fn or cell is not a Lua function, cell has no upvalue or fn reads no global. */
int wf_fn_bind_env(lua_State *L) {
    lua_settop(L, 3);
    int n = is_lua_function(L, 1) && is_lua_function(L, 3) ? env_upvalue(L, 1) : 0;
    if (n == 0 || lua_getupvalue(L, 3, 1) == NULL) {
        lua_pushboolean(L, 0);
        return 1;
    }
    lua_pop(L, 1);
    lua_upvaluejoin(L, 1, n, 3, 1);
    lua_pushvalue(L, 2);
    lua_setupvalue(L, 1, n);
    lua_pushboolean(L, 1);
    return 1;
}
