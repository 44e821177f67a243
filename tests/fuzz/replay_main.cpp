// replay_main.cpp -- runs the fuzz target without libFuzzer (any compiler, any build).
//
//   kobalt_fuzz_replay PATH...              every file given, and every file in every
//                                           folder given (the corpus, the regressions)
//   kobalt_fuzz_replay --random N [SEED]    N pseudo-random inputs of 8..96 bytes
//
// A violated expectation aborts inside the target, naming the call; the exit status is
// 0 when every input passed.
#include <dirent.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <algorithm>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv);
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static long run_file(const std::string &path) {
    FILE *f = std::fopen(path.c_str(), "rb");
    if (!f) {
        std::fprintf(stderr, "replay: cannot open %s\n", path.c_str());
        std::exit(2);
    }
    std::vector<uint8_t> bytes;
    uint8_t buf[4096];
    size_t got;
    while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) bytes.insert(bytes.end(), buf, buf + got);
    std::fclose(f);
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
    return 1;
}

static long run_path(const std::string &path) {
    struct stat st{};
    if (stat(path.c_str(), &st) != 0) {
        std::fprintf(stderr, "replay: %s: %s\n", path.c_str(), std::strerror(errno));
        std::exit(2);
    }
    if (!S_ISDIR(st.st_mode)) return run_file(path);
    std::vector<std::string> names;
    if (DIR *d = opendir(path.c_str())) {
        while (dirent *e = readdir(d))
            if (e->d_name[0] != '.') names.push_back(path + "/" + e->d_name);
        closedir(d);
    }
    std::sort(names.begin(), names.end());
    long count = 0;
    for (const std::string &n : names) count += run_path(n);
    return count;
}

int main(int argc, char **argv) {
    LLVMFuzzerInitialize(&argc, &argv);
    if (argc >= 3 && std::strcmp(argv[1], "--random") == 0) {
        const long n = std::atol(argv[2]);
        uint64_t s = argc >= 4 ? std::strtoull(argv[3], nullptr, 0) : 0x6b6f62616c74ull;
        // KOBALT_FUZZ_SAVE=FILE: each input is written there before it runs, so the one
        // that aborts is left behind as a reproducer.
        const char *save = std::getenv("KOBALT_FUZZ_SAVE");
        std::vector<uint8_t> bytes;
        for (long i = 0; i < n; ++i) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            bytes.resize(8 + (s >> 33) % 89);
            for (uint8_t &b : bytes) {
                s = s * 6364136223846793005ull + 1442695040888963407ull;
                b = uint8_t(s >> 56);
            }
            if (save) {
                if (FILE *f = std::fopen(save, "wb")) {
                    std::fwrite(bytes.data(), 1, bytes.size(), f);
                    std::fclose(f);
                }
            }
            LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
        }
        std::printf("replay: %ld random inputs passed\n", n);
        return 0;
    }
    long count = 0;
    for (int i = 1; i < argc; ++i) count += run_path(argv[i]);
    std::printf("replay: %ld inputs passed\n", count);
    return 0;
}
