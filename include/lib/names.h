/* One name table per option enum: the command line parses with it, the
 * outputs print with it, so a mode cannot have two spellings. */
#ifndef NAMES_H
#define NAMES_H

#include "diskbench.h"

const char *sync_mode_name(enum sync_mode m);
/* The open(2) flag that makes each write durable in mode m: O_DSYNC,
 * O_SYNC, or 0 (fsync at the end, none). */
int sync_open_flag(enum sync_mode m);
const char *drop_mode_name(enum drop_mode m);
const char *sweep_run_name(enum sweep_run m);
/* Each returns 0 and sets *out, or -1 when text is none of the names. */
int sync_mode_parse(const char *text, enum sync_mode *out);
int drop_mode_parse(const char *text, enum drop_mode *out);
int sweep_run_parse(const char *text, enum sweep_run *out);
const char *buffer_mode_name(enum buffer_mode m);
int buffer_mode_parse(const char *text, enum buffer_mode *out);
const char *reap_mode_name(enum reap_mode m);
int reap_mode_parse(const char *text, enum reap_mode *out);

#endif
