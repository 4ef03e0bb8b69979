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
 * script's line). table.sort is also bounded in time: see wf_table_sort.
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

/*
 * table.sort(list [, comp]): a heapsort. Lua's own sort is a quicksort that a comparator written
 * against it (or a C comparator such as math.ult over metamethods that store nothing) can drive to
 * n^2 comparisons inside one C call, where the count hook never runs. A heapsort makes at most
 * about 2 n log2 n comparisons whatever the comparator answers, needs no recursion, and asks the
 * time budget every WF_SORT_STEPS sift steps. Elements are read and written through lua_geti and
 * lua_seti (metamethods apply), and compared by comp(a, b) or by `<`, as Lua's sort does. The
 * order of equal elements is unspecified, as in Lua.
 */
#define WF_SORT_STEPS 4096

typedef struct wf_sorter {
    lua_State *L;
    wf_host *h;
    int has_comp;
    int steps;
} wf_sorter;

static void wf_sort_step(wf_sorter *s) {
    if (--s->steps > 0) return;
    s->steps = WF_SORT_STEPS;
    if (wf_budget_spent(s->h)) wf_raise_budget(s->L, 1);
}

/* Whether the value at stack index a sorts before the one at b. */
static int wf_sort_less(wf_sorter *s, int a, int b) {
    lua_State *L = s->L;
    if (!s->has_comp) {
        int ta = lua_type(L, a), tb = lua_type(L, b);
        int primitive = (ta == LUA_TNUMBER && tb == LUA_TNUMBER) || (ta == LUA_TSTRING && tb == LUA_TSTRING);
        /* Lua raises a failed comparison from inside this C function, without the script's
           line; raised here it carries it. */
        if (!primitive && luaL_getmetafield(L, a, "__lt") == LUA_TNIL && luaL_getmetafield(L, b, "__lt") == LUA_TNIL) {
            if (ta == tb) luaL_error(L, "attempt to compare two %s values", luaL_typename(L, a));
            luaL_error(L, "attempt to compare %s with %s", luaL_typename(L, a), luaL_typename(L, b));
        }
        if (!primitive) lua_pop(L, 1);
        return lua_compare(L, a, b, LUA_OPLT);
    }
    lua_pushvalue(L, 2);
    lua_pushvalue(L, a);
    lua_pushvalue(L, b);
    lua_call(L, 2, 1);
    int less = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return less;
}

/* Moves list[i] down the max-heap list[1..n] until neither child sorts after it. */
static void wf_sort_sift(wf_sorter *s, lua_Integer i, lua_Integer n) {
    lua_State *L = s->L;
    lua_geti(L, 1, i);
    int moving = lua_gettop(L);
    while (i <= n / 2) {
        wf_sort_step(s);
        lua_Integer child = 2 * i;
        lua_geti(L, 1, child);
        if (child < n) {
            lua_geti(L, 1, child + 1);
            if (wf_sort_less(s, moving + 1, moving + 2)) {
                child++;
                lua_remove(L, moving + 1);
            } else {
                lua_pop(L, 1);
            }
        }
        if (!wf_sort_less(s, moving, moving + 1)) {
            lua_pop(L, 1);
            break;
        }
        lua_seti(L, 1, i);
        i = child;
    }
    lua_seti(L, 1, i);
}

static int wf_table_sort(lua_State *L) {
    wf_check_table(L, 1, 1, 1);
    lua_Integer n = luaL_len(L, 1);
    wf_check_range(L, "sort", 1, n);
    if (n <= 1) return 0;
    if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_settop(L, 2);
    luaL_checkstack(L, 8, "too many values to sort");
    wf_sorter s = { L, wf_host_of(L), !lua_isnil(L, 2), WF_SORT_STEPS };
    for (lua_Integer i = n / 2; i >= 1; i--) wf_sort_sift(&s, i, n);
    for (lua_Integer last = n; last > 1; last--) {
        lua_geti(L, 1, 1);
        lua_geti(L, 1, last);
        lua_seti(L, 1, 1);
        lua_seti(L, 1, last);
        wf_sort_sift(&s, 1, last - 1);
    }
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
