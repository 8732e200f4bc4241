#include "finding.h"

#include <string.h>

struct finding *finding_add(struct result *r, const char *key)
{
	if (r->nfindings >= MAX_FINDINGS)
		return NULL;
	struct finding *f = &r->findings[r->nfindings++];
	f->key = key;
	f->nfigures = 0;
	return f;
}

void finding_carry(struct result *r, const struct finding *from, const char *name, double at)
{
	struct finding *f = finding_add(r, from->key);
	for (unsigned k = 0; f && k < from->nfigures; k++)
		finding_figure(f, from->figures[k].name, from->figures[k].value,
			       from->figures[k].decimals);
	finding_figure(f, name, at, 0);
}

void finding_figure(struct finding *f, const char *name, double value, int decimals)
{
	if (!f || f->nfigures >= FINDING_FIGURES)
		return;
	f->figures[f->nfigures++] = (struct finding_figure){ name, value, decimals };
}

double finding_value(const struct finding *f, const char *name, double fallback)
{
	for (unsigned k = 0; k < f->nfigures; k++)
		if (strcmp(f->figures[k].name, name) == 0)
			return f->figures[k].value;
	return fallback;
}

const struct finding *finding_find(const struct result *r, const char *key)
{
	for (unsigned i = 0; i < r->nfindings; i++)
		if (strcmp(r->findings[i].key, key) == 0)
			return &r->findings[i];
	return NULL;
}
