/* The plain tests steady and sla run: see plain_test.h. */
#include <string.h>

#include "plain_test.h"

const struct plain_test *plain_test_of(const char *name)
{
	static const struct plain_test tests[] = {
		{ "randread", IO_READ, PAT_RAND }, { "randwrite", IO_WRITE, PAT_RAND },
		{ "seqread", IO_READ, PAT_SEQ }, { "seqwrite", IO_WRITE, PAT_SEQ },
	};
	for (size_t i = 0; name && i < sizeof(tests) / sizeof(tests[0]); i++)
		if (strcmp(tests[i].name, name) == 0)
			return &tests[i];
	return NULL;
}
