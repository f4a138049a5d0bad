import "@remix-run/node";

declare module "@remix-run/node" {
  // Set by server/app.ts for every request.
  interface AppLoadContext {
    clientIp: string;
    /** This response's Content-Security-Policy script nonce (server/security.ts). */
    cspNonce?: string;
  }
  // Single fetch (remix.config.js): loader data keeps Dates, and data() statuses type-check.
  interface Future {
    v3_singleFetch: true;
  }
}
