import type { Admission, Metering } from "./types.ts";

/** An admission that records nothing: a parse whose metering is settled elsewhere, or not at all. */
export const unmeteredAdmission: Admission = { sample: false, succeeded: async () => {}, failed: async () => {} };

/** Admits everything and records nothing: used until the database-backed metering is wired. */
export const unmetered: Metering = {
  admit: async () => unmeteredAdmission,
  resume: () => unmeteredAdmission,
};
