import { defineBankProfile } from "./profile.ts";

/** Non-interest (Islamic) banks: names and domains only, which their statements print as text. */
export const NON_INTEREST_BANKS = [
  defineBankProfile({ id: "jaiz", name: "Jaiz Bank", markers: [["Jaiz Bank"], ["jaizbankplc.com"]], sortCodes: ["301"] }),
  defineBankProfile({ id: "taj", name: "TAJBank", markers: [["TAJBank"], ["TAJ Bank"], ["tajbank.com"]] }),
  defineBankProfile({ id: "lotus", name: "Lotus Bank", markers: [["Lotus Bank"], ["lotusbank.com"]] }),
  defineBankProfile({ id: "altbank", name: "The Alternative Bank (AltBank)", markers: [["The Alternative Bank"], ["AltBank"]] }),
];
