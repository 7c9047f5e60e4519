import { randomBase62 } from "./keys/base62.ts";

/**
 * Every identifier the service hands out carries a short prefix naming what it is, from this one
 * map, so an id pasted into a support ticket (or into the wrong endpoint) is recognisable at a
 * glance and rejected by shape before any database lookup.
 */
export const ID_PREFIXES = {
  apiKey: "key",
  job: "job",
  request: "req",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

/** 22 base62 characters: about 131 random bits, unguessable enough for capabilities (job ids). */
const ID_RANDOM_CHARS = 22;

export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${randomBase62(ID_RANDOM_CHARS)}`;
}

/** Shape check for an id of the given kind (used by route param schemas). */
export function idPattern(kind: IdKind): RegExp {
  return new RegExp(`^${ID_PREFIXES[kind]}_[0-9A-Za-z]{${ID_RANDOM_CHARS}}$`);
}
