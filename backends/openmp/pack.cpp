// pack.cpp -- pack_interleaved / unpack_interleaved: standard strided items <-> the
// interleaved layout, element (i, j) of item b at P[(i + j*rows)*ldp + b].
#include "common.hpp"
#include "slots.hpp"

namespace kobalt_openmp {
namespace {

// Items are moved in blocks: a block's items are read (or written) along their own
// storage while the block's W consecutive cells of every element plane are written (or
// read) together, so both sides stream through whole cache lines.
constexpr kobalt_int kBlock = 64;

template <class T, bool Pack>
void transfer(kobalt_layout layout, kobalt_int rows, kobalt_int cols, T *A, kobalt_int lda, kobalt_int strideA, T *P,
              kobalt_int ldp, kobalt_int batch) {
    const bool col = layout == KOBALT_COL_MAJOR;
    const kobalt_int rs = col ? 1 : lda, cs = col ? lda : 1;
    const kobalt_int blocks = (batch + kBlock - 1) / kBlock;
    for_each_item(blocks, [&](kobalt_int blk) {
        const kobalt_int b0 = blk * kBlock, b1 = b0 + kBlock < batch ? b0 + kBlock : batch;
        for (kobalt_int j = 0; j < cols; ++j)
            for (kobalt_int i = 0; i < rows; ++i) {
                T *plane = P + (i + j * rows) * ldp;
                const kobalt_int off = i * rs + j * cs;
                for (kobalt_int b = b0; b < b1; ++b) {
                    if (Pack) plane[b] = A[b * strideA + off];
                    else A[b * strideA + off] = plane[b];
                }
            }
    });
}

} // namespace

template <class Real>
kobalt_status pack_interleaved(kobalt_layout layout, kobalt_int rows, kobalt_int cols, const Real *A, kobalt_int lda,
                               kobalt_int strideA, Real *P, kobalt_int ldp, kobalt_int batch) {
    if (rows == 0 || cols == 0) return KOBALT_SUCCESS;
    transfer<Real, true>(layout, rows, cols, const_cast<Real *>(A), lda, strideA, P, ldp, batch);
    return KOBALT_SUCCESS;
}

template <class Real>
kobalt_status unpack_interleaved(kobalt_layout layout, kobalt_int rows, kobalt_int cols, const Real *P,
                                 kobalt_int ldp, Real *A, kobalt_int lda, kobalt_int strideA, kobalt_int batch) {
    if (rows == 0 || cols == 0) return KOBALT_SUCCESS;
    transfer<Real, false>(layout, rows, cols, A, lda, strideA, const_cast<Real *>(P), ldp, batch);
    return KOBALT_SUCCESS;
}

} // namespace kobalt_openmp

KOBALT_OPENMP_INSTANTIATE(pack_interleaved)
KOBALT_OPENMP_INSTANTIATE(unpack_interleaved)
