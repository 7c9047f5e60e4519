import { Elysia } from "elysia";

const SANE_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Gives every request an id (or keeps a sane incoming X-Request-Id) and echoes it in the response.
 * Assigned in onRequest, before routing, so unmatched routes and early errors carry one too.
 */
export const requestId = () =>
  new Elysia({ name: "request-id" })
    .onRequest(({ request, set }) => {
      const incoming = request.headers.get("x-request-id");
      set.headers["x-request-id"] = incoming && SANE_ID.test(incoming) ? incoming : crypto.randomUUID();
    })
    .derive({ as: "global" }, ({ set }) => ({ requestId: (set.headers as Record<string, string>)["x-request-id"] ?? crypto.randomUUID() }));
