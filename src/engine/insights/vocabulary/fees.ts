/**
 * The amounts that tie a charge or levy row to the row it was taken for. VAT is 7.5% of a bank's
 * fee (Finance Act 2019, from 1 February 2020). EMTL is a flat N50 on electronic receipts of
 * N10,000 or more (Finance Act 2020), which replaced the N50 stamp duty banks charged on the same
 * receipts (Stamp Duties Act as amended by the Finance Act 2019); statements show both names.
 * Electronic transfer fees are N10 up to N5,000, N25 up to N50,000 and N50 above (CBN Guide to
 * Charges by Banks and Other Financial Institutions, 2020).
 */
export const FEE_RULES: unknown = {
  vat_rate_bp: 750,
  vat_terms: ["VAT", "VALUE ADDED TAX"],
  emtl_amount: "50.00",
  emtl_threshold: "10000.00",
  emtl_terms: ["EMTL", "ELECTRONIC MONEY TRANSFER LEVY", "ELECTRONIC MONEY TRF LEVY", "ELECTRONIC TRANSFER LEVY", "E LEVY"],
  stamp_duty_amount: "50.00",
  stamp_duty_terms: ["STAMP DUTY", "SDUTY"],
  transfer_fee_bands: [
    { up_to: "5000.00", fee: "10.00" },
    { up_to: "50000.00", fee: "25.00" },
    { up_to: null, fee: "50.00" },
  ],
  window_rows: 6,
  source: "Finance Acts 2019 and 2020; CBN Guide to Charges by Banks and Other Financial Institutions (2020)",
};
