import { defineBankProfile } from "./profile.ts";

/** Heritage Bank lost its licence in 2024; its customers still send its old statements. */
export const FORMER_BANKS = [defineBankProfile({ id: "heritage", name: "Heritage Bank", markers: [["Heritage Bank"], ["hbng.com"]], sortCodes: ["030"] })];
