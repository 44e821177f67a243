/*
 * test_loading_plugin.c -- broken plugins for test_loading. Built three times:
 *   KOBALT_FAKE_NOGETTER   a valid shared object without kobalt_backend_get_table
 *   KOBALT_FAKE_NULLTABLE  the getter returns NULL
 *   KOBALT_FAKE_INITFAIL   a well-formed table whose init refuses, with a reason
 *   KOBALT_FAKE_BADABI     a table built for another plugin ABI version
 * test_loading copies them into a temporary plugin folder as libkobalt-<variant>.so.
 */
#include <stdio.h>

#include <kobalt/kobalt_backend.h>

#define KOBALT_FAKE_REASON "kobalt-test-initfail: no device here"

#if defined(KOBALT_FAKE_NOGETTER)
__attribute__((visibility("default"))) int kobalt_test_not_a_backend(void) { return 42; }

#elif defined(KOBALT_FAKE_NULLTABLE)
__attribute__((visibility("default"))) const kobalt_backend_table *
kobalt_backend_get_table(uint32_t core_abi_version)
{
    (void)core_abi_version;
    return NULL;
}

#elif defined(KOBALT_FAKE_INITFAIL) || defined(KOBALT_FAKE_BADABI)
static int fake_init(const kobalt_core_services *core, char *why, size_t why_size)
{
    (void)core;
    snprintf(why, why_size, "%s", KOBALT_FAKE_REASON);
    return 1;
}

static int fake_claim(const void *ptr)
{
    (void)ptr;
    return KOBALT_CLAIM_OWNER; /* would steal every call if the core kept it */
}

static const kobalt_backend_table fake_table = {
#if defined(KOBALT_FAKE_BADABI)
    .abi_version = KOBALT_BACKEND_ABI_VERSION + 100,
    .name = "badabi",
#else
    .abi_version = KOBALT_BACKEND_ABI_VERSION,
    .name = "initfail",
#endif
    .struct_size = sizeof(kobalt_backend_table),
    .memory_space = "host",
    .host_accessible = 1,
    .init = fake_init,
    .claim = fake_claim,
};

__attribute__((visibility("default"))) const kobalt_backend_table *
kobalt_backend_get_table(uint32_t core_abi_version)
{
    (void)core_abi_version;
    return &fake_table;
}
#else
#error "define one KOBALT_FAKE_* variant"
#endif
