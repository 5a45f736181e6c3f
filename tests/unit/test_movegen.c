#include "test.h"

void test_movegen(void) {}
