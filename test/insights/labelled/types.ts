import type { Category } from "../../../src/engine/insights/types.ts";

/** A hand-labelled narration: [direction ("D" a debit, "C" a credit), narration, the category it should get]. */
export type Labelled = ["D" | "C", string, Category];
