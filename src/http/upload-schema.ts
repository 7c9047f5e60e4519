import { listBanks } from "../engine/index.ts";

/** OpenAPI description of the multipart upload both parse endpoints take (read by hand, see upload.ts). */
export const uploadRequestBody = {
  required: true,
  content: {
    "multipart/form-data": {
      schema: {
        type: "object",
        required: ["pdf"],
        properties: {
          pdf: { type: "string", format: "binary", description: "The statement: PDF or XLSX" },
          bank: { type: "string", enum: [...listBanks().map((b) => b.id), "unknown"], description: "Bank id (GET /v1/banks) that overrides detection, e.g. gtbank; unknown: generic layout inference without detection" },
          password: { type: "string", description: "User password of an encrypted PDF" },
          redact: { type: "string", enum: ["true", "false"], description: "true: return a redacted copy of the document instead" },
        },
      },
    },
  },
};
