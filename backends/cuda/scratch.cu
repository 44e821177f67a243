// scratch.cu -- stream-ordered scratch memory for the vendor paths (snapshots, pointer
// arrays, repacked pivots). CUDA's default memory pool has a release threshold of 0: at
// every synchronisation it gives its free memory back to the driver, so a call made after
// a kobalt_synchronize (or any sync) mapped its scratch afresh, on the host, while the GPU
// waited. Kobalt's own pool per device keeps up to SCRATCH_KEEP_MB MiB reserved instead;
// the application's pools are left as they are. SCRATCH_KEEP_MB = 0: the default pool.
#include <mutex>

#include "common.cuh"

namespace kobalt_cuda {
namespace {

constexpr int kMaxDevices = 64;
std::mutex pool_mutex;
cudaMemPool_t pools[kMaxDevices];
bool tried[kMaxDevices];

// Kobalt's pool on `dev`, created on first use; NULL when it cannot be (the default pool
// is used then).
cudaMemPool_t pool_of(int dev, kobalt_int keep_mb) {
    if (dev < 0 || dev >= kMaxDevices) return nullptr;
    std::lock_guard<std::mutex> lock(pool_mutex);
    if (!tried[dev]) {
        tried[dev] = true;
        cudaMemPoolProps props = {};
        props.allocType = cudaMemAllocationTypePinned;
        props.handleTypes = cudaMemHandleTypeNone;
        props.location.type = cudaMemLocationTypeDevice;
        props.location.id = dev;
        cudaMemPool_t pool = nullptr;
        if (cudaMemPoolCreate(&pool, &props) == cudaSuccess) {
            uint64_t keep = uint64_t(keep_mb) << 20;
            cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
            pools[dev] = pool;
        }
        cudaGetLastError();
    }
    return pools[dev];
}

} // namespace

bool scratch_alloc(void **p, size_t bytes) {
    if (bytes == 0) bytes = 1;
    const kobalt_int keep = threshold(SCRATCH_KEEP_MB);
    cudaMemPool_t pool = nullptr;
    int dev = 0;
    if (keep > 0) {
        if (cudaGetDevice(&dev) == cudaSuccess)
            pool = pool_of(dev, keep);
        else
            cudaGetLastError();
    }
    const cudaError_t e =
        pool ? cudaMallocFromPoolAsync(p, bytes, pool, stream()) : cudaMallocAsync(p, bytes, stream());
    if (e != cudaSuccess) {
        cudaGetLastError();
        *p = nullptr;
        return false;
    }
    return true;
}

void scratch_free(void *p) {
    if (p) cudaFreeAsync(p, stream());
}

} // namespace kobalt_cuda
