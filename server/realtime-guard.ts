import type { IncomingMessage } from "node:http";
import type { Server as SocketServer, ServerOptions } from "socket.io";
import { limitedAddress } from "~/services/rate-limit.server";

/*
 * Live updates flow one way: the server pushes, listeners only listen. A listener's socket sends
 * socket.io's CONNECT to the main namespace once (and DISCONNECT when it leaves); anything else
 * (events, acknowledgements, binary attachments, other namespaces) is a client the server does not
 * serve, and each such message still costs a decode. And one address may hold only so many sockets.
 */

// socket.io packet types are the first character of an engine.io message (socket.io protocol v5):
// 0 CONNECT, 1 DISCONNECT. Binary messages only carry attachments of events.
const CONTROL_PACKETS = new Set(["0", "1"]);
// CONNECT and DISCONNECT, twice over for a client that reconnects its namespace on one connection.
const MAX_CONTROL_MESSAGES = 4;
// A CONNECT packet is a few bytes (the page's client sends "0"); engine.io's default is 1 MB.
const MAX_MESSAGE_BYTES = 4 * 1024;

/** The client address of a request as Express derives it (`req.ip`): the first hop not trusted (TRUST_PROXY). */
export function requestClientAddress(req: IncomingMessage, trusts: (address: string, hop: number) => boolean): string {
  const forwarded = String(req.headers["x-forwarded-for"] ?? "")
    .split(",")
    .map((address) => address.trim())
    .filter(Boolean)
    .reverse();
  const chain = [req.socket.remoteAddress ?? "unknown", ...forwarded];
  for (let hop = 0; hop < chain.length - 1; hop++) if (!trusts(chain[hop], hop)) return chain[hop];
  return chain[chain.length - 1];
}

export interface RealtimeGuard {
  /** For the socket.io server's constructor. */
  options: Partial<ServerOptions>;
  /** Watches the server's connections (call once, right after creating it). */
  watch(io: SocketServer): void;
}

/**
 * Caps the sockets of one client address (IPv6 by its /64, as the rate limits count) at
 * `maxPerAddress` (a new one is refused with 403 during the handshake) and closes a connection
 * as soon as it sends anything a listener does not.
 */
export function realtimeGuard(maxPerAddress: number, trusts: (address: string, hop: number) => boolean): RealtimeGuard {
  const open = new Map<string, number>();
  // Handshakes let in and not yet connected (or failed) are counted too, so a burst cannot slip past.
  const admitted = new WeakMap<IncomingMessage, string>();
  const release = (address: string) => {
    const count = (open.get(address) ?? 1) - 1;
    if (count > 0) open.set(address, count);
    else open.delete(address);
  };
  return {
    options: {
      maxHttpBufferSize: MAX_MESSAGE_BYTES,
      allowRequest(req, callback) {
        const address = limitedAddress(requestClientAddress(req, trusts));
        const count = open.get(address) ?? 0;
        if (count >= maxPerAddress) return callback("Too many live connections from this address", false);
        open.set(address, count + 1);
        admitted.set(req, address);
        callback(null, true);
      },
    },
    watch(io) {
      io.engine.on("connection", (connection: { request: IncomingMessage; close(): void; on(event: string, listener: (data: unknown) => void): void }) => {
        const address = admitted.get(connection.request);
        admitted.delete(connection.request);
        if (address !== undefined) connection.on("close", () => release(address));
        let controlMessages = 0;
        connection.on("message", (data) => {
          const expected = typeof data === "string" && CONTROL_PACKETS.has(data[0]) && ++controlMessages <= MAX_CONTROL_MESSAGES;
          if (expected) return;
          connection.close();
          // Not a graceful close: that waits for the client's close frame, queued behind its flood,
          // and every frame before it would still be read.
          connection.request.socket.destroy();
        });
      });
      io.engine.on("connection_error", (error: { req?: IncomingMessage }) => {
        const address = error.req ? admitted.get(error.req) : undefined;
        if (address === undefined || !error.req) return;
        admitted.delete(error.req);
        release(address);
      });
    },
  };
}
