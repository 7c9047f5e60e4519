import { AppError } from "../../src/errors.ts";

/** The AppError a promise rejects with; fails the test if it resolves or throws anything else. */
export async function rejection(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error("expected an AppError rejection");
}

/** The error class a synchronous call throws (an AppError), or "admitted" when it returns. */
export function errorClassOf(fn: () => unknown): string {
  try {
    fn();
    return "admitted";
  } catch (e) {
    if (e instanceof AppError) return e.errorClass;
    throw e;
  }
}
