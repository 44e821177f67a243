// registry.cpp -- finding, loading and probing backend plugins.
//
// Plugins are shared objects named libkobalt-<name>.so. They are looked for in the
// folders of KOBALT_PLUGIN_PATH (colon-separated; set but empty means "no plugins"),
// or, when it is unset, in the folder libkobalt itself was loaded from (dladdr).
// KOBALT_BACKENDS ("all", "none", or a comma list of names) filters them. A plugin
// that fails to load, lacks the getter, has another ABI or fails its probe is skipped;
// the reason is printed only under KOBALT_VERBOSE=1. Running out of memory while
// loading throws std::bad_alloc out of backends(), which loads again on the next call
// (the entry points turn it into KOBALT_OUT_OF_MEMORY): a transient shortage never
// leaves the process without its backends for good.
#include "registry.hpp"

#include <dirent.h>
#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstddef>
#include <cstdarg>
#include <cstdio>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "error.hpp"

// The plugin ABI is append-only (kobalt_routines.def, "Generations"): these pin where each
// released generation's slots sit, so a change that would move them fails to compile.
constexpr size_t kSlot = sizeof(void (*)(void));
constexpr size_t kFirstSlot = offsetof(kobalt_backend_table, synchronize) + kSlot;
static_assert(offsetof(kobalt_backend_table, dgemm_strided) == kFirstSlot, "generation 1 starts the slots");
static_assert(offsetof(kobalt_backend_table, sgemm_lu_trsv_batched) == kFirstSlot + 27 * kSlot,
              "generation 1 is 14 routines in d, then the same 14 in s");
static_assert(offsetof(kobalt_backend_table, dgetri_strided) == kFirstSlot + 28 * kSlot,
              "generation 2 starts right after generation 1");
static_assert(offsetof(kobalt_backend_table, smatinv_batched) == kFirstSlot + 35 * kSlot,
              "generation 2 is 4 routines in d, then the same 4 in s");
static_assert(offsetof(kobalt_backend_table, dgemm_desc) == kFirstSlot + 36 * kSlot,
              "generation 3 starts right after generation 2");
static_assert(offsetof(kobalt_backend_table, sunpack_interleaved) == kFirstSlot + 53 * kSlot,
              "generation 3 is 9 routines in d, then the same 9 in s");
static_assert(offsetof(kobalt_backend_table, dgemm_semiring_strided) == kFirstSlot + 54 * kSlot,
              "generation 4 starts right after generation 3");
static_assert(offsetof(kobalt_backend_table, sgemm_semiring_batched) == kFirstSlot + 57 * kSlot,
              "generation 4 is 2 routines in d, then the same 2 in s");
static_assert(offsetof(kobalt_backend_table, pivots_out_of_range) == kFirstSlot + 58 * kSlot,
              "pivots_out_of_range comes right after generation 4");

namespace kobalt {
namespace {

const char plugin_prefix[] = KOBALT_PLUGIN_PREFIX;  // "libkobalt-"
const char plugin_suffix[] = ".so";

std::vector<Backend> &loaded() {
    static std::vector<Backend> backends;
    return backends;
}

std::vector<std::string> split(const std::string &text, char sep) {
    std::vector<std::string> parts;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find(sep, start);
        if (end == std::string::npos) end = text.size();
        if (end > start) parts.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return parts;
}

bool is_plugin_file_name(const std::string &name) {
    const size_t np = std::strlen(plugin_prefix), ns = std::strlen(plugin_suffix);
    return name.size() > np + ns && name.compare(0, np, plugin_prefix) == 0 &&
           name.compare(name.size() - ns, ns, plugin_suffix) == 0;
}

// "libkobalt-openmp.so" -> "openmp"
std::string name_from_file(const std::string &path) {
    std::string base = path.substr(path.find_last_of('/') + 1);
    const size_t np = std::strlen(plugin_prefix), ns = std::strlen(plugin_suffix);
    return base.substr(np, base.size() - np - ns);
}

std::string own_folder() {
    Dl_info info{};
    if (!dladdr(reinterpret_cast<void *>(&kobalt_version), &info) || !info.dli_fname) return ".";
    std::string self = info.dli_fname;
    size_t slash = self.find_last_of('/');
    return slash == std::string::npos ? "." : self.substr(0, slash);
}

// Plugin files to try, in priority order: each folder's matches sorted by name.
std::vector<std::string> candidate_files() {
    std::vector<std::string> folders;
    if (const char *path = std::getenv("KOBALT_PLUGIN_PATH"))
        folders = split(path, ':');
    else
        folders.push_back(own_folder());

    std::vector<std::string> files;
    for (const std::string &folder : folders) {
        struct stat st{};
        if (stat(folder.c_str(), &st) != 0) {
            say("plugin path entry %s: %s", folder.c_str(), std::strerror(errno));
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {  // a plugin named directly
            files.push_back(folder);
            continue;
        }
        DIR *dir = opendir(folder.c_str());
        if (!dir) {
            say("cannot read plugin folder %s: %s", folder.c_str(), std::strerror(errno));
            if (errno == ENOMEM) throw std::bad_alloc();  // load again on the next call
            continue;
        }
        std::vector<std::string> here;
        while (dirent *entry = readdir(dir))
            if (is_plugin_file_name(entry->d_name)) here.push_back(folder + "/" + entry->d_name);
        closedir(dir);
        std::sort(here.begin(), here.end());
        files.insert(files.end(), here.begin(), here.end());
    }
    return files;
}

bool allowed_by_env(const std::string &name) {
    const char *list = std::getenv("KOBALT_BACKENDS");
    if (!list || !*list || std::strcmp(list, "all") == 0) return true;
    for (const std::string &entry : split(list, ','))
        if (entry == name) return true;
    return false;
}

bool already_loaded(const char *name) {
    for (const Backend &b : loaded())
        if (std::strcmp(b.table.name, name) == 0) return true;
    return false;
}

// Thresholds are data in the plugin; the environment overrides them here, once,
// before any call: KOBALT_<BACKEND>_<NAME> wins over KOBALT_<NAME>.
void apply_threshold_overrides(const kobalt_backend_table &table) {
    std::string backend_upper = table.name;
    for (char &c : backend_upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    for (size_t i = 0; i < table.threshold_count; ++i) {
        kobalt_threshold &t = table.thresholds[i];
        for (const std::string &var : {"KOBALT_" + backend_upper + "_" + t.name, std::string("KOBALT_") + t.name}) {
            const char *text = std::getenv(var.c_str());
            if (!text) continue;
            char *end = nullptr;
            errno = 0;
            long long value = std::strtoll(text, &end, 10);
            if (errno || end == text || *end || value < 0) {
                say("ignoring %s=%s: not a non-negative integer", var.c_str(), text);
                continue;
            }
            t.value = value;
            break;
        }
        say("  %s %s = %lld (%s)", table.name, t.name, static_cast<long long>(t.value), t.description);
    }
}

void record_error_from_backend(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void record_error_from_backend(const char *fmt, ...) {
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    set_error("%s", message);
}

const kobalt_core_services services = {KOBALT_BACKEND_ABI_VERSION, sizeof(kobalt_core_services),
                                       record_error_from_backend, 0, current_cuda_stream};

void try_load(const std::string &path, const kobalt_core_services &core) {
    const std::string file_name = name_from_file(path);
    if (!allowed_by_env(file_name)) {
        say("skipping %s: not in KOBALT_BACKENDS", path.c_str());
        return;
    }
    errno = 0;
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const int err = errno;
        const char *why = dlerror();
        say("skipping %s: %s", path.c_str(), why);
        // The loader ran out of memory (errno, or a message ending in strerror(ENOMEM);
        // glibc reports some of its failed allocations under other words): not the
        // plugin's fault, so load again on the next call.
        if (err == ENOMEM || (why && std::strstr(why, std::strerror(ENOMEM)))) throw std::bad_alloc();
        return;
    }
    auto getter = reinterpret_cast<kobalt_backend_getter>(dlsym(handle, KOBALT_BACKEND_GETTER));
    const kobalt_backend_table *table = getter ? getter(KOBALT_BACKEND_ABI_VERSION) : nullptr;
    const char *why_not = nullptr;
    if (!getter)
        why_not = "no " KOBALT_BACKEND_GETTER " symbol";
    else if (!table)
        why_not = "the getter returned no table";
    else if (table->abi_version != KOBALT_BACKEND_ABI_VERSION)
        why_not = "built for another plugin ABI version";
    else if (table->struct_size < offsetof(kobalt_backend_table, thresholds) || !table->name ||
             !table->init || !table->claim)
        why_not = "incomplete table";
    else if (already_loaded(table->name))
        why_not = "a backend of that name is already loaded";
    if (why_not) {
        say("skipping %s: %s", path.c_str(), why_not);
        dlclose(handle);
        return;
    }

    Backend backend;
    std::memset(&backend.table, 0, sizeof backend.table);
    std::memcpy(&backend.table, table, std::min<size_t>(table->struct_size, sizeof backend.table));
    if (backend.table.struct_size < offsetof(kobalt_backend_table, threshold_count) + sizeof(size_t))
        backend.table.threshold_count = 0;

    char why[256] = "";
    if (backend.table.init(&core, why, sizeof why) != 0) {
        // Not dlclose'd: a failed probe may have started driver threads.
        say("skipping %s: probe failed: %s", path.c_str(), why[0] ? why : "no reason given");
        return;
    }
    say("loaded backend '%s' (%s memory) from %s", backend.table.name,
        backend.table.memory_space ? backend.table.memory_space : "?", path.c_str());
    apply_threshold_overrides(backend.table);
    loaded().push_back(backend);
}

void load_all() {
    kobalt_core_services core = services;
    core.verbose = verbose() ? 1 : 0;
    static kobalt_core_services kept;  // backends keep the pointer
    kept = core;
    for (const std::string &path : candidate_files()) try_load(path, kept);
    if (loaded().empty()) say("no backend loaded: every call will return KOBALT_NO_BACKEND");
}

// Loads once; a load that ran out of memory (std::bad_alloc) is not done and runs again
// on the next call. A mutex and a flag rather than std::call_once: an exception thrown
// through pthread_once makes glibc load libgcc_s, which aborts when memory is short.
const std::vector<Backend> &backends() {
    static std::atomic<bool> done{false};
    static std::mutex loading;
    if (!done.load(std::memory_order_acquire)) {
        std::lock_guard<std::mutex> lock(loading);
        if (!done.load(std::memory_order_relaxed)) {
            load_all();
            done.store(true, std::memory_order_release);
        }
    }
    return loaded();
}

}  // namespace

int backend_count() { return static_cast<int>(backends().size()); }

const Backend *backend(int i) {
    const std::vector<Backend> &all = backends();
    return i >= 0 && i < static_cast<int>(all.size()) ? &all[static_cast<size_t>(i)] : nullptr;
}

namespace {
// The backend claiming ptr most strongly (the first loaded wins a tie), or NULL.
const Backend *owner(const void *ptr) {
    const Backend *best = nullptr;
    int best_claim = KOBALT_CLAIM_NONE;
    for (const Backend &b : backends()) {
        int claim = b.table.claim(ptr);
        if (claim > best_claim) {
            best = &b;
            best_claim = claim;
        }
    }
    return best;
}
}  // namespace

Route route(std::initializer_list<const void *> pointers) {
    Route r;
    int i = 0;
    for (const void *p : pointers) {
        if (p) {
            const Backend *b = owner(p);
            if (r.first < 0) {
                r.first = i;
                r.backend = b;
            } else if (b != r.backend) {
                r.second = i;
                r.backend = nullptr;
                return r;
            }
        }
        ++i;
    }
    if (r.first < 0) r.backend = owner(nullptr);  // nothing to look at: the host's fallback
    return r;
}

}  // namespace kobalt

// Out of memory while loading: no backend yet (the next call loads again).
extern "C" int kobalt_backend_count(void) {
    try {
        return kobalt::backend_count();
    } catch (const std::bad_alloc &) {
        kobalt::set_error("kobalt_backend_count: out of memory while loading the backends");
        return 0;
    }
}

extern "C" const char *kobalt_backend_name(int i) {
    try {
        const kobalt::Backend *b = kobalt::backend(i);
        return b ? b->table.name : nullptr;
    } catch (const std::bad_alloc &) {
        kobalt::set_error("kobalt_backend_name: out of memory while loading the backends");
        return nullptr;
    }
}
