#include "Internal.h"

/*
 * A lookup that runs no Lua: whether a field is certainly absent, so the host can skip calling a
 * hook a controller does not have (appear, disappear) on every navigation.
 */

/* The value, then each `__index` table up the metatables, as Lua's own lookup walks them; 0
   whenever that cannot be told by raw reads (an `__index` function, a value that is not a table,
   a chain of more than 64). Raw gets and getmetatable neither raise nor allocate. */
int wf_certainly_lacks(lua_State *L, int target, int key, int index_key) {
    if (!lua_checkstack(L, 4)) return 0;
    int base = lua_gettop(L);
    int lacks = 0;
    lua_rawgeti(L, LUA_REGISTRYINDEX, target);
    /* Lua gives up on a chain of 2,000; anything near that is left to Lua and its error. */
    for (int depth = 0; depth < 64; depth++) {
        if (lua_type(L, -1) != LUA_TTABLE) break;
        lua_rawgeti(L, LUA_REGISTRYINDEX, key);
        if (lua_rawget(L, -2) != LUA_TNIL) break;
        lua_pop(L, 1);
        if (!lua_getmetatable(L, -1)) {
            lacks = 1;
            break;
        }
        lua_rawgeti(L, LUA_REGISTRYINDEX, index_key);
        if (lua_rawget(L, -2) == LUA_TNIL) {
            lacks = 1;
            break;
        }
        lua_copy(L, -1, base + 1);
        lua_settop(L, base + 1);
    }
    lua_settop(L, base);
    return lacks;
}
