/* strmap.h: open addressing with linear probing, kept at most half full. */
#define _POSIX_C_SOURCE 200809L
#include "strmap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void strmap_init(struct strmap *m)
{
	memset(m, 0, sizeof(*m));
}

void strmap_free(struct strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->slot[i].key);
	free(m->slot);
	memset(m, 0, sizeof(*m));
}

static uint64_t fnv1a(const char *key, size_t len)
{
	uint64_t h = 14695981039346656037ull;
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)key[i];
		h *= 1099511628211ull;
	}
	return h;
}

/* The slot holding key, or the empty one where it would go. */
static struct strmap_slot *probe(const struct strmap *m, const char *key, size_t len, uint64_t h)
{
	size_t i = h & (m->cap - 1);
	for (;; i = (i + 1) & (m->cap - 1)) {
		struct strmap_slot *s = &m->slot[i];
		if (!s->key || (s->hash == h && s->len == len && memcmp(s->key, key, len) == 0))
			return s;
	}
}

static int grow(struct strmap *m)
{
	size_t cap = m->cap ? 2 * m->cap : 64;
	struct strmap old = *m;
	m->slot = calloc(cap, sizeof(*m->slot));
	if (!m->slot) {
		*m = old;
		errno = ENOMEM;
		return -1;
	}
	m->cap = cap;
	for (size_t i = 0; i < old.cap; i++)
		if (old.slot[i].key)
			*probe(m, old.slot[i].key, old.slot[i].len, old.slot[i].hash) = old.slot[i];
	free(old.slot);
	return 0;
}

int strmap_get(const struct strmap *m, const char *key, size_t len, unsigned *value)
{
	if (m->cap == 0)
		return 0;
	const struct strmap_slot *s = probe(m, key, len, fnv1a(key, len));
	if (!s->key)
		return 0;
	*value = s->value;
	return 1;
}

unsigned *strmap_at(struct strmap *m, const char *key, size_t len, unsigned init, int *found)
{
	if (2 * (m->n + 1) > m->cap && grow(m) != 0)
		return NULL;
	uint64_t h = fnv1a(key, len);
	struct strmap_slot *s = probe(m, key, len, h);
	*found = s->key != NULL;
	if (*found)
		return &s->value;
	s->key = malloc(len ? len : 1);
	if (!s->key) {
		errno = ENOMEM;
		return NULL;
	}
	memcpy(s->key, key, len);
	s->len = len;
	s->hash = h;
	s->value = init;
	m->n++;
	return &s->value;
}

char *strmap_key(const char *const *parts, unsigned n, size_t *len)
{
	size_t total = 0;
	for (unsigned i = 0; i < n; i++)
		total += 21 + (parts[i] ? strlen(parts[i]) : 0);
	char *key = malloc(total + 1);
	if (!key) {
		errno = ENOMEM;
		return NULL;
	}
	size_t used = 0;
	for (unsigned i = 0; i < n; i++) {
		const char *p = parts[i] ? parts[i] : "";
		size_t l = strlen(p);
		used += (size_t)snprintf(key + used, total + 1 - used, "%zu:", l);
		memcpy(key + used, p, l);
		used += l;
	}
	*len = used;
	return key;
}
