import { defineBankProfile } from "./profile.ts";

/** Merchant banks: names and domains only. */
export const MERCHANT_BANKS = [
  defineBankProfile({ id: "coronation", name: "Coronation Merchant Bank", markers: [["Coronation Merchant Bank"], ["Coronation Bank"], ["coronationmb.com"]] }),
  defineBankProfile({ id: "fsdh", name: "FSDH Merchant Bank", markers: [["FSDH Merchant Bank"], ["FSDH"]] }),
  defineBankProfile({ id: "nova", name: "Nova Bank", markers: [["Nova Merchant Bank"], ["Nova Commercial Bank"], ["Nova Bank"]] }),
  defineBankProfile({ id: "rand", name: "Rand Merchant Bank Nigeria", markers: [["Rand Merchant Bank"], ["rmb.com.ng"]] }),
  defineBankProfile({ id: "greenwich", name: "Greenwich Merchant Bank", markers: [["Greenwich Merchant Bank"]] }),
  defineBankProfile({ id: "fbnquest", name: "FBNQuest Merchant Bank", markers: [["FBNQuest"], ["fbnquest.com"]] }),
];
