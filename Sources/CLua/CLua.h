#ifndef WAYFINDER_CLUA_H
#define WAYFINDER_CLUA_H
#include <lua.h>
#include <lualib.h>
#include <lauxlib.h>
#endif
