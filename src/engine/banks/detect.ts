import type { BankProfile } from "./profile.ts";
import { BANK_PROFILES } from "./profiles.ts";

export interface Detection {
  /** Profile of the detected bank, or null for `unknown`. */
  profile: BankProfile | null;
  /** 0..100: share of the best group's markers found, for the best-matching profile. */
  markerCoverage: number;
}

const normalise = (s: string) => s.toLowerCase().replace(/\s+/g, " ");

/**
 * A profile matches when every marker of one of its groups occurs in the text. Among matching
 * profiles the longest matched group wins (more evidence); none matching gives the generic fallback.
 */
export function detectBank(text: string, profiles: readonly BankProfile[] = BANK_PROFILES): Detection {
  const hay = normalise(text);
  let best: { profile: BankProfile; found: number; total: number } | null = null;
  let bestPartial = 0;
  for (const profile of profiles) {
    for (const group of profile.markers) {
      const found = group.filter((m) => hay.includes(normalise(m))).length;
      const share = found / group.length;
      if (found === group.length) {
        const evidence = group.join("").length;
        if (!best || evidence > best.found) best = { profile, found: evidence, total: group.length };
      } else {
        bestPartial = Math.max(bestPartial, share);
      }
    }
  }
  if (best) return { profile: best.profile, markerCoverage: 100 };
  return { profile: null, markerCoverage: Math.round(bestPartial * 100) };
}

export function profileById(id: string): BankProfile | undefined {
  return BANK_PROFILES.find((p) => p.id === id);
}
