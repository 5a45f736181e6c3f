/* fuzz_xboard.c - the XBoard (CECP) front end's line handler. Input: up to
 * 16 lines, run as xboard_main runs its arguments, then quit (which ends
 * any search). Lines naming cores are dropped, memory sizes are at most
 * 64 MB (fuzz.h's FuzzRule); the session starts with 1 MB. */
#include "app/frontends.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char name[] = "xboard", first[] = "memory 1";
    if (size <= 8192)
        fuzz_protocol(data, size, xboard_main, name, first,
                      (const FuzzRule[]){{"cores", 0}, {"memory", 64}, {NULL, 0}});
    return 0;
}
