#include "Internal.h"

#include <stdlib.h>

/*
 * What scripts can reach: base, string, table, math, utf8, coroutine, and os.time/clock/date.
 * No io, debug, package or other os functions; no binary chunks; no files except through require.
 */

/* load, with the mode forced to text whatever the caller asks: precompiled chunks can break the VM. */
static int wf_load_text(lua_State *L) {
    int n = lua_gettop(L);
    if (n < 3) {
        lua_settop(L, 3);
        n = 3;
    }
    lua_pushliteral(L, "t");
    lua_replace(L, 3);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, LUA_MULTRET);
    return lua_gettop(L);
}

/*
 * setmetatable, refusing finalizers: Lua runs __gc with debug hooks off, so a finalizer that loops
 * could never be stopped by the time budget. Objects get finalizers only at setmetatable time, so
 * refusing a metatable that has a __gc field (even a placeholder) leaves scripts no way to get one.
 */
static int wf_setmetatable(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    int type = lua_type(L, 2);
    luaL_argexpected(L, type == LUA_TNIL || type == LUA_TTABLE, 2, "nil or table");
    if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL) return luaL_error(L, "cannot change a protected metatable");
    if (type == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL)
            return luaL_error(L, "__gc metamethods are not available to scripts (a finalizer cannot be stopped by the time budget)");
    }
    lua_settop(L, 2);
    lua_setmetatable(L, 1);
    return 1;
}

/*
 * error and assert, as Lua's, raising through the host with the position they put in front of the
 * message kept beside it (wf_raise_at), so what an error names is known from where it was raised,
 * never read back from its text. A string raised at a level names that level's frame; level 0, a
 * C frame there, or any other value names none, as Lua's luaL_where and luaB_error decide.
 */
static int wf_raise_placed(lua_State *L, int level) {
    wf_where at;
    wf_where_clear(&at);
    if (lua_type(L, 1) == LUA_TSTRING && level > 0) {
        wf_where_at(L, L, level, &at);
        lua_insert(L, 1);
        lua_concat(L, 2);
    } else if (wf_raised_kind(L, 1) >= 0) {
        /* The value raised last, passed on unchanged (a caught error re-raised, a verdict): it
           keeps the kind, frames and position it was raised with. */
        return lua_error(L);
    }
    return wf_raise_at(L, WF_KIND_RUNTIME, &at);
}

static int wf_error(lua_State *L) {
    int level = (int)luaL_optinteger(L, 2, 1);
    lua_settop(L, 1);
    return wf_raise_placed(L, level);
}

static int wf_assert(lua_State *L) {
    if (lua_toboolean(L, 1)) return lua_gettop(L);
    luaL_checkany(L, 1);
    lua_remove(L, 1);
    lua_pushliteral(L, "assertion failed!");
    lua_settop(L, 1);
    return wf_raise_placed(L, 1);
}

/* The longest text one print or warn call hands to the host, and the most all of them may hand it
   during one call from the host into Lua. The host copies the text out of Lua's memory (to a
   terminal, a screen, a list of warnings), where the memory limit cannot see it, so it is capped
   instead. */
#define WF_TEXT_LIMIT (64 * 1024)
#define WF_TEXT_PER_CALL_LIMIT (1024 * 1024)

static int wf_text_too_long(lua_State *L, const char *what) {
    return luaL_error(L, "%s: text longer than the limit of %d KiB", what, WF_TEXT_LIMIT / 1024);
}

/* Counts len bytes of text against the per-call limit; raises when they do not fit. */
static void wf_count_text(lua_State *L, const char *what, size_t len) {
    wf_host *h = wf_host_of(L);
    if (len > WF_TEXT_PER_CALL_LIMIT - h->text_out || h->text_out > WF_TEXT_PER_CALL_LIMIT)
        luaL_error(L, "%s: more than %d KiB of text in one call", what, WF_TEXT_PER_CALL_LIMIT / 1024);
    h->text_out += len;
}

static int wf_print(lua_State *L) {
    int n = lua_gettop(L);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    size_t total = 0;
    for (int i = 1; i <= n; i++) {
        if (i > 1) luaL_addchar(&b, '\t');
        size_t piece;
        luaL_tolstring(L, i, &piece);
        total += piece + (i > 1);
        if (total > WF_TEXT_LIMIT) return wf_text_too_long(L, "print");
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    size_t len;
    const char *text = lua_tolstring(L, -1, &len);
    wf_count_text(L, "print", len);
    wf_host *h = wf_host_of(L);
    if (h->print_sink) {
        lua_State *previous = h->current;
        h->current = L;
        h->print_sink(h->owner, text, len);
        h->current = previous;
    }
    return 0;
}

/* warn, refusing a message longer than WF_TEXT_LIMIT before any piece reaches the host. */
static int wf_warn_checked(lua_State *L) {
    int n = lua_gettop(L);
    luaL_checkstring(L, 1);
    size_t total = 0;
    for (int i = 1; i <= n; i++) {
        size_t piece;
        luaL_checklstring(L, i, &piece);
        total += piece;
        if (total > WF_TEXT_LIMIT) return wf_text_too_long(L, "warn");
    }
    wf_count_text(L, "warn", total);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, n, 0);
    return 0;
}

/* Warnings come in pieces; a message is whole when a piece is not marked to continue. Control
   messages ("@on", "@off") arrive as single pieces. */
void wf_warn(void *ud, const char *msg, int tocont) {
    wf_host *h = (wf_host *)ud;
    if (!h->warn_continuing && !tocont && msg[0] == '@') {
        if (strcmp(msg, "@on") == 0) h->warn_on = 1;
        else if (strcmp(msg, "@off") == 0) h->warn_on = 0;
        return;
    }
    size_t len = strlen(msg);
    /* Pieces that come some other way than wf_warn_checked are cut at the same length. */
    if (h->warn_len >= WF_TEXT_LIMIT) len = 0;
    else if (len > WF_TEXT_LIMIT - h->warn_len) len = WF_TEXT_LIMIT - h->warn_len;
    if (h->warn_len + len > h->warn_cap) {
        size_t cap = (h->warn_len + len) * 2 + 64;
        char *buf = realloc(h->warn_buf, cap);
        if (buf) {
            h->warn_buf = buf;
            h->warn_cap = cap;
        }
    }
    if (h->warn_len + len <= h->warn_cap) {
        memcpy(h->warn_buf + h->warn_len, msg, len);
        h->warn_len += len;
    }
    h->warn_continuing = tocont;
    if (!tocont) {
        if (h->warn_on && h->warn_sink) h->warn_sink(h->owner, h->warn_buf ? h->warn_buf : "", h->warn_len);
        h->warn_len = 0;
    }
}

/*
 * The coroutine functions that could tell a runner (the coroutine of the host's that a call from
 * the host runs in, Trampoline.c) from the main thread: a runner is not a coroutine of the
 * script's, so it is as the main thread to them. Yielding from it fails as yielding outside any
 * coroutine does, at the caller's line.
 */
static int wf_co_yield(lua_State *L) {
    if (wf_is_runner(L, L)) return luaL_error(L, "attempt to yield from outside a coroutine");
    return lua_yield(L, lua_gettop(L));
}

static int wf_co_isyieldable(lua_State *L) {
    lua_State *co = L;
    if (!lua_isnone(L, 1)) {
        co = lua_tothread(L, 1);
        luaL_argexpected(L, co != NULL, 1, "coroutine");
    }
    lua_pushboolean(L, !wf_is_runner(L, co) && lua_isyieldable(co));
    return 1;
}

static int wf_co_running(lua_State *L) {
    int main = lua_pushthread(L);
    lua_pushboolean(L, main || wf_is_runner(L, L));
    return 2;
}

int wf_fn_open_sandbox(lua_State *L) {
    static const luaL_Reg libs[] = {
        { LUA_GNAME, luaopen_base },
        { LUA_STRLIBNAME, luaopen_string },
        { LUA_TABLIBNAME, luaopen_table },
        { LUA_MATHLIBNAME, luaopen_math },
        { LUA_UTF8LIBNAME, luaopen_utf8 },
        { LUA_COLIBNAME, luaopen_coroutine },
        { NULL, NULL },
    };
    for (const luaL_Reg *lib = libs; lib->func; lib++) {
        luaL_requiref(L, lib->name, lib->func, 1);
        lua_pop(L, 1);
    }

    lua_getglobal(L, LUA_COLIBNAME);
    static const luaL_Reg coroutine_kept[] = {
        { "yield", wf_co_yield }, { "isyieldable", wf_co_isyieldable }, { "running", wf_co_running }, { NULL, NULL },
    };
    luaL_setfuncs(L, coroutine_kept, 0);
    lua_pop(L, 1);

    /* os: only the clock and the calendar. */
    lua_pushcfunction(L, luaopen_os);
    lua_call(L, 0, 1);
    lua_createtable(L, 0, 3);
    static const char *const os_kept[] = { "time", "clock", "date" };
    for (size_t i = 0; i < sizeof os_kept / sizeof *os_kept; i++) {
        lua_getfield(L, -2, os_kept[i]);
        lua_setfield(L, -2, os_kept[i]);
    }
    lua_pushvalue(L, -1);
    lua_setglobal(L, LUA_OSLIBNAME);
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_insert(L, -2);
    lua_setfield(L, -2, LUA_OSLIBNAME);
    lua_pop(L, 2);

    lua_pushnil(L);
    lua_setglobal(L, "dofile");
    lua_pushnil(L);
    lua_setglobal(L, "loadfile");
    lua_getglobal(L, LUA_STRLIBNAME);
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");
    lua_pop(L, 1);

    lua_getglobal(L, "load");
    lua_pushcclosure(L, wf_load_text, 1);
    lua_setglobal(L, "load");

    lua_pushcfunction(L, wf_print);
    lua_setglobal(L, "print");

    lua_getglobal(L, "warn");
    lua_pushcclosure(L, wf_warn_checked, 1);
    lua_setglobal(L, "warn");

    lua_pushcfunction(L, wf_setmetatable);
    lua_setglobal(L, "setmetatable");

    lua_pushcfunction(L, wf_error);
    lua_setglobal(L, "error");
    lua_pushcfunction(L, wf_assert);
    lua_setglobal(L, "assert");

    lua_pushcfunction(L, wf_xpcall);
    lua_setglobal(L, "xpcall");

    wf_bound_libraries(L);

    lua_pushcfunction(L, wf_fn_require);
    lua_setglobal(L, "require");

    wf_require_setup(L);
    return 0;
}
