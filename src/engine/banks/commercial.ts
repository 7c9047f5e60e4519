import { defineBankProfile } from "./profile.ts";

/**
 * Commercial banks licensed by the CBN. Markers are what their statements print as text: the
 * bank's name, web domain and contact e-mail, distinctive labels and footer lines; sort-code
 * prefixes are the CBN bank codes. Heading sets are the column headings in print order, for
 * letterheads that carry the name only inside the logo image.
 */
export const COMMERCIAL_BANKS = [
  defineBankProfile({ id: "access", name: "Access Bank", formats: ["pdf", "xlsx"], markers: [["Access Bank"], ["accessbankplc.com"], ["*901#"]], sortCodes: ["044"] }),
  defineBankProfile({ id: "citibank", name: "Citibank Nigeria", markers: [["Citibank"], ["citi.com"], ["citibank.com"]], sortCodes: ["023"] }),
  defineBankProfile({ id: "ecobank", name: "Ecobank Nigeria", markers: [["Ecobank"], ["ecobank.com"], ["*326#"]], sortCodes: ["050"] }),
  defineBankProfile({ id: "fidelity", name: "Fidelity Bank", formats: ["pdf", "xlsx"], markers: [["Fidelity Bank"], ["fidelitybank.ng"], ["true.serve@fidelitybank.ng"], ["*770#"]], sortCodes: ["070"] }),
  defineBankProfile({
    id: "firstbank",
    name: "First Bank of Nigeria",
    markers: [["First Bank"], ["FirstBank"], ["FirstContact"], ["firstbanknigeria.com"], ["*894#"]],
    // Its statements print these in this order (the real sample in fixtures/real does).
    headings: [["Trans Date", "Ref. Number", "Value Date", "Withdrawal(DR)", "Deposit(CR)", "Balance"]],
    sortCodes: ["011"],
  }),
  defineBankProfile({ id: "fcmb", name: "First City Monument Bank", formats: ["pdf", "xlsx"], markers: [["First City Monument"], ["FCMB"], ["fcmb.com"], ["*329#"]], sortCodes: ["214"] }),
  defineBankProfile({ id: "globus", name: "Globus Bank", markers: [["Globus Bank"], ["globusbank.com"]], sortCodes: ["103"] }),
  defineBankProfile({
    id: "gtbank",
    name: "Guaranty Trust Bank",
    formats: ["pdf", "xlsx"],
    // The customer statement's letterhead is a logo: its label "Internal Reference" beside the
    // "Originating Branch" heading, or the heading set itself, still name it.
    markers: [["Guaranty Trust"], ["GTBank"], ["gtbank.com"], ["GTCO"], ["*737#"], ["Internal Reference", "Originating Branch"]],
    headings: [["Trans. Date", "Value Date", "Reference", "Debits", "Credits", "Balance", "Originating Branch", "Remarks"]],
    sortCodes: ["058"],
  }),
  defineBankProfile({ id: "keystone", name: "Keystone Bank", markers: [["Keystone Bank"], ["keystonebankng.com"]], sortCodes: ["082"] }),
  defineBankProfile({ id: "optimus", name: "Optimus Bank", markers: [["Optimus Bank"], ["optimusbank.com"]] }),
  defineBankProfile({ id: "parallex", name: "Parallex Bank", markers: [["Parallex Bank"], ["parallexbank.com"]], sortCodes: ["104"] }),
  defineBankProfile({ id: "polaris", name: "Polaris Bank", formats: ["pdf", "xlsx"], markers: [["Polaris Bank"], ["polarisbanklimited.com"], ["*833#"]], sortCodes: ["076"] }),
  defineBankProfile({ id: "premiumtrust", name: "PremiumTrust Bank", markers: [["PremiumTrust Bank"], ["Premium Trust Bank"], ["premiumtrustbank.com"]], sortCodes: ["105"] }),
  defineBankProfile({ id: "providus", name: "Providus Bank", markers: [["Providus"], ["providusbank.com"]], sortCodes: ["101"] }),
  defineBankProfile({ id: "signature", name: "Signature Bank", markers: [["Signature Bank"], ["signaturebankng.com"]], sortCodes: ["106"] }),
  defineBankProfile({
    id: "stanbic",
    name: "Stanbic IBTC Bank",
    markers: [["Stanbic"], ["stanbicibtc"], ["stanbicibtcbank.com"], ["*909#"], ["INFLOW VS OUTFLOW", "CREATE DATE"]],
    headings: [["POSTED DATE", "CREATE DATE", "NARRATION", "DEBIT", "CREDIT", "BALANCE"]],
    sortCodes: ["221"],
  }),
  defineBankProfile({ id: "standardchartered", name: "Standard Chartered Bank Nigeria", markers: [["Standard Chartered"], ["sc.com/ng"]], sortCodes: ["068"] }),
  defineBankProfile({ id: "sterling", name: "Sterling Bank", formats: ["pdf", "xlsx"], markers: [["Sterling Bank"], ["sterling.ng"], ["*822#"]], sortCodes: ["232"] }),
  defineBankProfile({ id: "suntrust", name: "SunTrust Bank Nigeria", markers: [["SunTrust Bank"], ["suntrustng.com"]], sortCodes: ["100"] }),
  defineBankProfile({ id: "titantrust", name: "Titan Trust Bank", markers: [["Titan Trust Bank"], ["titantrustbank.com"]], sortCodes: ["102"] }),
  defineBankProfile({
    id: "union",
    name: "Union Bank of Nigeria",
    markers: [["Union Bank"], ["unionbankng.com"], ["*826#"]],
    headings: [["POST DATE", "DESC", "DOC NO", "VALUE DATE", "DR", "CR", "BALANCE"]],
    sortCodes: ["032"],
  }),
  defineBankProfile({ id: "uba", name: "United Bank for Africa", formats: ["pdf", "xlsx"], markers: [["United Bank for Africa"], ["ubagroup.com"], ["UBA"], ["cfc@ubagroup.com"], ["*919#"]], sortCodes: ["033"] }),
  defineBankProfile({ id: "unity", name: "Unity Bank", markers: [["Unity Bank"], ["unitybankng.com"]], sortCodes: ["215"] }),
  defineBankProfile({ id: "wema", name: "Wema Bank", formats: ["pdf", "xlsx"], markers: [["Wema Bank"], ["ALAT"], ["wemabank.com"], ["alat.ng"], ["*945#"]], sortCodes: ["035"] }),
  defineBankProfile({
    id: "zenith",
    name: "Zenith Bank",
    formats: ["pdf", "xlsx"],
    markers: [["Zenith Bank"], ["zenithbank.com"], ["zenithdirect@zenithbank.com"], ["*966#"]],
    sortCodes: ["057"],
    quirks: { creditTotalIncludesOpening: true },
  }),
  defineBankProfile({ id: "alphamorgan", name: "AlphaMorgan Bank", markers: [["AlphaMorgan Bank"], ["Alpha Morgan Bank"], ["alphamorganbank.com"]] }),
];
