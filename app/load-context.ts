import "@remix-run/node";

// Set by server/app.ts for every request.
declare module "@remix-run/node" {
  interface AppLoadContext {
    clientIp: string;
  }
}
