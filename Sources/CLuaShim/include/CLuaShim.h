#ifndef WF_SHIM_H
#define WF_SHIM_H
#include "../../CLua/CLua.h"
#endif
