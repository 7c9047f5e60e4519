import type { Metering } from "./types.ts";

/** Admits everything and records nothing: used until the database-backed metering is wired. */
export const unmetered: Metering = {
  admit: async () => ({ sample: false, succeeded: async () => {}, failed: async () => {} }),
};
