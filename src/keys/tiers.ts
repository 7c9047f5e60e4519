/** The key tiers (SPEC 2.1), in a module with no imports so wire shapes and the client can name them. */
export type KeyTier = "live" | "first_party" | "test";
