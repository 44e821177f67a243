#include "new_body.hpp"
#define VARIANT lu_block2
#define VNAME "two-column"
