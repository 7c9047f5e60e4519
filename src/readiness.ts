/**
 * One readiness check GET /readyz runs: resolves when ready, throws (or resolves false) when not.
 * In a module of its own, below both the HTTP layer that runs the checks and the parts that offer
 * them (the job backends, the server), so neither has to import the other for it.
 */
export interface ReadinessCheck {
  name: string;
  check(): Promise<boolean | void>;
}
