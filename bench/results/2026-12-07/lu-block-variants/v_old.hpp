// lu_block as in backends/openmp/packed_kernels.cpp at fec85ab (copy it to old_body.hpp)
#include "old_body.hpp"
#define VARIANT lu_block
#define VNAME "old"
