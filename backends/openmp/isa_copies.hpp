// isa_copies.hpp -- which ISA copies of the SIMD kernels this build has.
// The interleaved, packed and semiring kernels are compiled once per ISA (baseline, AVX2,
// AVX-512) and one copy is chosen at run time. The AVX-512 copies can be left out of a
// build (CMake option KOBALT_OPENMP_AVX512=OFF, which sets KOBALT_OPENMP_HAVE_AVX512=0 on
// the code that calls them): .ci/run's sanitized builds do so on CPUs without AVX-512,
// where no test could run them and they cost a quarter of the build. The dispatchers then
// never choose AVX-512 and never name its symbols. Release builds keep all copies.
#ifndef KOBALT_OPENMP_ISA_COPIES_HPP
#define KOBALT_OPENMP_ISA_COPIES_HPP

#ifndef KOBALT_OPENMP_HAVE_AVX512
#define KOBALT_OPENMP_HAVE_AVX512 1
#endif

// KOBALT_IF_AVX512(code): code when the AVX-512 copies are built, nothing otherwise.
#if KOBALT_OPENMP_HAVE_AVX512
#define KOBALT_IF_AVX512(...) __VA_ARGS__
#else
#define KOBALT_IF_AVX512(...)
#endif

#endif
