// xsmm_dump.cpp -- writes the first 32 KiB of libxsmm's JIT kernel for an n x n x n double
// gemm (column-major, alpha 1, beta 0, as kobalt-bench's peer dispatches it) to a file.
//   g++ -O2 xsmm_dump.cpp -o xsmm_dump -lxsmm -lopenblas -lpthread -ldl && ./xsmm_dump 32 x32.bin
//   objdump -D -b binary -mi386:x86-64 x32.bin | awk '/ret/{print; exit} {print}' > x32.s
#include <libxsmm.h>
#include <cstdio>
#include <cstdlib>
int main(int argc, char **argv) {
    libxsmm_init();
    const libxsmm_blasint n = argc > 1 ? atoi(argv[1]) : 32;
    const double one = 1, zero = 0;
    const int flags = LIBXSMM_GEMM_FLAG_NONE;
    auto f = libxsmm_dmmdispatch(n, n, n, &n, &n, &n, &one, &zero, &flags, nullptr);
    FILE *o = fopen(argv[2], "wb");
    fwrite((const void *)f, 1, 32768, o);
    fclose(o);
    return 0;
}
