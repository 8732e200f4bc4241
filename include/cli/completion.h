/* Shell completion: `diskbench completion bash|zsh` writes a script built
 * from the command table and the option table when it runs, so a new test,
 * option or mode completes with no edit here.  What completes:
 *   - the tests (and help, completion) as the first word;
 *   - each test's options, as `diskbench help TEST` lists them, short and
 *     long forms, anywhere on the line;
 *   - the values of an option whose set is closed (cli_option_value), and
 *     paths for an option whose metavar names one (FILE, DIR, PATH);
 *   - the TARGET words: what the test's row says it takes (TAKES_*). */
#ifndef COMPLETION_H
#define COMPLETION_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "cmd.h"

/* The shells a script is written for, as a message lists them. */
extern const char completion_shells[];

/* What an option's value is, read from its metavar: a word FILE, DIR or
 * PATH in it ("FILE", "FILE...", "DIR") names a path; anything else
 * (SIZE, N, MODE) completes from its closed set, if any, or not at all. */
enum value_kind { VALUE_OTHER, VALUE_FILE, VALUE_DIR, VALUE_PATH };
enum value_kind completion_value_kind(const char *arg);

/* Does cmd take option o?  The rule `diskbench help CMD` lists by: a
 * global option (bit 0), or one of the command's OPT_* bits. */
bool completion_applies(const struct cli_option *o, const struct command *cmd);

/* cmd's TAKES_* bits, with a row's 0 read as TAKES_DEFAULT. */
unsigned completion_targets(const struct command *cmd);

/* True when a script can be written for shell. */
bool completion_shell_known(const char *shell);

/* Writes shell's script to f (errors show in ferror(f)); -1, and nothing
 * written, for a shell not in completion_shells. */
int completion_write(FILE *f, const char *shell);

#endif
