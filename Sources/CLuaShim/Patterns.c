#include "Internal.h"

#include <ctype.h>

/*
 * string.find, string.match, string.gmatch and string.gsub for the sandbox: Lua 5.4's pattern
 * language and results, with the matcher's work counted. Lua's own matcher backtracks without
 * running a Lua instruction or allocating, so a pathological pattern ("a*a*a*a*b" against a long run
 * of "a") could run for hours past the time budget. Here every step of the matcher (each position
 * tried, each character a class or %b scans, each byte a back-reference or plain find compares)
 * counts, and every WF_STEPS_PER_CHECK steps the budget's clock is read: past the deadline the call
 * fails with the budget's error, at the script's line.
 */

#define WF_MAXCAPTURES 32
#define WF_MAXMATCHDEPTH 200
#define WF_STEPS_PER_CHECK 4096
#define WF_CAP_UNFINISHED (-1)
#define WF_CAP_POSITION (-2)
#define WF_ESC '%'
#define WF_SPECIALS "^$*+?.([%-"

typedef struct wf_matcher {
    const char *src_init;
    const char *src_end;
    const char *p_end;
    lua_State *L;
    wf_host *h;
    size_t steps; /* until the next look at the clock */
    int depth;    /* recursion left */
    int level;    /* captures open or closed */
    struct {
        const char *init;
        ptrdiff_t len;
    } capture[WF_MAXCAPTURES];
} wf_matcher;

static void wf_step(wf_matcher *ms, size_t weight) {
    if (ms->steps > weight) {
        ms->steps -= weight;
        return;
    }
    ms->steps = WF_STEPS_PER_CHECK;
    if (wf_budget_spent(ms->h)) wf_raise_budget(ms->L, 1);
}

static void wf_prepare(wf_matcher *ms, lua_State *L, const char *s, size_t ls, const char *p, size_t lp) {
    ms->L = L;
    ms->h = wf_host_of(L);
    ms->steps = WF_STEPS_PER_CHECK;
    ms->src_init = s;
    ms->src_end = s + ls;
    ms->p_end = p + lp;
}

static void wf_restart(wf_matcher *ms) {
    ms->level = 0;
    ms->depth = WF_MAXMATCHDEPTH;
}

/* ---- Classes ---------------------------------------------------------------------------------- */

static const char *wf_class_end(wf_matcher *ms, const char *p) {
    if (*p++ == WF_ESC) {
        if (p == ms->p_end) luaL_error(ms->L, "malformed pattern (ends with '%%')");
        return p + 1;
    }
    if (*(p - 1) == '[') {
        if (*p == '^') p++;
        do {
            if (p == ms->p_end) luaL_error(ms->L, "malformed pattern (missing ']')");
            if (*(p++) == WF_ESC && p < ms->p_end) p++;
        } while (*p != ']');
        return p + 1;
    }
    return p;
}

static int wf_class_has(int c, int cl) {
    int has;
    switch (tolower(cl)) {
    case 'a': has = isalpha(c); break;
    case 'c': has = iscntrl(c); break;
    case 'd': has = isdigit(c); break;
    case 'g': has = isgraph(c); break;
    case 'l': has = islower(c); break;
    case 'p': has = ispunct(c); break;
    case 's': has = isspace(c); break;
    case 'u': has = isupper(c); break;
    case 'w': has = isalnum(c); break;
    case 'x': has = isxdigit(c); break;
    case 'z': has = (c == 0); break; /* Lua 5.4 still knows it, deprecated */
    default: return cl == c;
    }
    return isupper(cl) ? !has : has;
}

/* p is the '[' of a set, end its ']'. */
static int wf_set_has(int c, const char *p, const char *end) {
    int wanted = 1;
    if (*(p + 1) == '^') {
        wanted = 0;
        p++;
    }
    while (++p < end) {
        if (*p == WF_ESC) {
            p++;
            if (wf_class_has(c, (unsigned char)*p)) return wanted;
        } else if (*(p + 1) == '-' && p + 2 < end) {
            p += 2;
            if ((unsigned char)*(p - 2) <= c && c <= (unsigned char)*p) return wanted;
        } else if ((unsigned char)*p == c) {
            return wanted;
        }
    }
    return !wanted;
}

static int wf_single(wf_matcher *ms, const char *s, const char *p, const char *ep) {
    if (s >= ms->src_end) return 0;
    int c = (unsigned char)*s;
    switch (*p) {
    case '.': return 1;
    case WF_ESC: return wf_class_has(c, (unsigned char)*(p + 1));
    case '[': return wf_set_has(c, p, ep - 1);
    default: return (unsigned char)*p == c;
    }
}

/* ---- Matching --------------------------------------------------------------------------------- */

static const char *wf_match(wf_matcher *ms, const char *s, const char *p);

static const char *wf_balance(wf_matcher *ms, const char *s, const char *p) {
    if (p >= ms->p_end - 1) luaL_error(ms->L, "malformed pattern (missing arguments to '%%b')");
    if (s >= ms->src_end || *s != *p) return NULL;
    int open = *p, close = *(p + 1), depth = 1;
    while (++s < ms->src_end) {
        wf_step(ms, 1);
        if (*s == close) {
            if (--depth == 0) return s + 1;
        } else if (*s == open) {
            depth++;
        }
    }
    return NULL;
}

static const char *wf_max_expand(wf_matcher *ms, const char *s, const char *p, const char *ep) {
    ptrdiff_t i = 0;
    while (wf_single(ms, s + i, p, ep)) {
        wf_step(ms, 1);
        i++;
    }
    for (; i >= 0; i--) {
        const char *res = wf_match(ms, s + i, ep + 1);
        if (res) return res;
    }
    return NULL;
}

static const char *wf_min_expand(wf_matcher *ms, const char *s, const char *p, const char *ep) {
    for (;;) {
        const char *res = wf_match(ms, s, ep + 1);
        if (res) return res;
        if (!wf_single(ms, s, p, ep)) return NULL;
        s++;
    }
}

static const char *wf_open_capture(wf_matcher *ms, const char *s, const char *p, ptrdiff_t what) {
    if (ms->level >= WF_MAXCAPTURES) luaL_error(ms->L, "too many captures");
    ms->capture[ms->level].init = s;
    ms->capture[ms->level].len = what;
    ms->level++;
    const char *res = wf_match(ms, s, p);
    if (res == NULL) ms->level--;
    return res;
}

static const char *wf_close_capture(wf_matcher *ms, const char *s, const char *p) {
    int l = ms->level - 1;
    while (l >= 0 && ms->capture[l].len != WF_CAP_UNFINISHED) l--;
    if (l < 0) luaL_error(ms->L, "invalid pattern capture");
    ms->capture[l].len = s - ms->capture[l].init;
    const char *res = wf_match(ms, s, p);
    if (res == NULL) ms->capture[l].len = WF_CAP_UNFINISHED;
    return res;
}

static int wf_capture_index(wf_matcher *ms, int digit) {
    int l = digit - '1';
    if (l < 0 || l >= ms->level || ms->capture[l].len == WF_CAP_UNFINISHED)
        return luaL_error(ms->L, "invalid capture index %%%d", l + 1);
    return l;
}

static const char *wf_back_reference(wf_matcher *ms, const char *s, int digit) {
    int l = wf_capture_index(ms, digit);
    size_t len = (size_t)ms->capture[l].len;
    wf_step(ms, 1 + len / 16);
    if ((size_t)(ms->src_end - s) >= len && memcmp(ms->capture[l].init, s, len) == 0) return s + len;
    return NULL;
}

static const char *wf_match(wf_matcher *ms, const char *s, const char *p) {
    if (ms->depth-- == 0) luaL_error(ms->L, "pattern too complex");
    wf_step(ms, 1);
    for (;;) {
        if (p == ms->p_end) break;
        if (*p == '(') {
            s = *(p + 1) == ')' ? wf_open_capture(ms, s, p + 2, WF_CAP_POSITION) : wf_open_capture(ms, s, p + 1, WF_CAP_UNFINISHED);
            break;
        }
        if (*p == ')') {
            s = wf_close_capture(ms, s, p + 1);
            break;
        }
        if (*p == '$' && p + 1 == ms->p_end) {
            s = s == ms->src_end ? s : NULL;
            break;
        }
        if (*p == WF_ESC && *(p + 1) == 'b') {
            s = wf_balance(ms, s, p + 2);
            if (s == NULL) break;
            p += 4;
            continue;
        }
        if (*p == WF_ESC && *(p + 1) == 'f') {
            p += 2;
            if (*p != '[') luaL_error(ms->L, "missing '[' after '%%f' in pattern");
            const char *ep = wf_class_end(ms, p);
            int previous = s == ms->src_init ? '\0' : (unsigned char)*(s - 1);
            int current = s < ms->src_end ? (unsigned char)*s : '\0';
            if (!wf_set_has(previous, p, ep - 1) && wf_set_has(current, p, ep - 1)) {
                p = ep;
                continue;
            }
            s = NULL;
            break;
        }
        if (*p == WF_ESC && isdigit((unsigned char)*(p + 1))) {
            s = wf_back_reference(ms, s, (unsigned char)*(p + 1));
            if (s == NULL) break;
            p += 2;
            continue;
        }
        const char *ep = wf_class_end(ms, p);
        if (!wf_single(ms, s, p, ep)) {
            if (*ep == '*' || *ep == '?' || *ep == '-') {
                p = ep + 1;
                continue;
            }
            s = NULL;
            break;
        }
        if (*ep == '?') {
            const char *res = wf_match(ms, s + 1, ep + 1);
            if (res != NULL) {
                s = res;
                break;
            }
            p = ep + 1;
            continue;
        }
        if (*ep == '+') {
            s = wf_max_expand(ms, s + 1, p, ep);
            break;
        }
        if (*ep == '*') {
            s = wf_max_expand(ms, s, p, ep);
            break;
        }
        if (*ep == '-') {
            s = wf_min_expand(ms, s, p, ep);
            break;
        }
        s++;
        p = ep;
    }
    ms->depth++;
    return s;
}

/* ---- Captures --------------------------------------------------------------------------------- */

/* The i-th capture (the whole match [s, e) when there are none): its length and start, or
   WF_CAP_POSITION after pushing a position capture. */
static ptrdiff_t wf_capture(wf_matcher *ms, int i, const char *s, const char *e, const char **start) {
    if (i >= ms->level) {
        if (i != 0) luaL_error(ms->L, "invalid capture index %%%d", i + 1);
        *start = s;
        return e - s;
    }
    ptrdiff_t len = ms->capture[i].len;
    *start = ms->capture[i].init;
    if (len == WF_CAP_UNFINISHED) luaL_error(ms->L, "unfinished capture");
    if (len == WF_CAP_POSITION) lua_pushinteger(ms->L, (ms->capture[i].init - ms->src_init) + 1);
    return len;
}

static void wf_push_capture(wf_matcher *ms, int i, const char *s, const char *e) {
    const char *start;
    ptrdiff_t len = wf_capture(ms, i, s, e, &start);
    if (len != WF_CAP_POSITION) lua_pushlstring(ms->L, start, (size_t)len);
}

static int wf_push_captures(wf_matcher *ms, const char *s, const char *e) {
    int n = (ms->level == 0 && s) ? 1 : ms->level;
    luaL_checkstack(ms->L, n, "too many captures");
    for (int i = 0; i < n; i++) wf_push_capture(ms, i, s, e);
    return n;
}

/* ---- The library functions -------------------------------------------------------------------- */

static size_t wf_start_index(lua_Integer pos, size_t len) {
    if (pos > 0) return (size_t)pos;
    if (pos == 0) return 1;
    if (pos < -(lua_Integer)len) return 1;
    return len + (size_t)pos + 1;
}

static int wf_has_specials(const char *p, size_t l) {
    size_t upto = 0;
    do {
        if (strpbrk(p + upto, WF_SPECIALS) != NULL) return 1;
        upto += strlen(p + upto) + 1;
    } while (upto <= l);
    return 0;
}

/* Plain search: every position tried counts what it compares. */
static const char *wf_plain_find(wf_matcher *ms, const char *s, size_t ls, const char *p, size_t lp) {
    if (lp == 0) return s;
    if (lp > ls) return NULL;
    const char *last = s + (ls - lp);
    for (const char *at = s; at <= last; at++) {
        at = memchr(at, *p, (size_t)(last - at) + 1);
        if (at == NULL) return NULL;
        wf_step(ms, 1 + lp / 16);
        if (memcmp(at + 1, p + 1, lp - 1) == 0) return at;
    }
    return NULL;
}

static int wf_find_or_match(lua_State *L, int find) {
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = wf_start_index(luaL_optinteger(L, 3, 1), ls) - 1;
    if (init > ls) {
        luaL_pushfail(L);
        return 1;
    }
    wf_matcher ms;
    wf_prepare(&ms, L, s, ls, p, lp);
    if (find && (lua_toboolean(L, 4) || !wf_has_specials(p, lp))) {
        const char *at = wf_plain_find(&ms, s + init, ls - init, p, lp);
        if (at) {
            lua_pushinteger(L, (at - s) + 1);
            lua_pushinteger(L, (at - s) + (lua_Integer)lp);
            return 2;
        }
    } else {
        int anchor = *p == '^';
        if (anchor) {
            p++;
            lp--;
            ms.p_end = p + lp;
        }
        const char *s1 = s + init;
        do {
            wf_restart(&ms);
            const char *res = wf_match(&ms, s1, p);
            if (res != NULL) {
                if (find) {
                    lua_pushinteger(L, (s1 - s) + 1);
                    lua_pushinteger(L, res - s);
                    return wf_push_captures(&ms, NULL, 0) + 2;
                }
                return wf_push_captures(&ms, s1, res);
            }
        } while (s1++ < ms.src_end && !anchor);
    }
    luaL_pushfail(L);
    return 1;
}

static int wf_string_find(lua_State *L) { return wf_find_or_match(L, 1); }
static int wf_string_match(lua_State *L) { return wf_find_or_match(L, 0); }

typedef struct wf_gmatch {
    const char *src;
    const char *p;
    const char *lastmatch;
    wf_matcher ms;
} wf_gmatch;

static int wf_gmatch_next(lua_State *L) {
    wf_gmatch *gm = (wf_gmatch *)lua_touserdata(L, lua_upvalueindex(3));
    gm->ms.L = L;
    for (const char *src = gm->src; src <= gm->ms.src_end; src++) {
        wf_restart(&gm->ms);
        const char *e = wf_match(&gm->ms, src, gm->p);
        if (e != NULL && e != gm->lastmatch) {
            gm->src = gm->lastmatch = e;
            return wf_push_captures(&gm->ms, src, e);
        }
    }
    return 0;
}

static int wf_string_gmatch(lua_State *L) {
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = wf_start_index(luaL_optinteger(L, 3, 1), ls) - 1;
    lua_settop(L, 2); /* the closure keeps both strings alive */
    wf_gmatch *gm = (wf_gmatch *)lua_newuserdatauv(L, sizeof(wf_gmatch), 0);
    if (init > ls) init = ls + 1;
    wf_prepare(&gm->ms, L, s, ls, p, lp);
    gm->src = s + init;
    gm->p = p;
    gm->lastmatch = NULL;
    lua_pushcclosure(L, wf_gmatch_next, 3);
    return 1;
}

static void wf_add_replacement(wf_matcher *ms, luaL_Buffer *b, const char *s, const char *e) {
    lua_State *L = ms->L;
    size_t l;
    const char *text = lua_tolstring(L, 3, &l);
    const char *p;
    while ((p = memchr(text, WF_ESC, l)) != NULL) {
        luaL_addlstring(b, text, (size_t)(p - text));
        p++;
        if (*p == WF_ESC) {
            luaL_addchar(b, *p);
        } else if (*p == '0') {
            luaL_addlstring(b, s, (size_t)(e - s));
        } else if (isdigit((unsigned char)*p)) {
            const char *start;
            ptrdiff_t len = wf_capture(ms, *p - '1', s, e, &start);
            if (len == WF_CAP_POSITION) luaL_addvalue(b);
            else luaL_addlstring(b, start, (size_t)len);
        } else {
            luaL_error(L, "invalid use of '%c' in replacement string", WF_ESC);
        }
        l -= (size_t)(p + 1 - text);
        text = p + 1;
    }
    luaL_addlstring(b, text, l);
}

/* Adds the replacement of the match [s, e); whether it changed the text. */
static int wf_add_value(wf_matcher *ms, luaL_Buffer *b, const char *s, const char *e, int kind) {
    lua_State *L = ms->L;
    if (kind == LUA_TFUNCTION) {
        lua_pushvalue(L, 3);
        int n = wf_push_captures(ms, s, e);
        lua_call(L, n, 1);
    } else if (kind == LUA_TTABLE) {
        wf_push_capture(ms, 0, s, e);
        lua_gettable(L, 3);
    } else {
        wf_add_replacement(ms, b, s, e);
        return 1;
    }
    if (!lua_toboolean(L, -1)) {
        lua_pop(L, 1);
        luaL_addlstring(b, s, (size_t)(e - s));
        return 0;
    }
    if (!lua_isstring(L, -1)) return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
    luaL_addvalue(b);
    return 1;
}

static int wf_string_gsub(lua_State *L) {
    size_t srcl, lp;
    const char *src = luaL_checklstring(L, 1, &srcl);
    const char *p = luaL_checklstring(L, 2, &lp);
    const char *lastmatch = NULL;
    int kind = lua_type(L, 3);
    lua_Integer max = luaL_optinteger(L, 4, (lua_Integer)srcl + 1);
    int anchor = *p == '^';
    lua_Integer n = 0;
    int changed = 0;
    luaL_argexpected(L, kind == LUA_TNUMBER || kind == LUA_TSTRING || kind == LUA_TFUNCTION || kind == LUA_TTABLE, 3,
                     "string/function/table");
    wf_matcher ms;
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    if (anchor) {
        p++;
        lp--;
    }
    wf_prepare(&ms, L, src, srcl, p, lp);
    while (n < max) {
        wf_restart(&ms);
        const char *e = wf_match(&ms, src, p);
        if (e != NULL && e != lastmatch) {
            n++;
            changed = wf_add_value(&ms, &b, src, e, kind) | changed;
            src = lastmatch = e;
        } else if (src < ms.src_end) {
            luaL_addchar(&b, *src++);
        } else {
            break;
        }
        if (anchor) break;
    }
    if (!changed) {
        lua_pushvalue(L, 1);
    } else {
        luaL_addlstring(&b, src, (size_t)(ms.src_end - src));
        luaL_pushresult(&b);
    }
    lua_pushinteger(L, n);
    return 2;
}

void wf_bound_patterns(lua_State *L) {
    static const luaL_Reg functions[] = {
        { "find", wf_string_find },
        { "match", wf_string_match },
        { "gmatch", wf_string_gmatch },
        { "gsub", wf_string_gsub },
        { NULL, NULL },
    };
    lua_getglobal(L, LUA_STRLIBNAME);
    luaL_setfuncs(L, functions, 0);
    lua_pop(L, 1);
}
