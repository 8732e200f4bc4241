/* A string-keyed hash table of unsigned values (open addressing, FNV-1a),
 * so that grouping and counting records stay linear in their number.  Keys
 * are byte strings (NUL allowed), copied in; strmap_key builds one key from
 * several strings so that no two lists of strings share a key.  A pure leaf
 * (libc only). */
#ifndef STRMAP_H
#define STRMAP_H

#include <stddef.h>
#include <stdint.h>

struct strmap_slot {
	char *key; /* NULL: empty */
	size_t len;
	uint64_t hash;
	unsigned value;
};

struct strmap {
	struct strmap_slot *slot;
	size_t cap, n;
};

void strmap_init(struct strmap *m);
void strmap_free(struct strmap *m);
/* The value stored under key: 1 with *value; 0 when none. */
int strmap_get(const struct strmap *m, const char *key, size_t len, unsigned *value);
/* The value under key, stored as init when key is new (*found 0) or the one
 * there (*found 1): its address, valid until the next strmap_at; NULL with
 * errno ENOMEM. */
unsigned *strmap_at(struct strmap *m, const char *key, size_t len, unsigned init, int *found);

/* A key of up to n strings (NULL taken as ""), each preceded by its length,
 * in a malloc'd buffer (*len bytes), or NULL with errno ENOMEM. */
char *strmap_key(const char *const *parts, unsigned n, size_t *len);

#endif
