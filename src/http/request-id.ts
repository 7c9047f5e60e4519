import { Elysia } from "elysia";

/** Gives every request an id (or keeps a sane incoming X-Request-Id) and echoes it in the response. */
export const requestId = () =>
  new Elysia({ name: "request-id" })
    .derive({ as: "global" }, ({ request, set }) => {
      const incoming = request.headers.get("x-request-id");
      const id = incoming && /^[A-Za-z0-9._-]{1,128}$/.test(incoming) ? incoming : crypto.randomUUID();
      set.headers["x-request-id"] = id;
      return { requestId: id };
    });
