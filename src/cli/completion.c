/* Shell completion scripts, written from the command and option tables at
 * run time.  Each script is a fixed part (how the shell finds the test on
 * the line and what the word under the cursor is) and a generated part:
 * small functions that answer from the tables (a test's options, an
 * option's values, what a test's TARGET may be).  The fixed parts are in
 * the shells' own syntax below, so they read as scripts. */
#include "completion.h"

#include <string.h>

#include "diskbench.h"

const char completion_shells[] = "bash, zsh";

/* The words the first positional word may be besides a test. */
#define HELP_SUMMARY "show a test's options"
#define COMPLETION_SUMMARY "print a completion script for bash or zsh"

/* ---- the pure parts --------------------------------------------------------- */

/* Is word in arg, and not inside a longer run of capitals ("PROFILE")? */
static bool has_word(const char *arg, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = strstr(arg, word); p; p = strstr(p + 1, word)) {
		bool starts = p == arg || !(p[-1] >= 'A' && p[-1] <= 'Z');
		bool ends = !(p[n] >= 'A' && p[n] <= 'Z');
		if (starts && ends)
			return true;
	}
	return false;
}

enum value_kind completion_value_kind(const char *arg)
{
	if (!arg)
		return VALUE_OTHER;
	if (has_word(arg, "FILE"))
		return VALUE_FILE;
	if (has_word(arg, "DIR"))
		return VALUE_DIR;
	if (has_word(arg, "PATH"))
		return VALUE_PATH;
	return VALUE_OTHER;
}

bool completion_applies(const struct cli_option *o, const struct command *cmd)
{
	return o->bit == 0 || (cmd && (cmd->options & o->bit));
}

unsigned completion_targets(const struct command *cmd)
{
	return cmd->targets ? cmd->targets : TAKES_DEFAULT;
}

/* ---- shared by both writers ------------------------------------------------- */

static void put_shell_names(FILE *f);

/* s for inside a single-quoted string of either shell ('\'' for a quote);
 * with open_close, the quotes around it too. */
static void put_quoted(FILE *f, const char *s, bool open_close)
{
	if (open_close)
		fputc('\'', f);
	for (; *s; s++)
		*s == '\'' ? fputs("'\\''", f) : fputc(*s, f);
	if (open_close)
		fputc('\'', f);
}

/* "d", "f", "b" or "a" for each kind of path the TAKES_* bits allow. */
static const char *kind_letters(unsigned takes, char *buf)
{
	char *p = buf;
	if (takes & TAKES_ANY_PATH)
		*p++ = 'a';
	if (takes & TAKES_DIR)
		*p++ = 'd';
	if (takes & TAKES_FILE)
		*p++ = 'f';
	if (takes & TAKES_DEVICE)
		*p++ = 'b';
	*p = '\0';
	return buf;
}

static const char *value_letters(enum value_kind k)
{
	return k == VALUE_FILE ? "f" : k == VALUE_DIR ? "d" : "a";
}

/* A case pattern naming both forms of an option: '-b' | '--bs'. */
static void put_pattern(FILE *f, const struct cli_option *o)
{
	if (o->letter)
		fprintf(f, "'-%c' | ", o->letter);
	fprintf(f, "'--%s'", o->name);
}

/* A case statement on the test in $1: an arm per command, then the default
 * one (no test, or one this diskbench does not know), whose body gets a
 * NULL command; body writes from after the pattern's ")" to its ";;". */
static void put_test_case(FILE *f, void (*body)(FILE *f, const struct command *cmd))
{
	fputs("\tcase $1 in\n", f);
	for (unsigned i = 0; i <= command_count; i++) {
		const struct command *cmd = i < command_count ? &commands[i] : NULL;
		fputc('\t', f);
		if (cmd)
			put_quoted(f, cmd->name, true);
		else
			fputc('*', f);
		fputc(')', f);
		body(f, cmd);
	}
	fputs("\tesac\n", f);
}

/* The case arm true for every option that takes a value: its next word
 * is that value unless it came as --OPTION=VALUE. */
static void put_value_options_arm(FILE *f)
{
	struct cli_option o;
	fputs("\t", f);
	for (size_t i = 0, n = 0; cli_option_at(i, &o); i++) {
		if (!o.arg)
			continue;
		fputs(n++ ? " | " : "", f);
		put_pattern(f, &o);
	}
	fputs(") return 0 ;;\n", f);
}

/* An option's closed set of values, separated by spaces. */
static void put_closed_set(FILE *f, const char *name)
{
	for (size_t k = 0; cli_option_value(name, k); k++) {
		fputs(k ? " " : "", f);
		put_quoted(f, cli_option_value(name, k), false);
	}
}

/* The case arms giving each option with a closed set its values, and
 * each option with a path value its kind ("@f", "@d", "@a"). */
static void put_values_arms(FILE *f)
{
	struct cli_option o;
	for (size_t i = 0; cli_option_at(i, &o); i++) {
		enum value_kind kind = completion_value_kind(o.arg);
		if (!o.arg || (kind == VALUE_OTHER && !cli_option_value(o.name, 0)))
			continue;
		fputc('\t', f);
		put_pattern(f, &o);
		fputs(") REPLY='", f);
		if (kind != VALUE_OTHER)
			fprintf(f, "@%s", value_letters(kind));
		else
			put_closed_set(f, o.name);
		fputs("' ;;\n", f);
	}
}

/* What a test's TARGET words may be, as a case arm's body. */
static void put_targets_body(FILE *f, const struct command *cmd)
{
	char letters[8];
	unsigned takes = cmd ? completion_targets(cmd) : TAKES_DEFAULT;
	fprintf(f, " REPLY=%s ;;\n", kind_letters(takes, letters));
}

/* The header both scripts begin with: whence it comes, so nobody edits it. */
static void put_header(FILE *f, const char *shell)
{
	fprintf(f, "# %s completion for diskbench(1), written by `diskbench completion %s`\n"
		"# (diskbench %s) from its own tables of tests and options: write it\n"
		"# again after an upgrade rather than edit it.\n\n", shell, shell, DISKBENCH_VERSION);
}

/* How both shells read the words before the cursor, in the syntax both
 * accept: the scripts differ only in how they get the words. */
static const char common_fixed[] =
	"# _diskbench_scan WORD...: reads the words before the cursor into the\n"
	"# caller's pos (the positional words: TEST, TARGET...), want (the option\n"
	"# whose value the next word is) and ended (-- was seen).\n"
	"_diskbench_scan() {\n"
	"\tlocal w\n"
	"\tfor w in \"$@\"; do\n"
	"\t\tif [[ -n $want ]]; then\n"
	"\t\t\t# with = in bash's COMP_WORDBREAKS, --OPTION=VALUE is three words\n"
	"\t\t\t[[ $w == '=' ]] || want=\n"
	"\t\t\tcontinue\n"
	"\t\tfi\n"
	"\t\tif [[ -z $ended && $w == -?* ]]; then\n"
	"\t\t\tif [[ $w == -- ]]; then\n"
	"\t\t\t\tended=1\n"
	"\t\t\telif _diskbench_takes_value \"$w\"; then\n"
	"\t\t\t\twant=$w\n"
	"\t\t\tfi\n"
	"\t\t\tcontinue\n"
	"\t\tfi\n"
	"\t\tpos+=(\"$w\")\n"
	"\tdone\n"
	"}\n";

/* The functions both shells share, in the syntax both accept. */
/* fit's first word: a profile the binary being completed finds (its own
 * fit --list, so an installed and a built diskbench each offer theirs) or
 * a job file. */
static const char profiles_fixed[] =
	"# _diskbench_profiles DISKBENCH: the profiles its fit runs (REPLY): the\n"
	"# first word of each fit --list line and the alias in parentheses after it.\n"
	"_diskbench_profiles() {\n"
	"\tREPLY=$(command \"$1\" fit --list 2>/dev/null |\n"
	"\t\tawk '{ print $1; if ($2 ~ /^\\(.*\\)$/) print substr($2, 2, length($2) - 2) }')\n"
	"\tREPLY=${REPLY//$'\\n'/ }\n"
	"}\n\n";

static void put_common(FILE *f)
{
	fputs("# _diskbench_takes_value OPTION: true when OPTION takes a value, the\n"
	      "# next word unless it came as --OPTION=VALUE.\n"
	      "_diskbench_takes_value() {\n\tcase $1 in\n", f);
	put_value_options_arm(f);
	fputs("\tesac\n\treturn 1\n}\n\n"
	      "# _diskbench_targets TEST: the kinds of path its TARGET words may be\n"
	      "# (REPLY), for _diskbench_paths.\n"
	      "_diskbench_targets() {\n", f);
	put_test_case(f, put_targets_body);
	fputs("}\n\n"
	      "# _diskbench_values OPTION: what its value may be (REPLY): the words of a\n"
	      "# closed set, or @ and the kinds of path; nothing: anything.\n"
	      "_diskbench_values() {\n\tREPLY=\n\tcase $1 in\n", f);
	put_values_arms(f);
	fputs("\tesac\n}\n\n", f);
	fputs(profiles_fixed, f);
	fputs(common_fixed, f);
	fputc('\n', f);
}

/* ---- bash ------------------------------------------------------------------- */

static const char bash_fixed[] =
	"# _diskbench_paths KINDS WORD: adds to COMPREPLY the paths that begin with\n"
	"# WORD and are of a kind in KINDS: a (any), f (a regular file), b (a block\n"
	"# device, as /dev/sd*, /dev/nvme*, /dev/mapper/*); directories always, to\n"
	"# go down into.\n"
	"_diskbench_paths() {\n"
	"\tlocal p t\n"
	"\tlocal -a found\n"
	"\tmapfile -t found < <(compgen -f -- \"$2\")\n"
	"\tfor p in \"${found[@]}\"; do\n"
	"\t\tt=$p\n"
	"\t\t[[ $t == '~/'* ]] && t=$HOME${t:1}\n"
	"\t\tif [[ $1 == *a* || -d $t || ($1 == *f* && -f $t) || ($1 == *b* && -b $t) ]]; then\n"
	"\t\t\tCOMPREPLY+=(\"$p\")\n"
	"\t\tfi\n"
	"\tdone\n"
	"\tcompopt -o filenames 2>/dev/null\n"
	"\treturn 0\n"
	"}\n"
	"\n"
	"# _diskbench_words WORDS WORD: adds to COMPREPLY the words of WORDS that\n"
	"# begin with WORD (compgen -W without a subshell to read it from).\n"
	"_diskbench_words() {\n"
	"\tlocal w\n"
	"\tlocal -a all\n"
	"\tread -r -a all <<<\"$1\"\n"
	"\tfor w in \"${all[@]}\"; do\n"
	"\t\t[[ $w == \"$2\"* ]] && COMPREPLY+=(\"$w\")\n"
	"\tdone\n"
	"\treturn 0\n"
	"}\n"
	"\n"
	"# _diskbench_value OPTION WORD [PREFIX]: completes WORD as a value of\n"
	"# OPTION, PREFIX before each reply (--OPTION= when the shell left it in\n"
	"# the word).\n"
	"_diskbench_value() {\n"
	"\tlocal REPLY\n"
	"\t_diskbench_values \"$1\"\n"
	"\tif [[ $REPLY == @* ]]; then\n"
	"\t\t_diskbench_paths \"${REPLY#@}\" \"$2\"\n"
	"\telse\n"
	"\t\t_diskbench_words \"$REPLY\" \"$2\"\n"
	"\tfi\n"
	"\t[[ -n ${3-} ]] && COMPREPLY=(\"${COMPREPLY[@]/#/$3}\")\n"
	"\treturn 0\n"
	"}\n"
	"\n"
	"# diskbench's words: options (anywhere before --), then TEST and its\n"
	"# TARGET words, or help TEST, or completion SHELL.\n"
	"_diskbench() {\n"
	"\tlocal cur=${COMP_WORDS[COMP_CWORD]} want= ended= test REPLY\n"
	"\tlocal -a pos=()\n"
	"\tCOMPREPLY=()\n"
	"\t_diskbench_scan \"${COMP_WORDS[@]:1:COMP_CWORD-1}\"\n"
	"\tif [[ -n $want ]]; then\n"
	"\t\t[[ $cur == = ]] && cur=\n"
	"\t\t_diskbench_value \"$want\" \"$cur\"\n"
	"\t\treturn 0\n"
	"\tfi\n"
	"\tif [[ -z $ended && $cur == --*=* ]]; then\n"
	"\t\t_diskbench_value \"${cur%%=*}\" \"${cur#*=}\" \"${cur%%=*}=\"\n"
	"\t\treturn 0\n"
	"\tfi\n"
	"\ttest=${pos[0]-}\n"
	"\t[[ $test == help ]] && test=${pos[1]-}\n"
	"\tif [[ -z $ended && $cur == -* ]]; then\n"
	"\t\t_diskbench_opts \"$test\"\n"
	"\t\t_diskbench_words \"$REPLY\" \"$cur\"\n"
	"\t\t[[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null\n"
	"\t\treturn 0\n"
	"\tfi\n"
	"\tcase ${#pos[@]}:${pos[0]-} in\n"
	"\t0:*) _diskbench_tests; REPLY+=' help completion' ;;\n"
	"\t1:help) _diskbench_tests ;;\n"
	"\t1:completion) _diskbench_shells ;;\n"
	"\t1:steady | 1:sla) REPLY='randread randwrite seqread seqwrite' ;;\n"
	"\t1:fit)\n"
	"\t\t_diskbench_profiles \"${COMP_WORDS[0]}\"\n"
	"\t\t_diskbench_words \"$REPLY\" \"$cur\"\n"
	"\t\t_diskbench_paths f \"$cur\"\n"
	"\t\treturn 0\n"
	"\t\t;;\n"
	"\t*:help | *:completion) REPLY= ;;\n"
	"\t*)\n"
	"\t\t_diskbench_targets \"$test\"\n"
	"\t\t_diskbench_paths \"$REPLY\" \"$cur\"\n"
	"\t\treturn 0\n"
	"\t\t;;\n"
	"\tesac\n"
	"\t_diskbench_words \"$REPLY\" \"$cur\"\n"
	"\treturn 0\n"
	"}\n"
	"\n"
	"complete -F _diskbench diskbench\n";

/* A test's options as words to complete (-b, --bs= for one taking a
 * value), as a case arm's body; no test: the global ones. */
static void put_bash_words(FILE *f, const struct command *cmd)
{
	struct cli_option o;
	fputs(" REPLY='", f);
	for (size_t i = 0, n = 0; cli_option_at(i, &o); i++) {
		if (!completion_applies(&o, cmd))
			continue;
		if (o.letter)
			fprintf(f, "%s-%c", n++ ? " " : "", o.letter);
		fprintf(f, "%s--%s%s", n++ ? " " : "", o.name, o.arg ? "=" : "");
	}
	fputs("' ;;\n", f);
}

static void write_bash(FILE *f)
{
	put_header(f, "bash");
	fputs("# The tests: the first word, with help and completion.\n_diskbench_tests() { REPLY='", f);
	for (unsigned i = 0; i < command_count; i++) {
		fputs(i ? " " : "", f);
		put_quoted(f, commands[i].name, false);
	}
	fputs("'; }\n_diskbench_shells() { REPLY='", f);
	put_shell_names(f);
	fputs("'; }\n\n# _diskbench_opts TEST: the options TEST takes (REPLY), as `diskbench help\n"
	      "# TEST` lists them; no TEST: the global ones.\n_diskbench_opts() {\n", f);
	put_test_case(f, put_bash_words);
	fputs("}\n\n", f);
	put_common(f);
	fputs(bash_fixed, f);
}

/* ---- zsh -------------------------------------------------------------------- */

static const char zsh_fixed[] =
	"# _diskbench_paths KINDS: completes paths of a kind in KINDS: a (any), f (a\n"
	"# regular file), b (a block device, as /dev/sd*, /dev/nvme*, /dev/mapper/*);\n"
	"# directories always, to go down into.  _path_files, as _files would offer\n"
	"# every file where none is of these kinds.\n"
	"_diskbench_paths() {\n"
	"\tcase $1 in\n"
	"\t*a*) _files ;;\n"
	"\t*f*b*) _path_files -g '*(-.,-%b,-/)' ;;\n"
	"\t*f*) _path_files -g '*(-.,-/)' ;;\n"
	"\t*b*) _path_files -g '*(-%b,-/)' ;;\n"
	"\t*) _path_files -/ ;;\n"
	"\tesac\n"
	"}\n"
	"\n"
	"# _diskbench_value OPTION: completes the word as a value of OPTION: a word\n"
	"# of its closed set, a path, or only a message saying what it is.\n"
	"_diskbench_value() {\n"
	"\tlocal REPLY\n"
	"\tlocal -a values\n"
	"\t_diskbench_values \"$1\"\n"
	"\tif [[ $REPLY == @* ]]; then\n"
	"\t\t_diskbench_paths \"${REPLY#@}\"\n"
	"\telif [[ -n $REPLY ]]; then\n"
	"\t\tvalues=(${=REPLY})\n"
	"\t\t_describe -t values \"value of $1\" values\n"
	"\telse\n"
	"\t\t_diskbench_message \"$1\"\n"
	"\t\t_message -e values \"$REPLY\"\n"
	"\tfi\n"
	"}\n"
	"\n"
	"# diskbench's words: options (anywhere before --), then TEST and its\n"
	"# TARGET words, or help TEST, or completion SHELL.\n"
	"_diskbench() {\n"
	"\tlocal w want= ended= test REPLY\n"
	"\tlocal -a pos flags valued\n"
	"\t_diskbench_scan \"${(@)words[2,CURRENT-1]}\"\n"
	"\tif [[ -n $want ]]; then\n"
	"\t\t_diskbench_value \"$want\"\n"
	"\t\treturn\n"
	"\tfi\n"
	"\tif [[ -z $ended && $PREFIX == --*=* ]]; then\n"
	"\t\tw=${PREFIX%%=*}\n"
	"\t\tcompset -P '*='\n"
	"\t\t_diskbench_value \"$w\"\n"
	"\t\treturn\n"
	"\tfi\n"
	"\ttest=${pos[1]}\n"
	"\t[[ $test == help ]] && test=${pos[2]}\n"
	"\tif [[ -z $ended && $PREFIX == -* ]]; then\n"
	"\t\t_diskbench_opts \"$test\"\n"
	"\t\t_describe -o -t options option flags -- valued -qS=\n"
	"\t\treturn\n"
	"\tfi\n"
	"\tcase ${#pos}:${pos[1]} in\n"
	"\t0:*) _diskbench_tests all ;;\n"
	"\t1:help) _diskbench_tests ;;\n"
	"\t1:completion) _diskbench_shells ;;\n"
	"\t1:steady | 1:sla) compadd randread randwrite seqread seqwrite ;;\n"
	"\t1:fit)\n"
	"\t\t_diskbench_profiles \"${words[1]}\"\n"
	"\t\tcompadd -- ${=REPLY}\n"
	"\t\t_diskbench_paths f\n"
	"\t\t;;\n"
	"\t*:help | *:completion) return 1 ;;\n"
	"\t*)\n"
	"\t\t_diskbench_targets \"$test\"\n"
	"\t\t_diskbench_paths \"$REPLY\"\n"
	"\t\t;;\n"
	"\tesac\n"
	"}\n"
	"\n"
	"if [[ $funcstack[1] == _diskbench ]]; then\n"
	"\t_diskbench \"$@\"\t# autoloaded from $fpath: complete\n"
	"else\n"
	"\tcompdef _diskbench diskbench\t# sourced: register\n"
	"fi\n";

/* One form of an option for _describe: '--bs:block size of each I/O'. */
static void put_option_entry(FILE *f, const struct cli_option *o, bool short_form)
{
	if (short_form)
		fprintf(f, "\t\t\t'-%c:", o->letter);
	else
		fprintf(f, "\t\t\t'--%s:", o->name);
	put_quoted(f, o->help, false);
	fputs("'\n", f);
}

/* cmd's options in two arrays, as a case arm's body: flags (and short
 * forms, whose value is the next word) and the long forms that take a
 * value (completed with =). */
static void put_zsh_options(FILE *f, const struct command *cmd)
{
	struct cli_option o;
	fputs("\n\t\tflags=(\n", f);
	for (size_t i = 0; cli_option_at(i, &o); i++) {
		if (!completion_applies(&o, cmd))
			continue;
		if (o.letter)
			put_option_entry(f, &o, true);
		if (!o.arg)
			put_option_entry(f, &o, false);
	}
	fputs("\t\t)\n\t\tvalued=(\n", f);
	for (size_t i = 0; cli_option_at(i, &o); i++)
		if (o.arg && completion_applies(&o, cmd))
			put_option_entry(f, &o, false);
	fputs("\t\t)\n\t\t;;\n", f);
}

/* The case arms giving each option that takes a value what to say of it
 * when nothing can be offered: 'SIZE: block size of each I/O'. */
static void put_message_arms(FILE *f)
{
	struct cli_option o;
	for (size_t i = 0; cli_option_at(i, &o); i++) {
		if (!o.arg)
			continue;
		fputc('\t', f);
		put_pattern(f, &o);
		fputs(") REPLY='", f);
		put_quoted(f, o.arg, false);
		fputs(": ", f);
		put_quoted(f, o.help, false);
		fputs("' ;;\n", f);
	}
}

/* One entry for _describe: 'name:what it is'. */
static void put_described(FILE *f, const char *name, const char *summary)
{
	fputs("\t\t'", f);
	put_quoted(f, name, false);
	fputc(':', f);
	put_quoted(f, summary, false);
	fputs("'\n", f);
}

static void write_zsh(FILE *f)
{
	fputs("#compdef diskbench\n", f);
	put_header(f, "zsh");
	fputs("# _diskbench_tests [all]: the tests; with all, help and completion too\n"
	      "_diskbench_tests() {\n\tlocal -a tests\n\ttests=(\n", f);
	for (unsigned i = 0; i < command_count; i++)
		put_described(f, commands[i].name, commands[i].summary);
	fputs("\t)\n\t[[ $1 == all ]] && tests+=(\n", f);
	put_described(f, "help", HELP_SUMMARY);
	put_described(f, "completion", COMPLETION_SUMMARY);
	fputs("\t)\n\t_describe -t tests test tests\n}\n\n"
	      "_diskbench_shells() {\n\tlocal -a shells\n\tshells=(", f);
	put_shell_names(f);
	fputs(")\n\t_describe -t shells shell shells\n}\n\n"
	      "# _diskbench_opts TEST: the options TEST takes (flags, valued), as\n"
	      "# `diskbench help TEST` lists them; no TEST: the global ones.\n"
	      "_diskbench_opts() {\n", f);
	put_test_case(f, put_zsh_options);
	fputs("}\n\n"
	      "# _diskbench_message OPTION: what its value is (REPLY), when there is\n"
	      "# nothing to offer.\n"
	      "_diskbench_message() {\n\tREPLY=value\n\tcase $1 in\n", f);
	put_message_arms(f);
	fputs("\tesac\n}\n\n", f);
	put_common(f);
	fputs(zsh_fixed, f);
}

/* ---- the shells ------------------------------------------------------------- */

static const struct shell {
	const char *name;
	void (*write)(FILE *f);
} shells[] = { { "bash", write_bash }, { "zsh", write_zsh } };
#define NSHELLS (sizeof(shells) / sizeof(shells[0]))

/* The shells' names, separated by spaces, for a script's own list. */
static void put_shell_names(FILE *f)
{
	for (size_t i = 0; i < NSHELLS; i++)
		fprintf(f, "%s%s", i ? " " : "", shells[i].name);
}

static const struct shell *find_shell(const char *name)
{
	for (size_t i = 0; i < NSHELLS; i++)
		if (strcmp(shells[i].name, name) == 0)
			return &shells[i];
	return NULL;
}

bool completion_shell_known(const char *shell)
{
	return find_shell(shell) != NULL;
}

int completion_write(FILE *f, const char *shell)
{
	const struct shell *s = find_shell(shell);
	if (!s)
		return -1;
	s->write(f);
	return 0;
}
