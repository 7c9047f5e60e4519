/**
 * Writes a parse's workbook off the main thread (src/output/xlsx-pool.ts): exceljs spends seconds
 * of CPU on a large statement, which would otherwise stall every other request of the server.
 */
import { Piscina } from "piscina";
import { toXlsx, type XlsxSource } from "../src/output/xlsx.ts";

export default async function writeWorkbook({ json }: { json: string }): Promise<Uint8Array> {
  const bytes = await toXlsx(JSON.parse(json) as XlsxSource);
  // Handed over, not copied.
  return Piscina.move(bytes) as unknown as Uint8Array;
}
