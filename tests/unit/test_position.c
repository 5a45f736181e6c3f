#include "test.h"

void test_position(void) {}
