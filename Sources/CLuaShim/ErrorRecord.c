#include "Internal.h"

#include <limits.h>
#include <stdio.h>

/*
 * What an error names and the stack it unwound, kept as structure beside its message: the
 * position (a wf_where) and the frames a traceback shows, each a record of fields. Swift reads
 * these and never the message's text.
 *
 * A position is taken where it is known. The host's own errors know the line they name when they
 * make their message. Lua prefixes an error string with "short_src:currentline: " of one frame of
 * the stack (luaL_where, at the level the raiser chose): the sandbox's error and assert keep that
 * position when they make the message, and an error the VM or a library function raises names the
 * frame Lua's own rule names (wf_where_raiser). A syntax error names the chunk the loader was given,
 * at the line only its message carries.
 */

void wf_where_clear(wf_where *w) {
    w->file[0] = '\0';
    w->line = 0;
}

static void wf_where_set(wf_where *w, const char *file, int line) {
    size_t n = strlen(file);
    if (n >= sizeof w->file) n = sizeof w->file - 1;
    memcpy(w->file, file, n);
    w->file[n] = '\0';
    w->line = line;
}

/* The position of a frame filled by lua_getinfo with "Sl": none for a C function. */
void wf_where_of(wf_where *w, const lua_Debug *ar) {
    if (ar->currentline > 0) wf_where_set(w, ar->short_src, ar->currentline);
    else wf_where_clear(w);
}

void wf_push_where(lua_State *L, const wf_where *w) {
    if (w->line > 0) lua_pushfstring(L, "%s:%d: ", w->file, w->line);
    else lua_pushliteral(L, "");
}

void wf_where_at(lua_State *L, lua_State *thread, int level, wf_where *w) {
    lua_Debug ar;
    wf_where_clear(w);
    if (lua_getstack(thread, level, &ar) && lua_getinfo(thread, "Sl", &ar)) wf_where_of(w, &ar);
    wf_push_where(L, w);
}

/* ---- The frames of one call from the host ---------------------------------------------------- */

int wf_runner_index(wf_host *h, lua_State *thread) {
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

lua_State *wf_runner_caller(lua_State *thread) {
    wf_host *h = wf_host_of(thread);
    int runner = wf_runner_index(h, thread);
    return runner < 0 ? NULL : h->runner_callers[runner];
}

int wf_is_bundled(const lua_Debug *ar) {
    static const char bundled[] = WF_BUNDLED_CHUNK_PREFIX;
    return strncmp(ar->source, bundled, sizeof bundled - 1) == 0;
}

/* Pushes "chunk:line: " of the innermost caller that is not a bundled wayfinder module: a binding
   reached through the Lua side of the wayfinder module (ctx:set, wf.codec, nav:open) blames the
   script that called it, not the wrapper. A C caller (pcall) is named as Lua names it: by nothing.
   Level 1 when every caller is bundled. The frames are those of the whole call from the host,
   through the runners of nested calls (wf_next_frame). */
void wf_where_script_from(lua_State *L, int from, wf_where *at) {
    wf_frames frames = { L, from };
    lua_Debug ar;
    while (wf_next_frame(&frames, &ar)) {
        if (!lua_getinfo(frames.thread, "Sl", &ar)) break;
        if (wf_is_bundled(&ar)) continue;
        wf_where_of(at, &ar);
        wf_push_where(L, at);
        return;
    }
    wf_where_at(L, L, from, at);
}

void wf_where_script(lua_State *L, wf_where *at) {
    wf_where_script_from(L, 1, at);
}

/* The position of an error no raiser placed: one Lua raised itself. The VM names the Lua function
   that failed (the frame at `level`); a C function raising through luaL_error names the frame that
   called it (luaL_where at level 1), the next one out. Everything else a script can call that
   raises with a position of its own choosing (error, assert, the host's bindings) places it. */
void wf_where_raiser(lua_State *thread, int level, wf_where *w) {
    lua_Debug ar;
    wf_where_clear(w);
    if (!lua_getstack(thread, level, &ar) || !lua_getinfo(thread, "Sl", &ar)) return;
    if (ar.what[0] == 'C' && (!lua_getstack(thread, level + 1, &ar) || !lua_getinfo(thread, "Sl", &ar))) return;
    wf_where_of(w, &ar);
}

void wf_where_script_in(lua_State *thread, wf_where *w) {
    wf_frames frames = { thread, 0 };
    lua_Debug ar;
    wf_where_clear(w);
    while (wf_next_frame(&frames, &ar)) {
        if (!lua_getinfo(frames.thread, "Sl", &ar) || ar.currentline <= 0) continue;
        int bundled = wf_is_bundled(&ar);
        if (w->line > 0 && bundled) continue;
        wf_where_of(w, &ar);
        if (!bundled) return;
    }
}

void wf_where_loaded(lua_State *L, const char *chunkname, int message, wf_where *w) {
    lua_Debug ar;
    size_t len;
    wf_where_clear(w);
    message = lua_absindex(L, message);
    if (lua_type(L, message) != LUA_TSTRING) return;
    /* How messages name the chunk: as they name an empty chunk of the same name. */
    if (luaL_loadbufferx(L, "", 0, chunkname, "t") != LUA_OK) {
        lua_pop(L, 1);
        return;
    }
    lua_getinfo(L, ">S", &ar);
    const char *text = lua_tolstring(L, message, &len);
    size_t n = strlen(ar.short_src);
    if (len < n + 3 || memcmp(text, ar.short_src, n) != 0 || text[n] != ':') return;
    /* The loader writes the line it stopped at after the chunk's name. */
    size_t at = n + 1;
    int line = 0;
    for (; at < len && text[at] >= '0' && text[at] <= '9'; at++) {
        if (line > (INT_MAX - 9) / 10) return;
        line = line * 10 + (text[at] - '0');
    }
    if (at == n + 1 || at == len || text[at] != ':' || line <= 0) return;
    wf_where_set(w, ar.short_src, line);
}

/* ---- Frames ------------------------------------------------------------------------------- */

/* How many frames a traceback shows of a deep stack: the innermost and the outermost (as Lua's
   own tracebacks do); the levels between are counted, not listed. */
#define WF_FRAMES_INNER 10
#define WF_FRAMES_OUTER 11

/* The last level `thread` has, found without walking every level from the top once per level. */
static int wf_last_level(lua_State *thread) {
    lua_Debug ar;
    int low = 1, high = 1;
    while (lua_getstack(thread, high, &ar)) {
        low = high;
        high *= 2;
    }
    while (low < high) {
        int middle = (low + high) / 2;
        if (lua_getstack(thread, middle, &ar)) low = middle + 1;
        else high = middle;
    }
    return high - 1;
}

/* A walk over the frames a traceback shows of one call from the host: those of the thread
   running it, then, when that is a runner, those of the thread that called into it, and so on
   (wf_next_frame); of each thread's, all, or the innermost and the outermost when there are many,
   as Lua's own traceback of that thread shows them. Allocates nothing. */
typedef struct wf_walk {
    lua_State *thread;
    int level; /* the next level to look at in it */
    int last;  /* its last level */
    int inner; /* frames still to show before the levels left out (-1: none are) */
} wf_walk;

static void wf_walk_from(wf_walk *w, lua_State *thread, int level) {
    w->thread = thread;
    w->level = level;
    w->last = wf_last_level(thread);
    w->inner = w->last - level > WF_FRAMES_INNER + WF_FRAMES_OUTER ? WF_FRAMES_INNER : -1;
}

/* Fills ar (lua_getinfo "Slnt" on w->thread) with the next frame, and *skipped with how many
   levels are left out just before it; 0 when there is none. */
static int wf_walk_next(wf_walk *w, lua_Debug *ar, int *skipped) {
    *skipped = 0;
    for (;;) {
        if (lua_getstack(w->thread, w->level++, ar)) {
            if (w->inner-- == 0) {
                /* This level and those up to the outermost ones are left out; the count is the
                   one Lua's own tracebacks print. */
                *skipped = w->last - w->level - WF_FRAMES_OUTER + 1;
                w->level += *skipped;
                continue;
            }
            lua_getinfo(w->thread, "Slnt", ar);
            return 1;
        }
        lua_State *caller = wf_runner_caller(w->thread);
        if (caller == NULL) return 0;
        /* Level 0 of the caller is the C function that resumed the runner. */
        wf_walk_from(w, caller, 1);
    }
}

/* Looks for the value at `fn` among the string-keyed fields of the table on top, and `depth - 1`
   levels of tables under them; when found, pushes its name, dotted ("string.gsub"). */
static int wf_find_name(lua_State *L, int fn, int depth) {
    if (depth == 0 || !lua_istable(L, -1)) return 0;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        if (lua_type(L, -2) == LUA_TSTRING) {
            if (lua_rawequal(L, fn, -1)) {
                lua_pop(L, 1);
                return 1;
            }
            if (wf_find_name(L, fn, depth - 1)) {
                /* The key, its table, the inner name: the key, ".", the inner name. */
                lua_pushliteral(L, ".");
                lua_replace(L, -3);
                lua_concat(L, 3);
                return 1;
            }
        }
        lua_pop(L, 1);
    }
    return 0;
}

/* Pushes the name the frame's function has in a loaded module ("string.gsub"; a base function
   by its own name, "error"), the name a traceback gives a function first; 0, pushing nothing,
   when it has none. */
static int wf_push_global_name(lua_State *L, lua_State *thread, lua_Debug *ar) {
    int top = lua_gettop(L);
    if (!lua_checkstack(L, 8) || (thread != L && !lua_checkstack(thread, 1))) return 0;
    lua_getinfo(thread, "f", ar);
    if (thread != L) lua_xmove(thread, L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    if (!wf_find_name(L, top + 1, 2)) {
        lua_settop(L, top);
        return 0;
    }
    const char *name = lua_tostring(L, -1);
    if (strncmp(name, LUA_GNAME ".", sizeof LUA_GNAME) == 0) {
        lua_pushstring(L, name + sizeof LUA_GNAME);
        lua_remove(L, -2);
    }
    lua_replace(L, top + 1);
    lua_settop(L, top + 1);
    return 1;
}

static void wf_set_string(lua_State *L, const char *key, const char *value) {
    lua_pushstring(L, value);
    lua_setfield(L, -2, key);
}

static void wf_set_integer(lua_State *L, const char *key, lua_Integer value) {
    lua_pushinteger(L, value);
    lua_setfield(L, -2, key);
}

/* Pushes the record of a frame (see wf_pcall for its fields). */
static void wf_push_record(lua_State *L, const char *source, const char *file, const char *what, int line, const char *name,
                           const char *namewhat, int defined, int tailcall, int skipped) {
    lua_createtable(L, 0, 10);
    wf_set_string(L, "source", source);
    wf_set_string(L, "file", file);
    wf_set_string(L, "what", what);
    if (line > 0) wf_set_integer(L, "line", line);
    if (namewhat != NULL && *namewhat != '\0' && name != NULL) {
        wf_set_string(L, "name", name);
        wf_set_string(L, "namewhat", namewhat);
    }
    wf_set_integer(L, "defined", defined);
    if (tailcall) {
        lua_pushboolean(L, 1);
        lua_setfield(L, -2, "tailcall");
    }
    if (skipped > 0) wf_set_integer(L, "skipped", skipped);
}

void wf_push_frames(lua_State *L, lua_State *thread, int level) {
    wf_walk walk;
    lua_Debug ar;
    int skipped;
    lua_newtable(L);
    wf_walk_from(&walk, thread, level);
    while (wf_walk_next(&walk, &ar, &skipped)) {
        wf_push_record(L, ar.source, ar.short_src, ar.what, ar.currentline, ar.name, ar.namewhat, ar.linedefined,
                       ar.istailcall, skipped);
        if (wf_push_global_name(L, walk.thread, &ar)) lua_setfield(L, -2, "global");
        lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
    }
}

static void wf_copy_text(char *to, size_t cap, const char *from) {
    size_t n = from ? strlen(from) : 0;
    if (n >= cap) n = cap - 1;
    if (n) memcpy(to, from, n);
    to[n] = '\0';
}

int wf_copy_frames(lua_State *thread, int level, wf_frame *copies, int cap) {
    wf_walk walk;
    lua_Debug ar;
    int skipped;
    int n = 0;
    wf_walk_from(&walk, thread, level);
    while (n < cap && wf_walk_next(&walk, &ar, &skipped)) {
        wf_frame *f = &copies[n++];
        wf_copy_text(f->source, sizeof f->source, ar.source);
        wf_copy_text(f->file, sizeof f->file, ar.short_src);
        wf_copy_text(f->what, sizeof f->what, ar.what);
        wf_copy_text(f->name, sizeof f->name, ar.namewhat != NULL && *ar.namewhat != '\0' ? ar.name : NULL);
        wf_copy_text(f->namewhat, sizeof f->namewhat, f->name[0] != '\0' ? ar.namewhat : NULL);
        f->line = ar.currentline;
        f->defined = ar.linedefined;
        f->tailcall = ar.istailcall;
        f->skipped = skipped;
    }
    return n;
}

void wf_push_frame_copies(lua_State *L, const wf_frame *copies, int n) {
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        const wf_frame *f = &copies[i];
        wf_push_record(L, f->source, f->file, f->what, f->line, f->name, f->namewhat, f->defined, f->tailcall, f->skipped);
        lua_rawseti(L, -2, i + 1);
    }
}
