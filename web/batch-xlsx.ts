/**
 * The batch as one workbook, built in the browser with the server's own writer (src/output/xlsx.ts,
 * exceljs): a Transactions sheet with every statement's rows and a Summary sheet with every account
 * section's figures and verdict. Served as its own script (/assets/batch-xlsx.js) and loaded only
 * when asked for, so the page does not carry exceljs for everyone.
 */
import { toXlsx, type XlsxSource } from "../src/output/xlsx.ts";
import { batchSource } from "./batch-files.ts";
import type { ParseResponse } from "./types.ts";

export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

export async function batchXlsx(responses: ParseResponse[]): Promise<Blob> {
  // The page's response type is the server's JSON as read back; the writer's is the engine's.
  const source = batchSource(responses) as unknown as XlsxSource;
  return new Blob([await toXlsx({ ...source, integrity: undefined })], { type: XLSX_TYPE });
}
