import pkg from "../package.json" with { type: "json" };

/** Shape version of ParseResponse and the error envelope; bump on any breaking change. */
export const FORMAT_VERSION = "1.0";
/** Version of the parsing engine (layout inference and bank profiles). */
export const ENGINE_VERSION = "1.0.0";
export const SERVICE_VERSION: string = pkg.version;
