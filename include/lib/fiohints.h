/* What a fio user should write in diskbench instead of a fio option, in one
 * table for the command line (an unknown --iodepth says "--qd") and for job
 * files (a key diskbench job does not run says what does); and the edit
 * distance both use to guess a mistyped name. */
#ifndef FIOHINTS_H
#define FIOHINTS_H

#include <stddef.h>

/* diskbench's command-line way to say fio's option name[0..n) (without
 * "--"), or NULL (the man page's table "diskbench for fio users"). */
const char *fio_cli_equivalent(const char *name, size_t n);
/* Levenshtein distance between a[0..n) and b: how many characters to
 * insert, delete or change (names of at most 63 characters; longer ones are
 * SIZE_MAX away from everything). */
size_t fio_edit_distance(const char *a, size_t n, const char *b);

#endif
