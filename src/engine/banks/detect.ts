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
 * profiles the one seen first wins (the letterhead comes before narrations that name other banks),
 * then the longer group; none matching gives the generic fallback.
 */
export function detectBank(text: string, profiles: readonly BankProfile[] = BANK_PROFILES): Detection {
  const hay = normalise(text);
  let best: { profile: BankProfile; at: number; evidence: number } | null = null;
  let bestPartial = 0;
  for (const profile of profiles) {
    for (const group of profile.markers) {
      const positions = group.map((m) => hay.indexOf(normalise(m)));
      const found = positions.filter((p) => p >= 0).length;
      if (found === group.length) {
        // A group is seen once all its markers are: at its last marker's first occurrence.
        const at = Math.max(...positions);
        const evidence = group.join("").length;
        if (!best || at < best.at || (at === best.at && evidence > best.evidence)) best = { profile, at, evidence };
      } else {
        bestPartial = Math.max(bestPartial, found / group.length);
      }
    }
  }
  if (best) return { profile: best.profile, markerCoverage: 100 };
  return { profile: null, markerCoverage: Math.round(bestPartial * 100) };
}

export function profileById(id: string): BankProfile | undefined {
  return BANK_PROFILES.find((p) => p.id === id);
}
