import { defineBankProfile } from "./profile.ts";

/**
 * Every supported bank. Markers are strings printed on their statements (names, web domains,
 * contact lines, distinctive header words); one complete group is enough to detect the bank.
 */
export const BANK_PROFILES = [
  defineBankProfile({ id: "gtbank", name: "Guaranty Trust Bank", formats: ["pdf", "xlsx"], markers: [["Guaranty Trust"], ["GTBank"], ["gtbank.com"], ["GTCO"]] }),
  defineBankProfile({ id: "access", name: "Access Bank", formats: ["pdf", "xlsx"], markers: [["Access Bank"], ["accessbankplc.com"]] }),
  defineBankProfile({ id: "zenith", name: "Zenith Bank", formats: ["pdf", "xlsx"], markers: [["Zenith Bank"], ["zenithbank.com"]], quirks: { creditTotalIncludesOpening: true } }),
  defineBankProfile({ id: "firstbank", name: "First Bank of Nigeria", formats: ["pdf"], markers: [["First Bank"], ["FirstBank"], ["FirstContact"], ["firstbanknigeria.com"]] }),
  defineBankProfile({ id: "uba", name: "United Bank for Africa", formats: ["pdf", "xlsx"], markers: [["United Bank for Africa"], ["ubagroup.com"], ["UBA Plc"]] }),
  defineBankProfile({ id: "kuda", name: "Kuda Microfinance Bank", formats: ["pdf"], markers: [["Kuda"], ["kuda.com"]] }),
  defineBankProfile({ id: "opay", name: "OPay", formats: ["pdf", "xlsx"], markers: [["OPay"], ["Wallet Account", "Balance After", "Channel"], ["Wallet Account Statement"]] }),
  defineBankProfile({ id: "moniepoint", name: "Moniepoint Microfinance Bank", formats: ["pdf"], markers: [["Moniepoint"]] }),
  defineBankProfile({ id: "palmpay", name: "PalmPay", formats: ["pdf"], markers: [["PalmPay"], ["Money In (NGN)", "Money Out (NGN)", "Transaction Detail"]] }),
  defineBankProfile({ id: "stanbic", name: "Stanbic IBTC Bank", formats: ["pdf"], markers: [["Stanbic"], ["stanbicibtc"]] }),
  defineBankProfile({ id: "fidelity", name: "Fidelity Bank", formats: ["pdf"], markers: [["Fidelity Bank"], ["fidelitybank.ng"]] }),
  defineBankProfile({ id: "fcmb", name: "First City Monument Bank", formats: ["pdf"], markers: [["First City Monument"], ["FCMB"]] }),
  defineBankProfile({ id: "sterling", name: "Sterling Bank", formats: ["pdf"], markers: [["Sterling Bank"], ["sterling.ng"]] }),
  defineBankProfile({ id: "wema", name: "Wema Bank", formats: ["pdf"], markers: [["Wema Bank"], ["ALAT"], ["wemabank.com"]] }),
  defineBankProfile({ id: "union", name: "Union Bank of Nigeria", formats: ["pdf"], markers: [["Union Bank"], ["unionbankng.com"]] }),
  defineBankProfile({ id: "ecobank", name: "Ecobank Nigeria", formats: ["pdf"], markers: [["Ecobank"]] }),
  defineBankProfile({ id: "polaris", name: "Polaris Bank", formats: ["pdf"], markers: [["Polaris Bank"], ["polarisbanklimited.com"]] }),
  defineBankProfile({ id: "providus", name: "Providus Bank", formats: ["pdf"], markers: [["Providus"]] }),
  defineBankProfile({ id: "heritage", name: "Heritage Bank", formats: ["pdf"], markers: [["Heritage Bank"], ["hbng.com"]] }),
  defineBankProfile({ id: "keystone", name: "Keystone Bank", formats: ["pdf"], markers: [["Keystone Bank"], ["keystonebankng.com"]] }),
];
