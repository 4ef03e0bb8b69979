#include "Internal.h"

#include <limits.h>

/*
 * The C functions of the sandbox's libraries that could loop for long without running a Lua
 * instruction (so without meeting the time budget) and without allocating (so without meeting the
 * memory limit), bounded here:
 *
 * - string.rep with an empty string and an empty separator does nothing n times: the answer is ""
 *   at once. Any other string.rep allocates what it copies, so the memory limit bounds it.
 * - table.concat, table.move, table.insert, table.remove and table.sort walk an index range that a
 *   metatable (__index, __newindex, __len) can make as long as it likes while no element is stored,
 *   so each walk is refused when its range is longer than an array the memory limit could hold
 *   (WF_VALUE_SIZE bytes an element). table.unpack is bounded by the stack limit already.
 *
 * - string.find, match, gmatch and gsub backtrack without either: Patterns.c counts their work
 *   against the time budget.
 *
 * These are Wayfinder's own implementations of the same contracts (so errors still name the
 * script's line), except table.sort, which checks its length and then runs Lua's own sort.
 */

/* The size of one array element in Lua 5.4 (a TValue). */
#define WF_VALUE_SIZE 16

/* The longest index range a table function may walk: as many elements as the memory limit holds. */
static lua_Integer wf_range_limit(lua_State *L) {
    wf_host *h = wf_host_of(L);
    return (lua_Integer)(h->mem_limit / WF_VALUE_SIZE);
}

/* Raises when [first, last] is longer than the range limit. */
static void wf_check_range(lua_State *L, const char *fname, lua_Integer first, lua_Integer last) {
    if (last < first) return;
    lua_Unsigned count = (lua_Unsigned)last - (lua_Unsigned)first;
    if (count >= (lua_Unsigned)wf_range_limit(L))
        luaL_error(L, "bad argument to '%s' (a range of %I elements is longer than the memory limit could hold)",
                   fname, (lua_Integer)(count < (lua_Unsigned)LUA_MAXINTEGER ? count + 1 : (lua_Unsigned)LUA_MAXINTEGER));
}

/* Checks that the argument at idx is a table, or has the metamethods the function uses. */
static void wf_check_table(lua_State *L, int idx, int reads, int writes) {
    if (lua_type(L, idx) == LUA_TTABLE) return;
    int ok = lua_getmetatable(L, idx);
    if (ok) {
        if (reads) { lua_pushliteral(L, "__index"); ok = ok && lua_rawget(L, -2) != LUA_TNIL; lua_pop(L, 1); }
        if (writes) { lua_pushliteral(L, "__newindex"); ok = ok && lua_rawget(L, -2) != LUA_TNIL; lua_pop(L, 1); }
        lua_pushliteral(L, "__len");
        ok = ok && lua_rawget(L, -2) != LUA_TNIL;
        lua_pop(L, 2);
    }
    if (!ok) luaL_checktype(L, idx, LUA_TTABLE);
}

/* string.rep(s, n [, sep]) */
static int wf_string_rep(lua_State *L) {
    size_t len, lsep;
    const char *s = luaL_checklstring(L, 1, &len);
    lua_Integer n = luaL_checkinteger(L, 2);
    const char *sep = luaL_optlstring(L, 3, "", &lsep);
    if (n <= 0 || len + lsep == 0) {
        lua_pushliteral(L, "");
        return 1;
    }
    if (len + lsep < len || len + lsep > (size_t)INT_MAX / (lua_Unsigned)n)
        return luaL_error(L, "resulting string too large");
    size_t total = (size_t)n * len + (size_t)(n - 1) * lsep;
    luaL_Buffer b;
    char *p = luaL_buffinitsize(L, &b, total);
    for (lua_Integer i = 0; i < n; i++) {
        memcpy(p, s, len);
        p += len;
        if (lsep > 0 && i + 1 < n) {
            memcpy(p, sep, lsep);
            p += lsep;
        }
    }
    luaL_pushresultsize(&b, total);
    return 1;
}

/* table.concat(list [, sep [, i [, j]]]) */
static int wf_table_concat(lua_State *L) {
    wf_check_table(L, 1, 1, 0);
    size_t lsep;
    const char *sep = luaL_optlstring(L, 2, "", &lsep);
    lua_Integer first = luaL_optinteger(L, 3, 1);
    lua_Integer last = lua_isnoneornil(L, 4) ? luaL_len(L, 1) : luaL_checkinteger(L, 4);
    wf_check_range(L, "concat", first, last);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (lua_Integer i = first; i <= last; i++) {
        lua_geti(L, 1, i);
        if (!lua_isstring(L, -1))
            return luaL_error(L, "invalid value (at index %I) in table for 'concat'", (LUAI_UACINT)i);
        luaL_addvalue(&b);
        if (i == last) break;
        luaL_addlstring(&b, sep, lsep);
    }
    luaL_pushresult(&b);
    return 1;
}

/* table.move(a1, f, e, t [, a2]) */
static int wf_table_move(lua_State *L) {
    lua_Integer f = luaL_checkinteger(L, 2);
    lua_Integer e = luaL_checkinteger(L, 3);
    lua_Integer t = luaL_checkinteger(L, 4);
    int target = lua_isnoneornil(L, 5) ? 1 : 5;
    wf_check_table(L, 1, 1, 0);
    wf_check_table(L, target, 0, 1);
    if (e >= f) {
        luaL_argcheck(L, f > 0 || e < LUA_MAXINTEGER + f, 3, "too many elements to move");
        lua_Integer n = e - f;
        luaL_argcheck(L, t <= LUA_MAXINTEGER - n, 4, "destination wrap around");
        wf_check_range(L, "move", f, e);
        if (t > e || t <= f || (target != 1 && !lua_compare(L, 1, target, LUA_OPEQ))) {
            for (lua_Integer i = 0; i <= n; i++) {
                lua_geti(L, 1, f + i);
                lua_seti(L, target, t + i);
            }
        } else {
            for (lua_Integer i = n; i >= 0; i--) {
                lua_geti(L, 1, f + i);
                lua_seti(L, target, t + i);
            }
        }
    }
    lua_pushvalue(L, target);
    return 1;
}

/* table.insert(list, [pos,] value): inserting at pos shifts the elements from pos up. */
static int wf_table_insert(lua_State *L) {
    wf_check_table(L, 1, 1, 1);
    lua_Integer end = luaL_len(L, 1) + 1;
    lua_Integer pos;
    switch (lua_gettop(L)) {
    case 2: pos = end; break;
    case 3:
        pos = luaL_checkinteger(L, 2);
        luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)end, 2, "position out of bounds");
        wf_check_range(L, "insert", pos, end);
        for (lua_Integer i = end; i > pos; i--) {
            lua_geti(L, 1, i - 1);
            lua_seti(L, 1, i);
        }
        break;
    default: return luaL_error(L, "wrong number of arguments to 'insert'");
    }
    lua_seti(L, 1, pos);
    return 0;
}

/* table.remove(list [, pos]): removing at pos shifts the elements above it down. */
static int wf_table_remove(lua_State *L) {
    wf_check_table(L, 1, 1, 1);
    lua_Integer size = luaL_len(L, 1);
    lua_Integer pos = luaL_optinteger(L, 2, size);
    if (pos != size) luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 2, "position out of bounds");
    wf_check_range(L, "remove", pos, size);
    lua_geti(L, 1, pos);
    for (; pos < size; pos++) {
        lua_geti(L, 1, pos + 1);
        lua_seti(L, 1, pos);
    }
    lua_pushnil(L);
    lua_seti(L, 1, pos);
    return 1;
}

/* table.sort(list [, comp]): Lua's own sort, once the length is known to be within the limit. */
static int wf_table_sort(lua_State *L) {
    wf_check_table(L, 1, 1, 1);
    if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
    wf_check_range(L, "sort", 1, luaL_len(L, 1));
    int n = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, 0);
    return 0;
}

/* Replaces library[name] with `bounded`, a C closure over the original function. */
static void wf_bound(lua_State *L, const char *library, const char *name, lua_CFunction bounded) {
    lua_getglobal(L, library);
    lua_getfield(L, -1, name);
    lua_pushcclosure(L, bounded, 1);
    lua_setfield(L, -2, name);
    lua_pop(L, 1);
}

void wf_bound_libraries(lua_State *L) {
    wf_bound(L, LUA_STRLIBNAME, "rep", wf_string_rep);
    wf_bound(L, LUA_TABLIBNAME, "concat", wf_table_concat);
    wf_bound(L, LUA_TABLIBNAME, "move", wf_table_move);
    wf_bound(L, LUA_TABLIBNAME, "insert", wf_table_insert);
    wf_bound(L, LUA_TABLIBNAME, "remove", wf_table_remove);
    wf_bound(L, LUA_TABLIBNAME, "sort", wf_table_sort);
    wf_bound_patterns(L);
}
