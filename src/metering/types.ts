import type { Caller } from "../db/keys.ts";

/**
 * The gate every parse passes through (sync and jobs alike). `admit` runs before the engine:
 * it may refuse (throws AppError: 402 subscription_inactive, 422 missing first-party IP, 429) or
 * decide that the caller gets the canned sample instead of a parse. Exactly one of
 * `succeeded`/`failed` is called for every admitted parse that is not a sample.
 */
export interface Metering {
  /**
   * `reservationId` names the reservation instead of a random id: a cluster job reserves under
   * its job id, so whichever instance ends the job settles that one row (counted exactly once).
   */
  admit(caller: Caller, request: { headers: Headers }, options?: { reservationId?: string }): Promise<Admission>;
  /**
   * The refusals of `admit` alone (402 subscription_inactive, 422 first-party IP header), with
   * nothing reserved: run before an upload is read, so a caller admit would refuse takes no
   * upload bytes or in-flight place meanwhile. admit checks again.
   */
  precheck?(caller: Caller, request: { headers: Headers }): Promise<void>;
  /** The admission of a reservation made earlier, possibly by another instance (see admit). */
  resume(reservationId: string): Admission;
  /**
   * Writes outcomes still waiting for the database (it was away when they happened), for up to
   * `timeoutMs`; resolves with how many could not be written. Called at shutdown.
   */
  flush?(timeoutMs: number): Promise<number>;
}

export interface Admission {
  /** Past a test/first-party cap: return the synthetic sample, don't run the engine, don't count. */
  sample: boolean;
  /** Records one successful parse (idempotent per admission). */
  succeeded(): Promise<void>;
  /** Records a failed parse (for success_rate; never billed). */
  failed(errorClass: string): Promise<void>;
}
