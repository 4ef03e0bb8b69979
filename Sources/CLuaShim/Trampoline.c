#include "Internal.h"

/*
 * Both directions of the Swift/Lua crossing. Lua errors are raised only from these C frames, after
 * Swift has returned, so a longjmp never crosses a Swift frame.
 */

static int wf_raise(lua_State *L, int kind, int frames, const wf_where *at);

typedef struct wf_range {
    size_t start;
    size_t end;
} wf_range;

/* Reads `size` payload bytes at *pos; raises when the op runs past the end. The pointer is into the
   buffer as it is now: it must be used before any Lua call that could run a finalizer, because a
   binding run by that finalizer may append to the buffer and move it. */
static const unsigned char *wf_take(lua_State *L, wf_host *h, size_t *pos, size_t end, size_t size) {
    if (size > end - *pos) luaL_error(L, "malformed op buffer (truncated op)");
    const unsigned char *p = h->ops + *pos;
    *pos += size;
    return p;
}

static void wf_need_table_below(lua_State *L, int base) {
    if (lua_gettop(L) < base + 2 || lua_type(L, -2) != LUA_TTABLE)
        luaL_error(L, "malformed op buffer (field without a table)");
}

/* Raises the error of ops that could not all be written. Out of line, as every error path here:
   the calls that succeed do not pay for the position the error keeps. */
static WF_COLD void wf_raise_unwritten(lua_State *L, wf_host *h) {
    wf_where at;
    wf_where_at(L, L, 1, &at);
    lua_pushliteral(L, "not enough memory to pass values to Lua");
    lua_concat(L, 2);
    wf_raise_at(L, h->hit_memory ? WF_KIND_MEMORY : WF_KIND_RUNTIME, &at);
}

void wf_build(lua_State *L, wf_host *h, size_t pos, size_t end) {
    int base = lua_gettop(L);
    if (h->ops_broken_from < end) wf_raise_unwritten(L, h);
    while (pos < end) {
        luaL_checkstack(L, 3, "too many values to pass to Lua");
        unsigned char op = *wf_take(L, h, &pos, end, 1);
        switch (op) {
        case WF_OP_NIL: lua_pushnil(L); break;
        case WF_OP_TRUE: lua_pushboolean(L, 1); break;
        case WF_OP_FALSE: lua_pushboolean(L, 0); break;
        case WF_OP_INT: {
            int64_t v;
            memcpy(&v, wf_take(L, h, &pos, end, sizeof v), sizeof v);
            lua_pushinteger(L, (lua_Integer)v);
            break;
        }
        case WF_OP_DOUBLE: {
            double v;
            memcpy(&v, wf_take(L, h, &pos, end, sizeof v), sizeof v);
            lua_pushnumber(L, (lua_Number)v);
            break;
        }
        case WF_OP_STRING:
        case WF_OP_SETFIELD: {
            uint64_t n;
            memcpy(&n, wf_take(L, h, &pos, end, sizeof n), sizeof n);
            const unsigned char *bytes = wf_take(L, h, &pos, end, (size_t)n);
            if (op == WF_OP_SETFIELD) wf_need_table_below(L, base);
            /* lua_pushlstring copies before it lets the collector run finalizers. */
            lua_pushlstring(L, (const char *)bytes, (size_t)n);
            if (op == WF_OP_SETFIELD) {
                lua_insert(L, -2);
                lua_rawset(L, -3);
            }
            break;
        }
        case WF_OP_TABLE: {
            int32_t narr, nrec;
            const unsigned char *p = wf_take(L, h, &pos, end, 2 * sizeof(int32_t));
            memcpy(&narr, p, sizeof narr);
            memcpy(&nrec, p + sizeof narr, sizeof nrec);
            lua_createtable(L, narr > 0 ? narr : 0, nrec > 0 ? nrec : 0);
            break;
        }
        case WF_OP_SETINDEX: {
            int64_t i;
            memcpy(&i, wf_take(L, h, &pos, end, sizeof i), sizeof i);
            wf_need_table_below(L, base);
            lua_rawseti(L, -2, (lua_Integer)i);
            break;
        }
        case WF_OP_REF: {
            int32_t ref;
            memcpy(&ref, wf_take(L, h, &pos, end, sizeof ref), sizeof ref);
            lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
            break;
        }
        case WF_OP_CFUNCTION: {
            lua_CFunction f;
            memcpy(&f, wf_take(L, h, &pos, end, sizeof f), sizeof f);
            lua_pushcfunction(L, f);
            break;
        }
        case WF_OP_LIGHTUSERDATA: {
            void *ptr;
            memcpy(&ptr, wf_take(L, h, &pos, end, sizeof ptr), sizeof ptr);
            lua_pushlightuserdata(L, ptr);
            break;
        }
        case WF_OP_BINDING: {
            wf_binding f;
            uint64_t n;
            memcpy(&f, wf_take(L, h, &pos, end, sizeof f), sizeof f);
            memcpy(&n, wf_take(L, h, &pos, end, sizeof n), sizeof n);
            const unsigned char *name = wf_take(L, h, &pos, end, (size_t)n);
            void *fp;
            memcpy(&fp, &f, sizeof fp);
            lua_pushlightuserdata(L, fp);
            lua_pushlstring(L, (const char *)name, (size_t)n);
            lua_pushcclosure(L, wf_trampoline, 2);
            break;
        }
        default: luaL_error(L, "malformed op buffer (unknown op %d)", (int)op);
        }
    }
}

/* How many values the ops in [pos, end) make if they are all nil, booleans and numbers; else -1. */
static int wf_scalar_count(const wf_host *h, size_t pos, size_t end) {
    int count = 0;
    if (h->ops_broken_from < end) return -1;
    while (pos < end) {
        switch (h->ops[pos]) {
        case WF_OP_NIL:
        case WF_OP_TRUE:
        case WF_OP_FALSE: pos += 1; break;
        case WF_OP_INT: pos += 1 + sizeof(int64_t); break;
        case WF_OP_DOUBLE: pos += 1 + sizeof(double); break;
        default: return -1;
        }
        if (pos > end) return -1;
        count++;
    }
    return count;
}

static void wf_build_scalars(lua_State *L, const wf_host *h, size_t pos, size_t end) {
    while (pos < end) {
        const unsigned char *p = h->ops + pos;
        switch (*p) {
        case WF_OP_NIL: lua_pushnil(L); pos += 1; break;
        case WF_OP_TRUE: lua_pushboolean(L, 1); pos += 1; break;
        case WF_OP_FALSE: lua_pushboolean(L, 0); pos += 1; break;
        case WF_OP_INT: {
            int64_t v;
            memcpy(&v, p + 1, sizeof v);
            lua_pushinteger(L, (lua_Integer)v);
            pos += 1 + sizeof v;
            break;
        }
        default: {
            double v;
            memcpy(&v, p + 1, sizeof v);
            lua_pushnumber(L, (lua_Number)v);
            pos += 1 + sizeof v;
            break;
        }
        }
    }
}

/* Raises what a binding that returned WF_RAISE_MESSAGE or WF_RAISE_VALUE built above `top`. */
static WF_COLD int wf_raise_from_binding(lua_State *L, wf_host *h, int n, int top, int built) {
    int kind = h->raise_kind;
    h->raise_kind = WF_KIND_RUNTIME;
    if (n == WF_RAISE_MESSAGE) {
        if (built != 1 || lua_type(L, -1) != LUA_TSTRING) return luaL_error(L, "binding raised a malformed error");
        wf_where at;
        wf_where_script(L, &at);
        lua_insert(L, -2);
        lua_concat(L, 2);
        return wf_raise_at(L, kind, &at);
    }
    if (n != WF_RAISE_VALUE) return luaL_error(L, "binding returned the unknown code %d", n);
    /* The value at top + 1, what it carries (a table, or nil) at top + 2. */
    lua_settop(L, top + 2);
    wf_where at;
    wf_where_clear(&at);
    int frames = 0;
    if (lua_type(L, top + 2) == LUA_TTABLE) {
        if (lua_getfield(L, top + 2, "file") == LUA_TSTRING && lua_getfield(L, top + 2, "line") == LUA_TNUMBER
            && lua_isinteger(L, -1) && lua_tointeger(L, -1) > 0 && lua_tointeger(L, -1) <= INT32_MAX) {
            at.line = (int)lua_tointeger(L, -1);
            size_t len;
            const char *file = lua_tolstring(L, -2, &len);
            if (len >= sizeof at.file) len = sizeof at.file - 1;
            memcpy(at.file, file, len);
            at.file[len] = '\0';
        }
        lua_settop(L, top + 2);
        if (lua_getfield(L, top + 2, "frames") == LUA_TTABLE) frames = top + 3;
    }
    lua_pushvalue(L, top + 1);
    return wf_raise(L, kind, frames, &at);
}

/* Argument 1 is the light userdata of a wf_range. */
static int wf_build_body(lua_State *L) {
    const wf_range *r = (const wf_range *)lua_touserdata(L, 1);
    wf_build(L, wf_host_of(L), r->start, r->end);
    return lua_gettop(L) - 1;
}

int wf_trampoline(lua_State *L) {
    wf_host *h = wf_host_of(L);
    wf_binding fn;
    void *fp = lua_touserdata(L, lua_upvalueindex(1));
    memcpy(&fn, &fp, sizeof fn);
    int top = lua_gettop(L);
    size_t start = h->ops_len;
    lua_State *previous = h->current;
    h->current = L;
    int64_t tick = wf_tick();
    int n = fn(L);
    h->current = previous;
    /* The binding's work (another app's calls, file copies) ran on this thread's clock, where the
       count hook cannot see it: a script that spends its time in bindings stops here. A binding
       that raises keeps its own error (a nested call's budget error names the line that looped),
       and the script stops at its next instruction. The CPU clock is a system call, so it is read
       only when a coarse tick passed during the binding: a script whose time goes into bindings
       meets tick boundaries inside them in proportion to that time, and is stopped within a few
       ticks of its budget, while the common short binding costs two cheap reads. A binding that
       found the budget spent itself (one driving another app) has marked it so. */
    if ((h->hit_time || wf_tick() != tick) && wf_budget_spent(h)) {
        if (n == WF_RAISE_MESSAGE || n == WF_RAISE_VALUE) {
            if (lua_gethookcount(L) != 1) lua_sethook(L, wf_hook, LUA_MASKCOUNT, 1);
        } else {
            wf_ops_truncate(h, start);
            lua_settop(L, top);
            wf_raise_budget(L, 1);
            return 0;
        }
    }
    if (n >= 0) {
        wf_ops_truncate(h, start);
        return n;
    }
    lua_settop(L, top);
    if (n == WF_RETURN_BUILT) {
        int count = wf_scalar_count(h, start, h->ops_len);
        if (count >= 0 && lua_checkstack(L, count)) {
            /* Scalars only: pushing them allocates nothing, so no protection is needed. */
            wf_build_scalars(L, h, start, h->ops_len);
            wf_ops_truncate(h, start);
            return count;
        }
    }
    /* Built under a C-to-C pcall so that a memory error still lets the buffer be reset first. */
    wf_range r = { start, h->ops_len };
    lua_pushcfunction(L, wf_build_body);
    lua_pushlightuserdata(L, &r);
    int status = lua_pcall(L, 1, LUA_MULTRET, 0);
    wf_ops_truncate(h, start);
    if (status != LUA_OK) return lua_error(L);
    int built = lua_gettop(L) - top;
    if (n == WF_RETURN_BUILT) return built;
    return wf_raise_from_binding(L, h, n, top, built);
}

/* Registry slots (light userdata keys, made when the state is, so setting them later allocates
   nothing): the last value raised with wf_raise_kind and the frames it carries (false when it
   carries none); and the error value the message handler of the running wf_pcall produced, with
   its frames, for wf_pcall to hand back beside it. */
static const char wf_raised_key = 0;
static const char wf_raised_frames_key = 0;
static const char wf_handled_key = 0;
static const char wf_handled_frames_key = 0;

void wf_raised_setup(lua_State *L) {
    const void *keys[] = { &wf_raised_key, &wf_raised_frames_key, &wf_handled_key, &wf_handled_frames_key };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        lua_pushboolean(L, 0);
        lua_rawsetp(L, LUA_REGISTRYINDEX, keys[i]);
    }
}

/* Remembers the value at `index` as the one raised as `kind`, with the frames at `frames` (0:
   none) and the position `at` (NULL: none). Allocates nothing. */
static void wf_remember(lua_State *L, int index, int kind, int frames, const wf_where *at) {
    wf_host *h = wf_host_of(L);
    index = lua_absindex(L, index);
    if (frames) lua_pushvalue(L, frames);
    else lua_pushboolean(L, 0);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &wf_raised_frames_key);
    lua_pushvalue(L, index);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &wf_raised_key);
    h->raised_kind = kind;
    if (at) h->raised_where = *at;
    else wf_where_clear(&h->raised_where);
}

/* Raises the value on top as one of `kind`, carrying the frames at `frames` (0: none) and naming
   the position `at` (NULL: none). */
static int wf_raise(lua_State *L, int kind, int frames, const wf_where *at) {
    wf_remember(L, -1, kind, frames, at);
    return lua_error(L);
}

int wf_raise_kind(lua_State *L, int kind) {
    return wf_raise(L, kind, 0, NULL);
}

int wf_raise_at(lua_State *L, int kind, const wf_where *at) {
    return wf_raise(L, kind, 0, at);
}

void wf_mark_verdict(lua_State *L, int index, int kind) {
    wf_remember(L, index, kind, 0, NULL);
}

static int wf_is_verdict(int kind) {
    return kind == WF_KIND_FAILURE || kind == WF_KIND_PENDING;
}

/* Whether the error value at `index` is the value last raised with wf_raise_kind (or an equal
   string, as a pcall re-raising it passes on). */
static int wf_is_raised(lua_State *L, int index) {
    lua_rawgetp(L, LUA_REGISTRYINDEX, &wf_raised_key);
    int raised = lua_rawequal(L, index, -1);
    lua_pop(L, 1);
    return raised;
}

int wf_raised_kind(lua_State *L, int index) {
    return wf_is_raised(L, index) ? wf_host_of(L)->raised_kind : -1;
}

/* The kind of the error value at `index`: that of the value last raised with wf_raise_kind when
   this is that value, Lua's own memory error when the limit was hit and this is its out-of-memory
   message, else the script's own. */
static int wf_kind_of_error(lua_State *L, int index) {
    wf_host *h = wf_host_of(L);
    int kind = wf_is_raised(L, index) ? h->raised_kind : WF_KIND_RUNTIME;
    if (kind == WF_KIND_RUNTIME && h->hit_memory && lua_type(L, index) == LUA_TSTRING) {
        /* Interned when the state was made: pushing it allocates nothing. */
        lua_pushliteral(L, "not enough memory");
        if (lua_rawequal(L, index, -1)) kind = WF_KIND_LUA_MEMORY;
        lua_pop(L, 1);
    }
    return kind;
}

/* Whether the error value at `index` is the value last raised with frames of its own (an error
   coming back through a binding from a nested call, or from a runner that failed, carries the
   innermost ones). */
static int wf_carries_frames(lua_State *L, int index) {
    if (!wf_is_raised(L, index)) return 0;
    int carried = lua_rawgetp(L, LUA_REGISTRYINDEX, &wf_raised_frames_key) == LUA_TTABLE;
    lua_pop(L, 1);
    return carried;
}

/* The position the error value at `index` was raised with (wf_raise_at), or none. */
static void wf_raised_where(lua_State *L, int index, wf_where *where) {
    if (wf_is_raised(L, index)) *where = wf_host_of(L)->raised_where;
    else wf_where_clear(where);
}

/* An error raised as a table without __tostring reads as its fields ("{ code = 404, reason =
   "gone" }"), raw, at most 16 of them, in traversal order, so the message says what went wrong. */
static void wf_describe_table(lua_State *L, int index) {
    lua_pushliteral(L, "(error object is a table value) {");
    int text = lua_gettop(L);
    int shown = 0;
    lua_pushnil(L);
    while (lua_next(L, index) != 0) {
        if (shown == 16) {
            lua_pop(L, 2);
            lua_pushliteral(L, ", ...");
            lua_concat(L, 2);
            break;
        }
        lua_pushvalue(L, text);
        lua_pushstring(L, shown == 0 ? " " : ", ");
        if (lua_type(L, text + 1) == LUA_TSTRING) {
            lua_pushvalue(L, text + 1);
        } else {
            lua_pushliteral(L, "[");
            luaL_tolstring(L, text + 1, NULL);
            lua_pushliteral(L, "]");
            lua_concat(L, 3);
        }
        lua_pushliteral(L, " = ");
        if (lua_type(L, text + 2) == LUA_TSTRING) {
            lua_pushliteral(L, "\"");
            lua_pushvalue(L, text + 2);
            lua_pushliteral(L, "\"");
            lua_concat(L, 3);
        } else {
            luaL_tolstring(L, text + 2, NULL);
        }
        lua_concat(L, 5);
        lua_replace(L, text);
        lua_pop(L, 1);
        shown++;
    }
    lua_pushstring(L, shown == 0 ? "}" : " }");
    lua_concat(L, 2);
}

/* Pushes onto L "chunk:line: " of the innermost Lua function running in `thread` from `level` up
   (the one that raised, or called the C function that did), or "" when none is; fills *at with
   that position. */
static void wf_where_raised_in(lua_State *L, lua_State *thread, int level, wf_where *at) {
    lua_Debug ar;
    for (int i = level; lua_getstack(thread, i, &ar); i++) {
        if (lua_getinfo(thread, "Sl", &ar) && ar.currentline > 0) {
            wf_where_of(at, &ar);
            wf_push_where(L, at);
            return;
        }
    }
    wf_where_clear(at);
    lua_pushliteral(L, "");
}

/* The text of the error object at 1, run protected: its __tostring, else for a table its fields;
   a __tostring (its own or a field's) that raises or answers something other than a string leaves
   the object described by its type alone. */
static int wf_error_tostring(lua_State *L) {
    if (luaL_callmeta(L, 1, "__tostring")) {
        if (lua_type(L, -1) == LUA_TSTRING) return 1;
        lua_pushnil(L);
        return 1;
    }
    if (lua_type(L, 1) == LUA_TTABLE) {
        wf_describe_table(L, 1);
        return 1;
    }
    lua_pushnil(L);
    return 1;
}

/* Makes the error object on top of L the message a failed call reports, in place, and answers its
   kind: the object made a string (as lua.c does). `thread` is where the error happened, its stack
   still as the error left it: L itself for the message handler, or a runner that failed. An error
   object that is not a string or number is named by the position it was raised at (looking from
   `level` up), then by its __tostring, else (no __tostring, or one that raises) by its type; a
   verdict (wf_mark_verdict) by its __tostring alone. *where comes in holding the position the
   error was raised with (none when it was not) and goes out holding the one the message names:
   that, else the one put in front of the message here, else the frame the message starts with.
   The frames are the caller's to keep beside the message. */
static int wf_describe_error(lua_State *L, lua_State *thread, int level, int kind, wf_where *where) {
    int obj = lua_gettop(L);
    int type = lua_type(L, obj);
    int placed = where->line > 0;
    /* A string the host raised (error and assert included) comes with its position decided,
       none included. */
    int decided = wf_is_raised(L, obj);
    wf_where at;
    if (type == LUA_TNUMBER) {
        lua_tolstring(L, obj, NULL);
    } else if (type != LUA_TSTRING) {
        lua_pushcfunction(L, wf_error_tostring);
        lua_pushvalue(L, obj);
        int status = lua_pcall(L, 1, 1, 0);
        if (status != LUA_OK && wf_host_of(L)->hit_time) {
            /* The budget ran out inside __tostring: that is the error to report. */
        } else {
            int described = status == LUA_OK && lua_type(L, -1) == LUA_TSTRING;
            if (!described) {
                lua_pop(L, 1);
                lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, obj));
            }
            /* A verdict's text is its whole message: it names the spec's line itself. */
            if (!described || !wf_is_verdict(kind)) {
                wf_where_raised_in(L, thread, level, &at);
                lua_insert(L, -2);
                lua_concat(L, 2);
                if (!placed) *where = at;
                placed = 1;
            }
        }
        lua_replace(L, obj);
    }
    lua_settop(L, obj);
    /* Lua raises its memory error without a position anywhere, and its stack overflows without
       one from inside C functions (gsub, sort, tostring recursing). Those two are known only by
       Lua's fixed words, as a syntax error's line is (wf_where_loaded): the VM hands over nothing
       else, and an error the script raised never has exactly these words unplaced (error and
       assert place theirs). */
    const char *msg = lua_tostring(L, obj);
    if (kind == WF_KIND_LUA_MEMORY
        || (!decided && (strcmp(msg, "C stack overflow") == 0 || strcmp(msg, "stack overflow") == 0))) {
        wf_where_raised_in(L, thread, level, &at);
        lua_insert(L, obj);
        lua_concat(L, 2);
        if (!placed) *where = at;
        placed = 1;
    }
    if (!placed && !decided) wf_where_raiser(thread, level, where);
    return kind;
}

/* Keeps the error's structure beside the message, never in it: the handler's result is the
   message alone (wf_describe_error), h->error_where the position it names, and wf_pcall hands
   back the frames kept here as a second value: those the error carries when it was raised with
   them (it came back through a binding from a nested call, or from a runner that failed: the
   innermost), else this stack's. */
int wf_msgh(lua_State *L) {
    lua_settop(L, 1);
    wf_host *h = wf_host_of(L);
    wf_where where;
    wf_where_clear(&h->error_where);
    int carried = wf_carries_frames(L, 1);
    wf_raised_where(L, 1, &where);
    h->error_kind = wf_describe_error(L, L, 1, wf_kind_of_error(L, 1), &where);
    h->error_where = where;
    if (carried) lua_rawgetp(L, LUA_REGISTRYINDEX, &wf_raised_frames_key);
    else wf_push_frames(L, L, 1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &wf_handled_frames_key);
    lua_pushvalue(L, 1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &wf_handled_key);
    return 1;
}

/* After a failed call: the frames the message handler kept for the error value on top, pushed
   beside it (nil when the handler did not see this value: Lua raises its memory errors without
   it). The slots are cleared, so a later error cannot be given this one's frames. */
static void wf_push_handled_frames(lua_State *L, int status) {
    lua_rawgetp(L, LUA_REGISTRYINDEX, &wf_handled_key);
    int handled = status != LUA_ERRMEM && lua_rawequal(L, -1, -2);
    lua_pop(L, 1);
    if (handled) lua_rawgetp(L, LUA_REGISTRYINDEX, &wf_handled_frames_key);
    else lua_pushnil(L);
    lua_pushboolean(L, 0);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &wf_handled_key);
    lua_pushboolean(L, 0);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &wf_handled_frames_key);
}

/*
 * Runners. Every call from the host runs its callee in a coroutine of the host's, a runner: when
 * the call fails, Lua leaves a coroutine's stack as the error left it, so the message is made from
 * that stack afterwards, as the message handler makes it from a live one. That also covers Lua's
 * own memory error, which Lua raises without calling any message handler and which the allocator
 * cannot place (reading the stack from inside the allocator is not safe while Lua is moving a
 * stack). Calls from the host nest, so the call at depth d has runner d, made once and kept in the
 * registry. Scripts see no coroutine of theirs: coroutine.yield, isyieldable and running treat a
 * runner as the main thread (Sandbox.c).
 */
static const char wf_runners_key = 0;

void wf_runners_setup(lua_State *L) {
    lua_newtable(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &wf_runners_key);
}

int wf_is_runner(lua_State *L, lua_State *thread) {
    return wf_runner_index(wf_host_of(L), thread) >= 0;
}

/* Runner `index`, made when there is none (or the one there failed). */
static lua_State *wf_runner(lua_State *L, wf_host *h, int index) {
    if (index < 0 || index >= WF_MAX_RUNNERS) {
        luaL_error(L, "calls from the host nested more than %d deep", WF_MAX_RUNNERS);
        return NULL;
    }
    for (; h->runners_made <= index; h->runners_made++) h->runners[h->runners_made] = NULL;
    if (h->runners[index] == NULL) {
        lua_rawgetp(L, LUA_REGISTRYINDEX, &wf_runners_key);
        h->runners[index] = lua_newthread(L);
        lua_rawseti(L, -2, index + 1);
        lua_pop(L, 1);
    }
    return h->runners[index];
}

/* The runner's call failed (or yielded, which the sandbox's yield does not let it): raises on L
   the message made from the runner's stack, carrying its frames (those the error carries already
   when it came back through a binding from a nested call, else the runner's, through the threads
   that called into it) and the position it names, then makes the runner ready for the next call,
   closing the to-be-closed variables the failed call left open as unwinding would have (they
   receive the call's error object; one that raises ends the call with its own error instead, as
   it would have). Lua's own memory error gets the script's line and frames copied without
   allocating, and its message is made once the runner has let go of the failed call's memory. */
static WF_COLD int wf_runner_failed(lua_State *L, lua_State *co, int status) {
    int kind;
    int carried = 0;
    wf_where where;
    wf_where_clear(&where);
    if (status == LUA_YIELD) {
        wf_where_raised_in(L, co, 0, &where);
        lua_pushliteral(L, "attempt to yield from outside a coroutine");
        lua_concat(L, 2);
        kind = WF_KIND_RUNTIME;
    } else {
        /* A copy: the object stays on the runner for its __close methods. */
        if (lua_checkstack(co, 1)) lua_pushvalue(co, -1);
        lua_xmove(co, L, 1);
        kind = status == LUA_ERRMEM ? WF_KIND_LUA_MEMORY : wf_kind_of_error(L, lua_gettop(L));
        if (status != LUA_ERRMEM) {
            carried = wf_carries_frames(L, lua_gettop(L));
            wf_raised_where(L, lua_gettop(L), &where);
        }
    }
    int object = lua_gettop(L);
    wf_frame copies[WF_FRAME_COPIES];
    int copied = 0;
    if (kind == WF_KIND_LUA_MEMORY) {
        wf_where_script_in(co, &where);
        copied = wf_copy_frames(co, 0, copies, WF_FRAME_COPIES);
    } else {
        lua_pushvalue(L, object);
        kind = wf_describe_error(L, co, 0, kind, &where);
        if (carried) lua_rawgetp(L, LUA_REGISTRYINDEX, &wf_raised_frames_key);
        else wf_push_frames(L, co, 0);
    }
    /* A runner that failed is not used again: an error raised in a hook (the time budget's) leaves
       the thread with hooks switched off, which only a protected call inside it would have
       switched back on. The next call at this depth gets a fresh one. */
    wf_host *h = wf_host_of(L);
    h->runners[h->depth - 1] = NULL;
    if (lua_resetthread(co) != LUA_OK && status != LUA_YIELD) {
        /* The runner answers with the call's error object, unless a __close raised another. */
        lua_xmove(co, L, 1);
        if (!lua_rawequal(L, -1, object)) {
            lua_settop(co, 0);
            /* Its frames are the message handler's: the stack of the caller that resumed the
               runner, whose own has been reset. */
            wf_where closed;
            wf_raised_where(L, lua_gettop(L), &closed);
            kind = wf_describe_error(L, co, 0, wf_kind_of_error(L, lua_gettop(L)), &closed);
            return wf_raise_at(L, kind, &closed);
        }
        lua_pop(L, 1);
    }
    lua_settop(co, 0);
    if (kind == WF_KIND_LUA_MEMORY) {
        wf_push_frame_copies(L, copies, copied);
        wf_push_where(L, &where);
        lua_pushliteral(L, "not enough memory");
        lua_concat(L, 2);
    } else {
        /* The message on top, its frames just below it. */
        lua_insert(L, -2);
    }
    return wf_raise(L, kind, lua_gettop(L) - 1, &where);
}

static int wf_call_body(lua_State *L) {
    wf_host *h = wf_host_of(L);
    const wf_range *r = (const wf_range *)lua_touserdata(L, 1);
    wf_build(L, h, r->start, r->end);
    int n = lua_gettop(L) - 1;
    if (n < 1) return luaL_error(L, "nothing to call");
    lua_State *co = wf_runner(L, h, h->depth - 1);
    if (!lua_checkstack(co, n)) return luaL_error(L, "stack overflow (too many arguments)");
    lua_xmove(L, co, n);
    h->runner_callers[h->depth - 1] = L;
    int results = 0;
    int status = lua_resume(co, L, n - 1, &results);
    if (status != LUA_OK) return wf_runner_failed(L, co, status);
    if (!lua_checkstack(L, results)) {
        lua_settop(co, 0);
        return luaL_error(L, "stack overflow (too many results)");
    }
    lua_xmove(co, L, results);
    return results;
}

int wf_pcall(lua_State *L, size_t start, int nstack, int *nresults) {
    wf_host *h = wf_host_of(L);
    int base = lua_gettop(L) - nstack;
    wf_range r = { start, h->ops_len };
    *nresults = 0;
    if (!lua_checkstack(L, 4)) {
        wf_ops_truncate(h, start);
        lua_settop(L, base);
        return WF_STATUS_NOSTACK;
    }
    h->error_kind = WF_KIND_RUNTIME;
    if (h->depth == 0) {
        /* What a raise remembered belongs to the outermost call it happened in: a later call's
           error with the same text is its own. The slot exists, so this allocates nothing. */
        lua_pushboolean(L, 0);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &wf_raised_key);
    }
    lua_pushcfunction(L, wf_msgh);
    lua_pushcfunction(L, wf_call_body);
    lua_pushlightuserdata(L, &r);
    lua_rotate(L, base + 1, 3);
    wf_enter(h);
    int status = lua_pcall(L, nstack + 1, LUA_MULTRET, base + 1);
    wf_leave(h);
    wf_ops_truncate(h, start);
    lua_remove(L, base + 1);
    if (status != LUA_OK) wf_push_handled_frames(L, status);
    *nresults = lua_gettop(L) - base;
    return status;
}
