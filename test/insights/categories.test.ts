/**
 * Every category and channel rule on narrations written for these tests (the forms Nigerian banks
 * and wallets print, with made-up names and numbers), plus the cases where a word must not
 * misfire: BRANCH the lender against a bank branch, SCHOOL FEES against a bank fee, GLO inside GLORIA.
 */
import { describe, expect, test } from "bun:test";
import { analyse } from "../../src/engine/insights/index.ts";
import { type RowSpec, statement } from "./statement.ts";

const D = "2025-03-10";
const out = (narration: string, amount = "1500.00"): RowSpec => [D, narration, amount, ""];
const inn = (narration: string, amount = "1500.00"): RowSpec => [D, narration, "", amount];

/** The enrichment of one row on its own statement. */
function enrich(row: RowSpec, bank = "gtbank") {
  const { rows } = analyse(statement([row], { bank }));
  return rows[0]!;
}

const CATEGORY_CASES: [string, RowSpec, string][] = [
  ["transfer_in", inn("Transfer from CHIDI EMEKA OBI | Access Bank | 0123456789"), "transfer_in"],
  ["transfer_in (generic TRF FRM)", inn("TRF FRM BOLA ADE TO ADAEZE OKAFOR"), "transfer_in"],
  ["transfer_out", out("Transfer to MUSA IBRAHIM | OPay | 8012345678"), "transfer_out"],
  ["transfer_out (ALAT)", out("ALAT NIP TRANSFER TO GTBank-FOLAKE ADEYEMI FROM ADAEZE OKAFOR"), "transfer_out"],
  ["salary", inn("SALARY FOR MARCH 2025 ZENITH SOFTWARE LTD", "350000.00"), "salary"],
  ["salary (payroll)", inn("PAYROLL CREDIT ACME NIGERIA PLC", "420000.00"), "salary"],
  ["card_purchase (POS)", out("POS PURCHASE @ SHOPRITE LEKKI LA NG"), "card_purchase"],
  ["card_purchase (web)", out("WEB PURCHASE NETFLIX.COM"), "card_purchase"],
  ["card_purchase (OPay card)", out("OPay Card Payment | KUDA | 2JEDGTPK"), "card_purchase"],
  ["cash_withdrawal (ATM)", out("ATM WDL @ ZENITH ATM IKEJA", "20000.00"), "cash_withdrawal"],
  ["cash_withdrawal (agent)", out("POS WITHDRAWAL AGENT 2033ABCD", "10000.00"), "cash_withdrawal"],
  ["cash_deposit", inn("CASH DEPOSIT BY SELF AT ALLEN BRANCH", "50000.00"), "cash_deposit"],
  ["airtime_data (airtime)", out("AIRTIME PURCHASE MTN 08031234567", "500.00"), "airtime_data"],
  ["airtime_data (data)", out("Mobile Data | 07065942654 | AIRTEL", "1000.00"), "airtime_data"],
  ["airtime_data (ALAT glued)", out("AirtimeALATGLO08055551234 925284958670", "200.00"), "airtime_data"],
  ["airtime_data (9mobile)", out("DATA BUNDLE 9MOBILE 08091234567", "1200.00"), "airtime_data"],
  ["bills (DStv)", out("DSTV SUBSCRIPTION SMARTCARD 7023456789", "15700.00"), "bills"],
  ["bills (electricity)", out("IKEDC PREPAID TOKEN 45012345678", "10000.00"), "bills"],
  ["bank_charge (SMS)", out("SMS ALERT CHARGES FOR FEB 2025", "40.00"), "bank_charge"],
  ["bank_charge (maintenance)", out("ACCOUNT MAINTENANCE FEE FEB 2025", "100.00"), "bank_charge"],
  ["bank_charge (commission with VAT)", out("NIP TRANSFER COMMISSION + VAT", "26.88"), "bank_charge"],
  ["tax_levy (VAT)", out("VAT ON NIP TRANSFER CHARGE", "1.88"), "tax_levy"],
  ["tax_levy (EMTL)", out("ELECTRONIC MONEY TRANSFER LEVY", "50.00"), "tax_levy"],
  ["tax_levy (stamp duty)", out("STAMP DUTY ON: S45119082 01-MAR-25", "50.00"), "tax_levy"],
  ["interest (credit)", inn("INTEREST PAID FEB 2025", "63.04"), "interest"],
  ["interest (OWealth)", inn("OWealth Interest Earned", "12.50"), "interest"],
  ["reversal", inn("REVERSAL OF FAILED POS TRANSACTION 302419", "15434.00"), "reversal"],
  ["reversal (RVSL)", inn("RVSL NIP TRF TO JOHN DOE", "5000.00"), "reversal"],
  ["savings (PiggyVest)", out("Transfer to PIGGYVEST | Providus Bank | 9912345678", "20000.00"), "savings"],
  ["savings (OWealth)", out("Auto-save to OWealth Balance", "5600.00"), "savings"],
  ["savings (Cowrywise)", out("NIP TRANSFER TO COWRYWISE SAVINGS", "10000.00"), "savings"],
  ["loan disbursement (FairMoney)", inn("FAIRMONEY LOAN DISBURSEMENT 77812", "50000.00"), "loan"],
  ["loan repayment (Carbon)", out("CARBON LOAN REPAYMENT REF 88213", "12000.00"), "loan"],
  ["loan (Palmcredit)", out("Transfer to PALMCREDIT | Providus Bank | 9912121212", "8000.00"), "loan"],
  ["loan (Renmoney)", out("RENMONEY REPAYMENT INSTALMENT 3", "25000.00"), "loan"],
  ["loan (Branch the lender)", out("BRANCH LOAN REPAYMENT 0098812", "9000.00"), "loan"],
  ["loan (Branch International)", inn("BRANCH INTERNATIONAL FINANCIAL SERVICES", "30000.00"), "loan"],
  ["loan (Aella, QuickCheck, Lidya)", out("AELLA CREDIT REPAY", "7000.00"), "loan"],
  ["loan (QuickCheck)", out("QUICKCHECK NIGERIA LTD", "7000.00"), "loan"],
  ["loan (Lidya)", out("LIDYA REPAYMENT 5561", "70000.00"), "loan"],
  ["loan (generic)", inn("LOAN DISBURSEMENT - PERSONAL LOAN", "500000.00"), "loan"],
  ["betting (Bet9ja)", out("WEB PURCHASE BET9JA.COM", "2000.00"), "betting"],
  ["betting (SportyBet)", out("Transfer to SportyBet | Paystack-Titan | 9876543210", "1000.00"), "betting"],
  ["betting (NairaBet winnings)", inn("NAIRABET WITHDRAWAL 55123", "15000.00"), "betting"],
  ["betting (1xBet)", out("1XBET DEPOSIT 7781", "3000.00"), "betting"],
  ["betting (BetKing)", out("BETKING NG WEB", "2500.00"), "betting"],
  ["betting (MSport)", out("MSPORT DEPOSIT", "500.00"), "betting"],
  ["bills (electricity token, the old utility's name)", out("PHCN PREPAID TOKEN 45010022113", "10000.00"), "bills"],
  ["bills (tax authority)", out("PAYMENT TO LAGOS STATE IRS PAYE TAX MAR", "85000.00"), "bills"],
  ["bills (insurer)", out("AXA MANSARD MOTOR POLICY 2231", "42000.00"), "bills"],
  ["reversal (a card refund)", inn("POS REFUND SPAR LEKKI", "12500.00"), "reversal"],
  ["transfer_in (a cheque cleared)", inn("CHQ DEP 004412 INWARD CLEARING", "250000.00"), "transfer_in"],
  ["salary (leave allowance)", inn("LEAVE ALLOWANCE 2025 DANGOTE CEMENT", "250000.00"), "salary"],
  ["salary (remuneration)", inn("REMUNERATION FOR MAY 2025", "180000.00"), "salary"],
  ["loan (Credit Direct, with loan words)", out("CREDIT DIRECT LOAN REPAYMENT 0043", "45000.00"), "loan"],
  ["loan (principal repaid)", out("PRINCIPAL REPAYMENT TERM FACILITY", "100000.00"), "loan"],
  ["savings (money market fund)", out("ARM MONEY MARKET FUND SUBSCRIPTION", "50000.00"), "savings"],
  ["savings (treasury bills)", out("TREASURY BILL INVESTMENT 364 DAYS", "500000.00"), "savings"],
  ["airtime_data (data sub)", out("DATA SUB 10GB 08031234567", "3500.00"), "airtime_data"],
  ["bills (internet provider)", out("TIZETI WIFI RENEWAL", "15000.00"), "bills"],
  ["bank_charge (card reissued)", out("CARD REISSUANCE", "1075.00"), "bank_charge"],
  ["card_purchase (card trans)", out("CARD TRANS AT SPAR IKEJA", "8700.00"), "card_purchase"],
  ["betting (WazoBet)", out("WAZOBET DEPOSIT 5512", "2000.00"), "betting"],
  ["other", out("MISC DR ADJ 4471", "300.00"), "other"],
];

const NOT_CASES: [string, RowSpec, string][] = [
  ["a bank branch is not the lender Branch", inn("CASH DEPOSIT AT IKEJA BRANCH", "20000.00"), "cash_deposit"],
  ["a transfer through a branch is not a loan", out("TRANSFER TO OKON UDO VIA BRANCH", "20000.00"), "transfer_out"],
  ["school fees are not a bank fee", out("NIP TRANSFER TO KINGS COLLEGE SCHOOL FEES", "150000.00"), "transfer_out"],
  ["GLO inside GLORIA is not a telco", out("Transfer to GLORIA EZE | UBA | 2012345678", "5000.00"), "transfer_out"],
  ["a Carbon bank account is not a Carbon loan", inn("Transfer from TUNDE BAKARE | Carbon | 1234567890", "20000.00"), "transfer_in"],
  ["SALARY ADVANCE is a loan, not salary", inn("SALARY ADVANCE DISBURSEMENT", "100000.00"), "loan"],
  ["a reversed charge is a reversal", inn("REVERSAL OF SMS ALERT CHARGES", "40.00"), "reversal"],
  ["a deposit of airtime money is not airtime (credit)", inn("Transfer from MTN NIGERIA COMMUNICATIONS PLC", "80000.00"), "transfer_in"],
  ["a person's refund memo is a transfer, not a reversal", inn("NIP FRM UBA/ADEBAYO TUNDE/refund for tickets", "8000.00"), "transfer_in"],
  ["a refund of a failed item is a reversal", inn("REFUND OF FAILED TRANSFER 2MPT771", "8000.00"), "reversal"],
  ["overdraft interest is interest, not the overdraft", out("DEBIT INTEREST ON OVERDRAFT", "1200.00"), "interest"],
  ["an overdraft fee is a charge, not the overdraft", out("OVERDRAFT MGT FEE", "500.00"), "bank_charge"],
  ["an overdraft drawn is a loan", inn("KUDA OVERDRAFT DRAWDOWN", "20000.00"), "loan"],
  ["the land use charge is a bill, not a bank charge", out("LAGOS LAND USE CHARGE 2025", "45000.00"), "bills"],
  ["IPPIS pay is salary", inn("IPPIS/FMOH/MAY 2025", "180000.00"), "salary"],
  ["First Bank mobile forms are transfers", out("MOB/UTO/BOLA ADE/rent/7781", "20000.00"), "transfer_out"],
  ["a person named Chaka is not the investment app", inn("Transfer from CHAKA OBI | UBA | 2012345678", "5000.00"), "transfer_in"],
  ["a direct credit is not the lender Credit Direct", inn("NIP CREDIT DIRECT FROM ADA OBI", "5000.00"), "transfer_in"],
];

describe("categories", () => {
  for (const [name, row, expected] of [...CATEGORY_CASES, ...NOT_CASES]) {
    test(`${name}: ${row[1]}`, () => {
      const r = enrich(row);
      expect(r.enrichment.category).toBe(expected as never);
      expect(r.enrichment.confidence.category).toBeGreaterThan(0);
      expect(r.enrichment.confidence.category).toBeLessThanOrEqual(1);
    });
  }

  test("the lender and betting operator named are kept for the insights", () => {
    expect(enrich(out("CARBON LOAN REPAYMENT REF 88213")).entity).toBe("Carbon");
    expect(enrich(out("Transfer to SportyBet | Paystack | 9876543210")).entity).toBe("SportyBet");
  });
});

const CHANNEL_CASES: [RowSpec, string, string?][] = [
  [out("NIP TRANSFER TO ADA OBI ZENITH BANK"), "nip"],
  [out("USSD TRANSFER TO IFEOMA BALOGUN VIA *737#"), "ussd"],
  [out("TRF TO OKON *894*1# BOLA"), "ussd"],
  [out("POS PURCHASE @ SPAR LEKKI"), "pos"],
  [out("WEB PURCHASE JUMIA"), "web"],
  [out("ATM WDL ZENITH IKEJA"), "atm"],
  [out("OPay Card Payment | KUDA | 2JEDGTPK"), "card"],
  [inn("CASH DEPOSIT TELLER 0042"), "branch"],
  [out("MOBILE BANKING TRF TO JOHN"), "app"],
  [out("GTWORLD TRANSFER TO ADA"), "app"],
  [inn("Transfer from ADA OBI"), "app", "opay"],
  [inn("CREDIT 000013250310142211123456789012"), "nip"],
  [out("MISC DR ADJ 4471"), "unknown"],
];

describe("channels", () => {
  for (const [row, expected, bank] of CHANNEL_CASES) {
    test(`${row[1]}${bank ? ` (${bank} statement)` : ""}: ${expected}`, () => {
      expect(enrich(row, bank).enrichment.channel).toBe(expected as never);
    });
  }

  test("a masked account's run of stars is not a USSD code", () => {
    expect(enrich(out("TRANSFER TO ADA OBI Access Bank *****19362/TRF|2MPTupF2q|1931536323443583897")).enrichment.channel).not.toBe("ussd");
  });
});

describe("counterparty and session id", () => {
  const cases: [RowSpec, string, string | null][] = [
    [inn("Transfer from BISOLA IFUNANYA BAMIDELE | UBA | 6137768475"), "BISOLA IFUNANYA BAMIDELE", "UBA"],
    [out("Transfer to MUSA IBRAHIM | OPay | 8012345678"), "MUSA IBRAHIM", "OPay"],
    [out("TRANSFER TO ESE ADENIRAN Guaranty Trust Bank *****20090/TRF|2MPT016k0|1994887923017510009"), "ESE ADENIRAN", "GTBank"],
    [inn("SOMTO OJO TO ADAEZE OKAFOR MONIEPOINT *****35048/TRF|2MPTcfXFp|1952075917793372335"), "SOMTO OJO", null],
    [out("ALAT NIP TRANSFER TO Fidelity Bank-KAYODE BABALOLA FROM ADAEZE OKAFOR - rent"), "KAYODE BABALOLA", "Fidelity Bank"],
    [inn("NIP:KELECHI STEPHEN EZE-Refund"), "KELECHI STEPHEN EZE", null],
    [inn("NIP TRANSFER FROM OLUWAKEMI MUSA MONIEPOINT MFB TO ADAEZE"), "OLUWAKEMI MUSA", "Moniepoint"],
    [out("NIP TRANSFER TO SEGUN OBI FCMB UPKEEP"), "SEGUN OBI", "FCMB"],
    [inn("TRF FRM BOLA ADE TO ADAEZE OKAFOR"), "BOLA ADE", null],
  ];
  for (const [row, name, bank] of cases) {
    test(`${row[1]} -> ${name}${bank ? ` at ${bank}` : ""}`, () => {
      const cp = enrich(row).enrichment.counterparty;
      expect(cp?.name).toBe(name);
      if (bank !== null) expect(cp?.bank).toBe(bank);
    });
  }

  test("no party in a narration that names none", () => {
    expect(enrich(out("SMS ALERT CHARGES FOR FEB 2025", "40.00")).enrichment.counterparty).toBeNull();
    expect(enrich(out("AIRTIME TO 08050057386 GLO/ATP|2MPT7627g|1913133658106550452", "200.00")).enrichment.counterparty).toBeNull();
  });

  test("a 30-digit NIP session id, in the narration or the reference; a 29- or 31-digit run is not one", () => {
    const id = "000013250310142211123456789012";
    const a = enrich(inn(`NIP FRM ADA OBI ${id}`)).enrichment;
    expect(a.session_id).toBe(id);
    expect(a.confidence.session_id).toBeGreaterThan(0.9);
    expect(enrich([D, "NIP FRM ADA OBI", "", "100.00", id]).enrichment.session_id).toBe(id);
    expect(enrich(inn(`NIP FRM ADA OBI ${id.slice(1)}`)).enrichment.session_id).toBeNull();
    expect(enrich(inn(`NIP FRM ADA OBI ${id}7`)).enrichment.session_id).toBeNull();
  });
});

describe("wallet forms", () => {
  test("Received from / Sent to name the party; funding words make a transfer", () => {
    const a = enrich(inn("Received from NGOZI EZE | Kuda | 2011111111")).enrichment;
    expect([a.category, a.counterparty?.name, a.counterparty?.bank]).toEqual(["transfer_in", "NGOZI EZE", "Kuda"]);
    const b = enrich(out("Sent to TUNDE BAKARE")).enrichment;
    expect([b.category, b.counterparty?.name]).toEqual(["transfer_out", "TUNDE BAKARE"]);
    expect(enrich(inn("Wallet Funding via Card 4417")).enrichment.category).toBe("transfer_in");
  });
});

describe("the bank's own rows", () => {
  test("interest and withholding tax as ALAT prints them; charges name no party", () => {
    expect(enrich(inn("0241158133:Int.Pd:01-06-2025 to 30-06-2025", "12.40")).enrichment.category).toBe("interest");
    expect(enrich(out("0241158133:WTax.Pd:01-06-2025to 30-06-2025", "1.24")).enrichment.category).toBe("tax_levy");
    const sms = enrich(out("SMS Alert Charges for MAY 25 to JUN 24, 2025", "180.00")).enrichment;
    expect([sms.category, sms.counterparty]).toEqual(["bank_charge", null]);
    const comm = enrich(out("COMM ALAT NIP TRANSFER TO GTBank-MERCY IBEKWE FROM ADAEZE OKAFOR", "25.00")).enrichment;
    expect([comm.category, comm.counterparty]).toEqual(["bank_charge", null]);
  });

  test("a bank with no one named is not a party", () => {
    expect(enrich(out("ALAT NIP TRANSFER TO Fidelity Bank-", "3500.00")).enrichment.counterparty).toBeNull();
  });
});

describe("rows whose narration says nothing", () => {
  const session = "000015251004093015987654321098";

  test("an unexplained row carrying a NIP session id is a transfer by its direction; without one it stays other", () => {
    const a = enrich([D, "TOLU ADEBAYO/KOLA STORES", "", "2500.00", `${session}_CR_0`], "moniepoint").enrichment;
    expect([a.category, a.session_id]).toEqual(["transfer_in", session]);
    expect(enrich([D, "USSD_CHIDI OKORO", "700.00", "", `${session}`]).enrichment.category).toBe("transfer_out");
    expect(enrich([D, "TOLU ADEBAYO/KOLA STORES", "", "2500.00", "REF-20251004-0042"]).enrichment.category).toBe("other");
    // A rule that explains the row still decides: a levy carrying the transfer's session id is a levy.
    expect(enrich([D, "ELECTRONIC MONEY TRANSFER LEVY", "50.00", "", session]).enrichment.category).toBe("tax_levy");
  });

  test("a blank or bare-number narration is read from the reference, where some banks print the row's kind", () => {
    const levy = enrich([D, "", "50.00", "", "TRF|7QKD3|2204918830021_CR_0_EMTL_DC_0"], "moniepoint").enrichment;
    expect(levy.category).toBe("tax_levy");
    expect(enrich([D, "", "", "212.37", "CORE|INTR|SAVINGS_INTEREST|2025-09|2210004444_CR_1"], "moniepoint").enrichment.category).toBe("interest");
    expect(enrich([D, "4419920087716", "", "9000.00", `XFER|${session}|88_CR_0`], "moniepoint").enrichment.category).toBe("transfer_in");
    // A narration with words is read as printed, whatever the reference says.
    expect(enrich([D, "Payment for goods", "", "9000.00", "X_EMTL_DC_0"]).enrichment.category).toBe("transfer_in");
  });
});
