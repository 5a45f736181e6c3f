#include "test.h"

void test_notation(void) {}
