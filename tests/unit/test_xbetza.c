#include "test.h"

void test_xbetza(void) {}
