/* fuzz_uci.c - the UCI front end's line handler. Input: up to 16 lines,
 * run as uci_main runs its arguments, then quit (which ends any search).
 * Lines naming Threads are dropped, Hash sizes are at most FUZZ_TABLE_MB
 * (fuzz.h); the session starts with a 1 MB table. */
#include "front/frontends.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char name[] = "uci", first[] = "setoption name Hash value 1";
    if (size <= 8192)
        fuzz_protocol(data, size, uci_main, name, first, "threads", "hash");
    return 0;
}
