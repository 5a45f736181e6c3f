/* test_search.c - placeholder until the searcher lands. */
#include "test.h"

void test_search(void) {}
