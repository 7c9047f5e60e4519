/**
 * Channel rules, in the order they are tried (the first match decides): a USSD code or "ATM"
 * says more than the generic "TRANSFER". A row no rule names, carrying a 30-digit NIP session
 * id, went over NIP; one on a wallet app's statement was made in the app.
 */
export const CHANNEL_RULES: unknown = {
  rules: [
    {
      channel: "ussd",
      terms: ["USSD"],
      // Bank short codes (*737 GTBank, *894 First Bank, *901 Access, *919 UBA, *966 Zenith, *326 Ecobank,
      // *329 FCMB, *770 Fidelity, *826 Union, *822 Sterling, *945 Wema, *909 Stanbic, *833 Polaris,
      // *7799 Unity, *745 Heritage, *773 Jaiz, *7111 Keystone); never a masked account's run of stars.
      patterns: ["(?<![*\\d])\\*(?:737|894|901|919|966|326|329|770|826|822|945|909|833|7799|745|773|7111)(?:[*#\\s]|$)"],
      confidence: 0.95,
      source: "Banks' published USSD short codes",
    },
    { channel: "atm", terms: ["ATM", "ATM WDL", "ATM WITHDRAWAL"], confidence: 0.95, source: "ATM narrations" },
    { channel: "pos", terms: ["POS", "POS PURCHASE", "POS WDL", "POS TERMINAL", "PTSP", "TERMINAL ID"], confidence: 0.9, source: "POS terminal narrations" },
    { channel: "nip", terms: ["NIP", "NIBSS", "NIP TRANSFER", "NIP TRF", "FIP", "INSTANT PAYMENT", "NIBSS INSTANT PAYMENT"], confidence: 0.9, source: "NIBSS Instant Payment (NIP) narrations" },
    {
      channel: "web",
      terms: ["WEB", "WEB PURCHASE", "ONLINE", "INTERNET BANKING", "IBANK", "IB TRANSFER", "PAYSTACK", "FLUTTERWAVE", "REMITA", "QUICKTELLER", "ECOM", "E COMMERCE"],
      confidence: 0.8,
      source: "Web and internet-banking narrations, payment gateways",
    },
    { channel: "card", terms: ["CARD", "CARD PAYMENT", "VISA", "MASTERCARD", "VERVE"], confidence: 0.8, source: "Card scheme names and card payment narrations" },
    {
      channel: "branch",
      terms: ["TELLER", "CHEQUE", "CHQ", "COUNTER", "CASH DEPOSIT", "CASH LODGEMENT", "CLEARING", "INWARD CLEARING", "OUTWARD CLEARING", "BRANCH", "OTC"],
      confidence: 0.8,
      source: "Over-the-counter, cheque and clearing narrations",
    },
    {
      channel: "app",
      terms: ["MOBILE", "MOBILE APP", "MOBILE BANKING", "MOB", "APP", "GTWORLD", "ALAT", "FIRSTMOBILE", "ACCESSMORE", "ZENITH MOBILE", "UBA MOBILE", "LEO", "VIA APP"],
      confidence: 0.8,
      source: "Banks' mobile app names as printed in narrations",
    },
  ],
  app_banks: ["opay", "kuda", "palmpay", "moniepoint", "carbon", "fairmoney", "vfd", "rubies", "sparkle", "mintyn", "gomoney", "paga", "9psb", "momopsb"],
  app_bank_confidence: 0.6,
};
