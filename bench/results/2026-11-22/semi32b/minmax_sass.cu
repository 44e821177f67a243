// minmax_sass.cu -- what sm_80 / sm_90 / sm_100 make of a double min/max and of a 64-bit
// integer min/max (the question of docs/performance.md, session 9: is there a DMNMX, and are
// order-preserving 64-bit integer keys cheaper than DSETP + 2 FSEL?). Built and disassembled
// by run.sh (nvcc -cubin, cuobjdump -sass); not part of the library.
extern "C" __global__ void dfmin(const double *a, const double *b, double *c) {
    const int i = threadIdx.x;
    c[i] = fmin(a[i], b[i]);
}
extern "C" __global__ void dfmax(const double *a, const double *b, double *c) {
    const int i = threadIdx.x;
    c[i] = fmax(a[i], b[i]);
}
// the tile kernel's fold (accumulator never NaN)
extern "C" __global__ void dfold(const double *a, const double *b, double *c) {
    const int i = threadIdx.x;
    c[i] = b[i] < a[i] ? b[i] : a[i];
}
// the tile kernel's NaN-aware multiply of MIN_MAX (pick<true>)
extern "C" __global__ void dpick(const double *a, const double *b, double *c) {
    const int i = threadIdx.x;
    c[i] = (a[i] > b[i]) || b[i] != b[i] ? a[i] : b[i];
}
extern "C" __global__ void imin64(const long long *a, const long long *b, long long *c) {
    const int i = threadIdx.x;
    c[i] = min(a[i], b[i]);
}
extern "C" __global__ void imax64(const long long *a, const long long *b, long long *c) {
    const int i = threadIdx.x;
    c[i] = max(a[i], b[i]);
}
