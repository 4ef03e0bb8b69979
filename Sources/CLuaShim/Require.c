#include "Internal.h"

#include <stdlib.h>

/*
 * require: "wayfinder" and "wayfinder.*" come from the bundled modules, every other name from the
 * app's files, so an app's module never stands in for a bundled one. Swift reads the sources
 * (wf_module_reader: a directory's files, kept inside it, or sources held in memory, the bundled
 * modules compiled into the library among them); this side validates names, caches results in the
 * loaded table and detects loops.
 *
 * "wayfinder.native" and "wayfinder.native.*" are the host's bindings, which the bundled modules
 * wrap: only the main chunk of a bundled module may require them. Those chunks are recorded (weakly)
 * as require loads them; a script cannot get hold of one, nor make a function that is one.
 *
 * The modules a thread is loading are a stack kept per thread (a coroutine that dies half-way through
 * a require must not leave a mark that makes a later require look like a loop). A to-be-closed guard
 * pops the mark when the require returns or raises.
 */

/*
 * The bundled modules compiled into the library are compiled from text once per process: the first
 * state that loads one hands its compiled chunk to the host (WF_READ_KEEP), and later states load
 * that bytecode (WF_READ_PRECOMPILED) instead of compiling again. Bytecode can break the VM, so it
 * loads only for the bundled root and only as the reader's own kept chunk: an app's module, a
 * bundled module read from a directory, and load() always take text.
 */

typedef struct wf_dump_buffer {
    char *bytes;
    size_t len;
    size_t cap;
} wf_dump_buffer;

static int wf_dump_writer(lua_State *L, const void *p, size_t size, void *ud) {
    (void)L;
    wf_dump_buffer *b = (wf_dump_buffer *)ud;
    if (size > b->cap - b->len) {
        size_t cap = (b->len + size) * 2;
        char *grown = realloc(b->bytes, cap);
        if (grown == NULL) return 1;
        b->bytes = grown;
        b->cap = cap;
    }
    memcpy(b->bytes + b->len, p, size);
    b->len += size;
    return 0;
}

/* Hands the chunk on top, just compiled and not yet run, to the host to keep, with its debug
   information (errors name file and line as the text's do). lua_dump writes through the writer
   into C memory and raises nothing; a dump that fails keeps nothing. */
static void wf_keep_chunk(lua_State *L, wf_host *h, const char *relpath) {
    if (h->chunk_keeper == NULL) return;
    wf_dump_buffer b = { NULL, 0, 0 };
    if (lua_dump(L, wf_dump_writer, &b, 0) == 0) h->chunk_keeper(h->owner, relpath, b.bytes, b.len);
    free(b.bytes);
}

static int wf_valid_name(const char *s, size_t len) {
    int after_dot = 1;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (c == '.') {
            if (after_dot) return 0;
            after_dot = 1;
        } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_') {
            after_dot = 0;
        } else {
            return 0;
        }
    }
    return !after_dot;
}

/* Pushes this thread's stack of modules being loaded, creating it when needed. */
static void wf_loading_stack(lua_State *L) {
    lua_getfield(L, LUA_REGISTRYINDEX, WF_KEY_LOADING);
    lua_pushthread(L);
    if (lua_rawget(L, -2) == LUA_TNIL) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushthread(L);
        lua_pushvalue(L, -2);
        lua_rawset(L, -4);
    }
    lua_remove(L, -2);
}

static int wf_require_unmark(lua_State *L) {
    wf_loading_stack(L);
    lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
    if (n > 0) {
        lua_pushnil(L);
        lua_rawseti(L, -2, n);
    }
    return 0;
}

/* Creates a table with weak keys in the registry under `key`. */
static void wf_weak_keyed(lua_State *L, const char *key) {
    lua_newtable(L);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_setfield(L, LUA_REGISTRYINDEX, key);
}

void wf_require_setup(lua_State *L) {
    wf_weak_keyed(L, WF_KEY_LOADING);
    wf_weak_keyed(L, WF_KEY_BUNDLED_CHUNKS);
    wf_weak_keyed(L, WF_KEY_OBJECT_METATABLES);

    lua_newtable(L);
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, wf_require_unmark);
    lua_setfield(L, -2, "__close");
    lua_setmetatable(L, -2);
    lua_setfield(L, LUA_REGISTRYINDEX, WF_KEY_REQUIRE_GUARD);
    /* Made now, so that setting it when a module is not found allocates nothing. */
    lua_pushboolean(L, 0);
    lua_setfield(L, LUA_REGISTRYINDEX, WF_KEY_NOT_FOUND);
}

/* Raises the message on top (its position already prefixed, taken at `at`) as the module `name`
   not found, remembering the name, so that a caller can tell this module's absence from that of
   a module it requires by structure (wf_not_found_name), never by the message's text. */
static int wf_raise_not_found(lua_State *L, int name, const wf_where *at) {
    lua_pushvalue(L, name);
    lua_setfield(L, LUA_REGISTRYINDEX, WF_KEY_NOT_FOUND);
    return wf_raise_at(L, WF_KIND_NOT_FOUND, at);
}

const char *wf_not_found_name(lua_State *L, int index) {
    if (wf_raised_kind(L, index) != WF_KIND_NOT_FOUND) return NULL;
    lua_getfield(L, LUA_REGISTRYINDEX, WF_KEY_NOT_FOUND);
    /* The registry keeps the string, so the pointer outlives the pop. */
    const char *name = lua_tostring(L, -1);
    lua_pop(L, 1);
    return name;
}

/* Raises "require loop: a -> b -> a" when `name` is already on the stack at index `stack`. */
static void wf_check_loop(lua_State *L, int stack, const char *name) {
    lua_Integer n = (lua_Integer)lua_rawlen(L, stack);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, stack, i);
        int same = strcmp(lua_tostring(L, -1), name) == 0;
        lua_pop(L, 1);
        if (!same) continue;
        luaL_Buffer b;
        wf_where at;
        luaL_buffinit(L, &b);
        wf_where_at(L, L, 1, &at);
        luaL_addvalue(&b);
        luaL_addstring(&b, "require loop: ");
        for (lua_Integer j = i; j <= n; j++) {
            lua_rawgeti(L, stack, j);
            luaL_addvalue(&b);
            luaL_addstring(&b, " -> ");
        }
        luaL_addstring(&b, name);
        luaL_pushresult(&b);
        wf_raise_at(L, WF_KIND_RUNTIME, &at);
    }
}

int wf_fn_require(lua_State *L) {
    size_t len;
    const char *name = luaL_checklstring(L, 1, &len);
    lua_settop(L, 1);
    if (!wf_valid_name(name, len)) {
        /* No module has such a name, so none is found. */
        wf_where at;
        wf_where_at(L, L, 1, &at);
        lua_pushfstring(L, "invalid module name '%s' (use letters, digits, underscores and dots, as in 'screens.food')", name);
        lua_concat(L, 2);
        return wf_raise_not_found(L, 1, &at);
    }

    if (strcmp(name, "wayfinder.native") == 0 || strncmp(name, "wayfinder.native.", 17) == 0) {
        lua_Debug ar;
        int bundled = 0;
        if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "f", &ar)) {
            lua_getfield(L, LUA_REGISTRYINDEX, WF_KEY_BUNDLED_CHUNKS);
            lua_insert(L, -2);
            bundled = lua_rawget(L, -2) != LUA_TNIL;
            lua_pop(L, 2);
        }
        if (!bundled) {
            wf_where at;
            wf_where_script(L, &at);
            lua_pushfstring(L, "module '%s' belongs to the host: only the bundled wayfinder modules can require it",
                            name);
            lua_concat(L, 2);
            return wf_raise_at(L, WF_KIND_RUNTIME, &at);
        }
    }

    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE); /* 2 */
    if (lua_getfield(L, 2, name) != LUA_TNIL && lua_toboolean(L, -1)) return 1;
    lua_pop(L, 1);

    wf_loading_stack(L); /* 3 */
    wf_check_loop(L, 3, name);

    int root = WF_ROOT_APP;
    const char *sub = name;
    if (strcmp(name, "wayfinder") == 0) {
        root = WF_ROOT_BUNDLED;
        sub = "";
    } else if (strncmp(name, "wayfinder.", 10) == 0) {
        root = WF_ROOT_BUNDLED;
        sub = name + 10;
    }
    const char *where = root == WF_ROOT_BUNDLED ? "among the bundled modules" : "among the app's files";

    /* Candidate paths, relative to the root: 4 and 5 (5 is absent for the bundled root itself). */
    int ncandidates;
    if (*sub == '\0') {
        lua_pushliteral(L, "init.lua");
        ncandidates = 1;
    } else {
        const char *path = luaL_gsub(L, sub, ".", "/");
        lua_pushfstring(L, "%s.lua", path);
        lua_pushfstring(L, "%s/init.lua", path);
        lua_remove(L, -3);
        ncandidates = 2;
    }

    wf_host *h = wf_host_of(L);
    for (int c = 0; c < ncandidates; c++) {
        const char *relpath = lua_tostring(L, 4 + c);
        /* A bundled module's chunk name has the prefix, its display name the prefix without '@'. */
        const char *display = root == WF_ROOT_BUNDLED ? lua_pushfstring(L, "%s%s", &WF_BUNDLED_CHUNK_PREFIX[1], relpath) : lua_pushstring(L, relpath);
        int display_index = lua_gettop(L);
        lua_pushfstring(L, "@%s", display);
        const char *chunkname = lua_tostring(L, -1);
        int status = WF_READ_NO_ROOT;
        size_t size = 0;
        char *source = h->module_reader ? h->module_reader(h->owner, root, relpath, &size, &status) : NULL;
        switch (status) {
        case WF_READ_OK:
        case WF_READ_KEEP:
        case WF_READ_PRECOMPILED: break;
        case WF_READ_NOT_FOUND: lua_pop(L, 2); continue;
        case WF_READ_OUTSIDE_ROOT:
            return luaL_error(L, "module '%s': %s leads outside the %s", name, display,
                              root == WF_ROOT_BUNDLED ? "bundled modules" : "app directory");
        case WF_READ_NO_ROOT:
            return luaL_error(L, "module '%s': no %s set", name, root == WF_ROOT_BUNDLED ? "bundled modules are" : "app is");
        case WF_READ_TOO_LARGE:
            return luaL_error(L, "module '%s': %s is larger than %d MiB", name, display, WF_SOURCE_LIMIT_MIB);
        default: return luaL_error(L, "module '%s': cannot read %s", name, display);
        }
        /* Nothing between the read and this free can raise: luaL_loadbufferx reports by status. */
        const char *mode = status == WF_READ_PRECOMPILED && root == WF_ROOT_BUNDLED ? "b" : "t";
        int loaded = luaL_loadbufferx(L, source, size, chunkname, mode);
        free(source);
        if (loaded != LUA_OK) {
            wf_where at;
            wf_where_loaded(L, chunkname, -1, &at);
            return wf_raise_at(L, WF_KIND_RUNTIME, &at);
        }
        if (status == WF_READ_KEEP && root == WF_ROOT_BUNDLED) wf_keep_chunk(L, h, relpath);
        if (root == WF_ROOT_BUNDLED) {
            lua_getfield(L, LUA_REGISTRYINDEX, WF_KEY_BUNDLED_CHUNKS);
            lua_pushvalue(L, -2);
            lua_pushboolean(L, 1);
            lua_rawset(L, -3);
            lua_pop(L, 1);
        }

        lua_pushvalue(L, 1);
        lua_rawseti(L, 3, (lua_Integer)lua_rawlen(L, 3) + 1);
        lua_getfield(L, LUA_REGISTRYINDEX, WF_KEY_REQUIRE_GUARD);
        lua_toclose(L, -1);
        lua_pushvalue(L, -2);
        lua_pushvalue(L, 1);
        lua_pushvalue(L, display_index);
        lua_call(L, 2, 1);
        if (!lua_isnil(L, -1)) lua_setfield(L, 2, name);
        else lua_pop(L, 1);
        if (lua_getfield(L, 2, name) == LUA_TNIL) {
            lua_pop(L, 1);
            lua_pushboolean(L, 1);
            lua_pushvalue(L, -1);
            lua_setfield(L, 2, name);
        }
        return 1;
    }

    wf_where at;
    wf_where_at(L, L, 1, &at);
    if (ncandidates == 1)
        lua_pushfstring(L, "module '%s' not found: no wayfinder/init.lua %s", name, where);
    else if (root == WF_ROOT_BUNDLED)
        lua_pushfstring(L, "module '%s' not found: no wayfinder/%s or wayfinder/%s %s", name, lua_tostring(L, 4),
                        lua_tostring(L, 5), where);
    else
        lua_pushfstring(L, "module '%s' not found: no %s or %s %s", name, lua_tostring(L, 4), lua_tostring(L, 5), where);
    lua_concat(L, 2);
    return wf_raise_not_found(L, 1, &at);
}
