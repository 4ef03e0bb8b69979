#include "Internal.h"

#include <stdio.h>

/* The most bytes of traceback a memory error carries (written without allocating). */
#define WF_MEMORY_TRACE 1024

/*
 * Both directions of the Swift/Lua crossing. Lua errors are raised only from these C frames, after
 * Swift has returned, so a longjmp never crosses a Swift frame.
 */

static int wf_raise(lua_State *L, int kind, int traceback);

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

void wf_build(lua_State *L, wf_host *h, size_t pos, size_t end) {
    int base = lua_gettop(L);
    if (h->ops_broken_from < end) {
        luaL_where(L, 1);
        lua_pushliteral(L, "not enough memory to pass values to Lua");
        lua_concat(L, 2);
        wf_raise_kind(L, h->hit_memory ? WF_KIND_MEMORY : WF_KIND_RUNTIME);
    }
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

/* Argument 1 is the light userdata of a wf_range. */
static int wf_build_body(lua_State *L) {
    const wf_range *r = (const wf_range *)lua_touserdata(L, 1);
    wf_build(L, wf_host_of(L), r->start, r->end);
    return lua_gettop(L) - 1;
}

static int wf_runner_index(wf_host *h, lua_State *thread) {
    for (int i = 0; i < h->runners_made; i++)
        if (h->runners[i] == thread && thread != NULL) return i;
    return -1;
}

int wf_next_frame(wf_frames *frames, lua_Debug *ar) {
    for (;;) {
        if (lua_getstack(frames->thread, frames->level, ar)) {
            frames->level++;
            return 1;
        }
        wf_host *h = wf_host_of(frames->thread);
        int runner = wf_runner_index(h, frames->thread);
        if (runner < 0) return 0;
        /* Level 0 of the caller is the C function that resumed the runner. */
        frames->thread = h->runner_callers[runner];
        frames->level = 1;
    }
}

int wf_is_bundled(const lua_Debug *ar) {
    static const char bundled[] = "@wayfinder/";
    return strncmp(ar->source, bundled, sizeof bundled - 1) == 0;
}

/* Pushes "chunk:line: " of the innermost caller that is not a bundled wayfinder module: a binding
   reached through the Lua side of the wayfinder module (ctx:set, wf.codec, nav:open) blames the
   script that called it, not the wrapper. A C caller (pcall) is named as Lua names it: by nothing.
   Level 1 when every caller is bundled. The frames are those of the whole call from the host,
   through the runners of nested calls (wf_next_frame). */
void wf_where_script_from(lua_State *L, int from) {
    wf_frames frames = { L, from };
    lua_Debug ar;
    while (wf_next_frame(&frames, &ar)) {
        if (!lua_getinfo(frames.thread, "Sl", &ar)) break;
        if (wf_is_bundled(&ar)) continue;
        if (ar.currentline > 0) lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
        else lua_pushliteral(L, "");
        return;
    }
    luaL_where(L, from);
}

void wf_where_script(lua_State *L) {
    wf_where_script_from(L, 1);
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
    switch (n) {
    case WF_RETURN_BUILT: return built;
    case WF_RAISE_MESSAGE: {
        if (built != 1 || lua_type(L, -1) != LUA_TSTRING) return luaL_error(L, "binding raised a malformed error");
        wf_where_script(L);
        lua_insert(L, -2);
        lua_concat(L, 2);
        int kind = h->raise_kind;
        h->raise_kind = WF_KIND_RUNTIME;
        return wf_raise_kind(L, kind);
    }
    case WF_RAISE_VALUE: {
        if (built < 1) lua_pushnil(L);
        int traced = built >= 2 && lua_type(L, top + 2) == LUA_TSTRING;
        if (built > 2) lua_settop(L, top + 2);
        if (!traced) lua_settop(L, top + 1);
        else lua_insert(L, top + 1);
        /* Now the value is on top, its traceback (if any) just below it. */
        int kind = h->raise_kind;
        h->raise_kind = WF_KIND_RUNTIME;
        return wf_raise(L, kind, traced ? top + 1 : 0);
    }
    default: return luaL_error(L, "binding returned the unknown code %d", n);
    }
}

/* Registry slots (light userdata keys, made when the state is, so setting them later allocates
   nothing): the last value raised with wf_raise_kind and the traceback it carries (false when it
   carries none); and the error value the message handler of the running wf_pcall produced, with
   its traceback, for wf_pcall to hand back beside it. */
static const char wf_raised_key = 0;
static const char wf_raised_traceback_key = 0;
static const char wf_handled_key = 0;
static const char wf_handled_traceback_key = 0;

void wf_raised_setup(lua_State *L) {
    const void *keys[] = { &wf_raised_key, &wf_raised_traceback_key, &wf_handled_key, &wf_handled_traceback_key };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        lua_pushboolean(L, 0);
        lua_rawsetp(L, LUA_REGISTRYINDEX, keys[i]);
    }
}

/* Raises the value on top as one of `kind`, carrying the traceback at `traceback` (0: none). */
static int wf_raise(lua_State *L, int kind, int traceback) {
    if (traceback) lua_pushvalue(L, traceback);
    else lua_pushboolean(L, 0);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &wf_raised_traceback_key);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &wf_raised_key);
    wf_host_of(L)->raised_kind = kind;
    return lua_error(L);
}

int wf_raise_kind(lua_State *L, int kind) {
    return wf_raise(L, kind, 0);
}

/* The kind of the error value at 1: that of the value last raised with wf_raise_kind when this is
   that value (or an equal string, as a pcall re-raising it passes on), Lua's own memory error when
   the limit was hit and this is its out-of-memory message, else the script's own. */
static int wf_kind_of_error(lua_State *L, int index) {
    wf_host *h = wf_host_of(L);
    int kind = WF_KIND_RUNTIME;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &wf_raised_key);
    if (lua_rawequal(L, index, -1)) kind = h->raised_kind;
    lua_pop(L, 1);
    if (kind == WF_KIND_RUNTIME && h->hit_memory && lua_type(L, index) == LUA_TSTRING) {
        /* Interned when the state was made: pushing it allocates nothing. */
        lua_pushliteral(L, "not enough memory");
        if (lua_rawequal(L, index, -1)) kind = WF_KIND_LUA_MEMORY;
        lua_pop(L, 1);
    }
    return kind;
}

/* Whether the error value at `index` is the value last raised with a traceback of its own (an
   error coming back through a binding from a nested call carries the innermost one). */
static int wf_carries_traceback(lua_State *L, int index) {
    lua_rawgetp(L, LUA_REGISTRYINDEX, &wf_raised_key);
    int carried = lua_rawequal(L, index, -1);
    lua_pop(L, 1);
    if (!carried) return 0;
    carried = lua_rawgetp(L, LUA_REGISTRYINDEX, &wf_raised_traceback_key) == LUA_TSTRING;
    lua_pop(L, 1);
    return carried;
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
   (the one that raised, or called the C function that did), or "" when none is. */
static void wf_where_raised_in(lua_State *L, lua_State *thread, int level) {
    lua_Debug ar;
    for (int at = level; lua_getstack(thread, at, &ar); at++) {
        if (lua_getinfo(thread, "Sl", &ar) && ar.currentline > 0) {
            lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
            return;
        }
    }
    lua_pushliteral(L, "");
}

/* Writes into buf, allocating nothing, "chunk:line: " of the innermost Lua function of the
   script's own in the call that `thread` runs (through the runners of nested calls; a bundled
   module's when the script has none), or "". */
static void wf_where_text(lua_State *thread, char *buf, size_t cap) {
    wf_frames frames = { thread, 0 };
    lua_Debug ar;
    buf[0] = '\0';
    while (wf_next_frame(&frames, &ar)) {
        if (!lua_getinfo(frames.thread, "Sl", &ar) || ar.currentline <= 0) continue;
        int bundled = wf_is_bundled(&ar);
        if (buf[0] != '\0' && bundled) continue;
        snprintf(buf, cap, "%s:%d: ", ar.short_src, ar.currentline);
        if (!bundled) return;
    }
}

/* Writes into buf, allocating nothing, a traceback of the call `thread` runs (through the runners
   of nested calls) in luaL_traceback's form, cut where buf ends. */
static void wf_traceback_text(lua_State *thread, char *buf, size_t cap) {
    int len = snprintf(buf, cap, "stack traceback:");
    wf_frames frames = { thread, 0 };
    lua_Debug ar;
    while (len >= 0 && (size_t)len < cap && wf_next_frame(&frames, &ar)) {
        if (!lua_getinfo(frames.thread, "Sln", &ar)) break;
        int n;
        if (ar.currentline > 0) n = snprintf(buf + len, cap - (size_t)len, "\n\t%s:%d: in ", ar.short_src, ar.currentline);
        else n = snprintf(buf + len, cap - (size_t)len, "\n\t%s: in ", ar.short_src);
        if (n < 0 || (size_t)n >= cap - (size_t)len) break;
        len += n;
        if (ar.name != NULL) n = snprintf(buf + len, cap - (size_t)len, "%s '%s'", *ar.namewhat != '\0' ? ar.namewhat : "function", ar.name);
        else if (*ar.what == 'm') n = snprintf(buf + len, cap - (size_t)len, "main chunk");
        else if (*ar.what != 'C') n = snprintf(buf + len, cap - (size_t)len, "function <%s:%d>", ar.short_src, ar.linedefined);
        else n = snprintf(buf + len, cap - (size_t)len, "?");
        if (n < 0 || (size_t)n >= cap - (size_t)len) break;
        len += n;
    }
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

/* Pushes the traceback of `thread` from `level` up; when `thread` is a runner, it goes on through
   the threads that called the host which called into it (a nested call's frames, then those of
   the script whose binding made it), as one thread's traceback would. */
static void wf_push_traceback(lua_State *L, lua_State *thread, int level) {
    static const char header[] = "stack traceback:";
    wf_host *h = wf_host_of(L);
    luaL_traceback(L, thread, NULL, level);
    for (int i = wf_runner_index(h, thread); i >= 0; i = wf_runner_index(h, h->runner_callers[i])) {
        /* Level 0 of the caller is the C function that resumed the runner. */
        luaL_traceback(L, h->runner_callers[i], NULL, 1);
        size_t len;
        const char *text = lua_tolstring(L, -1, &len);
        if (len > sizeof header - 1) {
            lua_pushlstring(L, text + sizeof header - 1, len - (sizeof header - 1));
            lua_remove(L, -2);
            lua_concat(L, 2);
        } else {
            lua_pop(L, 1);
        }
    }
}

/* Makes the error object on top of L the message a failed call reports, in place, and answers its
   kind: the object made a string (as lua.c does). `thread` is where the error happened, its stack
   still as the error left it: L itself for the message handler, or a runner that failed. An error
   object that is not a string or number is named by the position it was raised at (looking from
   `level` up), then by its __tostring, else (no __tostring, or one that raises) by its type. The
   traceback is the caller's to keep beside the message. */
static int wf_describe_error(lua_State *L, lua_State *thread, int level, int kind) {
    int obj = lua_gettop(L);
    int type = lua_type(L, obj);
    if (type == LUA_TNUMBER) {
        lua_tolstring(L, obj, NULL);
    } else if (type != LUA_TSTRING) {
        lua_pushcfunction(L, wf_error_tostring);
        lua_pushvalue(L, obj);
        int status = lua_pcall(L, 1, 1, 0);
        if (status != LUA_OK && wf_host_of(L)->hit_time) {
            /* The budget ran out inside __tostring: that is the error to report. */
        } else {
            if (status != LUA_OK || lua_type(L, -1) != LUA_TSTRING) {
                lua_pop(L, 1);
                lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, obj));
            }
            wf_where_raised_in(L, thread, level);
            lua_insert(L, -2);
            lua_concat(L, 2);
        }
        lua_replace(L, obj);
    }
    lua_settop(L, obj);
    const char *msg = lua_tostring(L, obj);
    /* Lua raises these from inside C functions (gsub, sort, tostring recursing) without a position,
       and its memory error without one anywhere. */
    if (strcmp(msg, "C stack overflow") == 0 || strcmp(msg, "stack overflow") == 0
        || (kind == WF_KIND_LUA_MEMORY && strcmp(msg, "not enough memory") == 0)) {
        wf_where_raised_in(L, thread, level);
        lua_insert(L, obj);
        lua_concat(L, 2);
    }
    return kind;
}

/* Keeps the traceback beside the message, never in it: the handler's result is the message alone
   (wf_describe_error), and wf_pcall hands back the traceback kept here as a second value: the one
   the error carries when it was raised with one (it came back through a binding from a nested
   call, or from a runner that failed: the innermost), else this stack's. */
int wf_msgh(lua_State *L) {
    lua_settop(L, 1);
    wf_host *h = wf_host_of(L);
    int carried = wf_carries_traceback(L, 1);
    h->error_kind = wf_describe_error(L, L, 1, wf_kind_of_error(L, 1));
    if (carried) lua_rawgetp(L, LUA_REGISTRYINDEX, &wf_raised_traceback_key);
    else wf_push_traceback(L, L, 1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &wf_handled_traceback_key);
    lua_pushvalue(L, 1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &wf_handled_key);
    return 1;
}

/* After a failed call: the traceback the message handler kept for the error value on top, pushed
   beside it (nil when the handler did not see this value: Lua raises its memory errors without
   it). The slots are cleared, so a later error cannot be given this one's traceback. */
static void wf_push_handled_traceback(lua_State *L, int status) {
    lua_rawgetp(L, LUA_REGISTRYINDEX, &wf_handled_key);
    int handled = status != LUA_ERRMEM && lua_rawequal(L, -1, -2);
    lua_pop(L, 1);
    if (handled) lua_rawgetp(L, LUA_REGISTRYINDEX, &wf_handled_traceback_key);
    else lua_pushnil(L);
    lua_pushboolean(L, 0);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &wf_handled_key);
    lua_pushboolean(L, 0);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &wf_handled_traceback_key);
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
   the message made from the runner's stack, carrying its traceback (the one the error carries
   already when it came back through a binding from a nested call, else the runner's, through the
   threads that called into it), then makes the runner ready for the next call, closing the
   to-be-closed variables the failed call left open as unwinding would have (they receive the
   call's error object; one that raises ends the call with its own error instead, as it would
   have). Lua's own memory error gets the script's line and a traceback written without
   allocating, and its message is made once the runner has let go of the failed call's memory. */
static int wf_runner_failed(lua_State *L, lua_State *co, int status) {
    int kind;
    int carried = 0;
    if (status == LUA_YIELD) {
        wf_where_raised_in(L, co, 0);
        lua_pushliteral(L, "attempt to yield from outside a coroutine");
        lua_concat(L, 2);
        kind = WF_KIND_RUNTIME;
    } else {
        /* A copy: the object stays on the runner for its __close methods. */
        if (lua_checkstack(co, 1)) lua_pushvalue(co, -1);
        lua_xmove(co, L, 1);
        kind = status == LUA_ERRMEM ? WF_KIND_LUA_MEMORY : wf_kind_of_error(L, lua_gettop(L));
        carried = status != LUA_ERRMEM && wf_carries_traceback(L, lua_gettop(L));
    }
    int object = lua_gettop(L);
    char where[LUA_IDSIZE + 32];
    char trace[WF_MEMORY_TRACE];
    if (kind == WF_KIND_LUA_MEMORY) {
        wf_where_text(co, where, sizeof where);
        wf_traceback_text(co, trace, sizeof trace);
    } else {
        lua_pushvalue(L, object);
        kind = wf_describe_error(L, co, 0, kind);
        if (carried) lua_rawgetp(L, LUA_REGISTRYINDEX, &wf_raised_traceback_key);
        else wf_push_traceback(L, co, 0);
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
            /* Its traceback is the message handler's: the stack of the caller that resumed the
               runner, whose own has been reset. */
            return wf_raise_kind(L, wf_describe_error(L, co, 0, wf_kind_of_error(L, lua_gettop(L))));
        }
        lua_pop(L, 1);
    }
    lua_settop(co, 0);
    if (kind == WF_KIND_LUA_MEMORY) {
        lua_pushstring(L, trace);
        lua_pushfstring(L, "%snot enough memory", where);
    } else {
        /* The message on top, its traceback just below it. */
        lua_insert(L, -2);
    }
    return wf_raise(L, kind, lua_gettop(L) - 1);
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
    if (status != LUA_OK) wf_push_handled_traceback(L, status);
    *nresults = lua_gettop(L) - base;
    return status;
}
