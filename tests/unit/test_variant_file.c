#include "test.h"

void test_variant_file(void) {}
