/* The findings a run's result carries (struct finding, diskbench.h): what a
 * check found, by key, with the figures that prove it.  Every check adds
 * its own through these; the renderers read them back. */
#ifndef FINDING_H
#define FINDING_H

#include "diskbench.h"

/* A finding with key in r (NULL when r holds MAX_FINDINGS already), and a
 * figure added to it. */
struct finding *finding_add(struct result *r, const char *key);
void finding_figure(struct finding *f, const char *name, double value, int decimals);
/* A part's finding (a step's, a round's) copied into the whole run's r,
 * with its figures and one more, name = at, saying which part it came from. */
void finding_carry(struct result *r, const struct finding *from, const char *name, double at);
/* The figure called name in f, or fallback when f has none. */
double finding_value(const struct finding *f, const char *name, double fallback);
/* The finding called key in r, or NULL. */
const struct finding *finding_find(const struct result *r, const char *key);

#endif
