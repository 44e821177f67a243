#include "v3_body.hpp"
#define VARIANT lu_block3
#define VNAME "recomputed-hits"
