import { defineBankProfile } from "./profile.ts";

/**
 * Digital banks, microfinance banks, wallets and payment service banks whose app statements users
 * send. Several print their name only in the logo, so their distinctive labels and headings count.
 */
export const DIGITAL_BANKS = [
  defineBankProfile({ id: "kuda", name: "Kuda Microfinance Bank", formats: ["pdf", "xlsx"], markers: [["Kuda"], ["kuda.com"], ["help@kuda.com"]] }),
  defineBankProfile({
    id: "opay",
    name: "OPay",
    formats: ["pdf", "xlsx"],
    markers: [["OPay"], ["opayweb.com"], ["Wallet Account", "Balance After", "Channel"], ["Wallet Account Statement"]],
    headings: [["Trans. Time", "Value Date", "Description", "Debit", "Credit", "Balance After", "Channel", "Transaction Reference"]],
  }),
  defineBankProfile({
    id: "palmpay",
    name: "PalmPay",
    markers: [["PalmPay"], ["palmpay.com"], ["Money In (NGN)", "Money Out (NGN)", "Transaction Detail"]],
    headings: [["Transaction Date", "Transaction Detail", "Money In", "Money Out", "Transaction ID"]],
  }),
  defineBankProfile({
    id: "moniepoint",
    name: "Moniepoint Microfinance Bank",
    formats: ["pdf", "xlsx"],
    markers: [["Moniepoint"], ["moniepoint.com"], ["*5573#"]],
    // The app's wide PDF and detailed XLSX print the logo only; these 19 headings (the XLSX adds
    // "(NGN)" to the figures' and spreads them over 23 merged cells) are what names the bank.
    headings: [
      [
        "Date",
        "Account Name",
        "Transaction Type",
        "Transaction Status",
        "Terminal ID",
        "RRN",
        "Transaction Ref",
        "Reversal Status",
        "Transaction Amount",
        "Settlement Debit",
        "Settlement Credit",
        "Balance Before",
        "Balance After",
        "Charge",
        "Beneficiary",
        "Beneficiary Institution",
        "Source",
        "Source Institution",
        "Narration",
      ],
    ],
  }),
  defineBankProfile({ id: "carbon", name: "Carbon Microfinance Bank", markers: [["Carbon Microfinance Bank"], ["getcarbon.co"]] }),
  defineBankProfile({ id: "fairmoney", name: "FairMoney Microfinance Bank", markers: [["FairMoney"], ["fairmoney.ng"]] }),
  defineBankProfile({ id: "vfd", name: "VFD Microfinance Bank", markers: [["VFD Microfinance Bank"], ["VFD MFB"], ["vbank.ng"]] }),
  defineBankProfile({ id: "rubies", name: "Rubies Microfinance Bank", markers: [["Rubies Microfinance Bank"], ["Rubies MFB"], ["rubies.ng"]] }),
  defineBankProfile({ id: "sparkle", name: "Sparkle Microfinance Bank", markers: [["Sparkle Microfinance Bank"], ["sparkle.ng"]] }),
  defineBankProfile({ id: "mintyn", name: "Mintyn", markers: [["Mintyn"], ["mintyn.com"]] }),
  defineBankProfile({ id: "gomoney", name: "gomoney", markers: [["gomoney"], ["gomoney.global"]] }),
  defineBankProfile({ id: "paga", name: "Paga", markers: [["Paga"], ["mypaga.com"]] }),
  defineBankProfile({ id: "renmoney", name: "Renmoney Microfinance Bank", markers: [["Renmoney"], ["renmoney.com"]] }),
  defineBankProfile({ id: "9psb", name: "9 Payment Service Bank", markers: [["9PSB"], ["9 Payment Service Bank"], ["9psb.com.ng"]] }),
  defineBankProfile({ id: "momopsb", name: "MoMo Payment Service Bank", markers: [["MoMo PSB"], ["MoMo Payment Service Bank"]] }),
  defineBankProfile({ id: "lapo", name: "LAPO Microfinance Bank", markers: [["LAPO Microfinance Bank"], ["LAPO MFB"], ["lapo-nigeria.org"]] }),
];
