/*
 * kobalt_expand.h -- helpers for expanding kobalt_routines.def.
 *
 * KOBALT_NAME(name) pastes "kobalt_", the precision letter KOBALT_P and the routine
 * name: with KOBALT_P defined as d, KOBALT_NAME(gemm_strided) is kobalt_dgemm_strided.
 * KOBALT_SLOT(name) is the same without the "kobalt_" prefix: the member name of the
 * routine in the backend function table (dgemm_strided).
 */
#ifndef KOBALT_EXPAND_H
#define KOBALT_EXPAND_H

#define KOBALT_PASTE3_(a, b, c) a##b##c
#define KOBALT_PASTE3(a, b, c) KOBALT_PASTE3_(a, b, c)
#define KOBALT_PASTE2_(a, b) a##b
#define KOBALT_PASTE2(a, b) KOBALT_PASTE2_(a, b)
#define KOBALT_NAME(name) KOBALT_PASTE3(kobalt_, KOBALT_P, name)
#define KOBALT_SLOT(name) KOBALT_PASTE2(KOBALT_P, name)
#define KOBALT_STRINGIFY_(x) #x
#define KOBALT_STRINGIFY(x) KOBALT_STRINGIFY_(x)
#define KOBALT_UNPAREN(...) __VA_ARGS__

#endif
