/* fuzz_uci.c - the UCI front end's line handler. Input: up to 16 lines,
 * run as uci_main runs its arguments, then quit (which ends any search).
 * Lines naming Threads are dropped, Hash sizes are at most 64 MB and perft
 * depths at most 3 (fuzz.h's FuzzRule); the session starts with a 1 MB
 * table. */
#include "app/frontends.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char name[] = "uci", first[] = "setoption name Hash value 1";
    if (size <= 8192)
        fuzz_protocol(data, size, uci_main, name, first,
                      (const FuzzRule[]){{"threads", 0}, {"hash", 64}, {"perft", 3}, {NULL, 0}});
    return 0;
}
