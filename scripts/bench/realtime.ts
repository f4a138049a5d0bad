import { io, type Socket } from "socket.io-client";

const CONNECT_BATCH = 100;
const BATCH_TIMEOUT_MS = 15_000;
const DELIVERY_TIMEOUT_MS = 15_000;

export interface Listeners {
  connected: number;
  connectSeconds: number;
  /** Resolves with each listener's delay (ms, from `startedAt`) once all received `topic`, or at the timeout. */
  awaitChange(topic: string, startedAt: number): Promise<number[]>;
  close(): void;
}

function connect(url: string): Promise<Socket | null> {
  return new Promise((resolve) => {
    const socket = io(url, { transports: ["websocket"], reconnection: false, forceNew: true, timeout: BATCH_TIMEOUT_MS });
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", () => {
      socket.close();
      resolve(null);
    });
  });
}

/**
 * Opens `count` socket.io connections the way the site's pages do (websocket first),
 * in batches so the server is not hit by thousands of handshakes in the same instant.
 */
export async function connectListeners(url: string, count: number): Promise<Listeners> {
  const started = performance.now();
  const sockets: Socket[] = [];
  for (let opened = 0; opened < count; opened += CONNECT_BATCH) {
    const batch = await Promise.all(Array.from({ length: Math.min(CONNECT_BATCH, count - opened) }, () => connect(url)));
    sockets.push(...batch.filter((socket): socket is Socket => socket !== null));
  }
  const connectSeconds = (performance.now() - started) / 1000;

  return {
    connected: sockets.length,
    connectSeconds,
    awaitChange(topic, startedAt) {
      return new Promise((resolve) => {
        const delays: number[] = [];
        const finish = () => {
          clearTimeout(timer);
          for (const socket of sockets) socket.off(topic);
          resolve(delays);
        };
        const timer = setTimeout(finish, DELIVERY_TIMEOUT_MS);
        for (const socket of sockets) {
          socket.once(topic, () => {
            delays.push(performance.now() - startedAt);
            if (delays.length === sockets.length) finish();
          });
        }
      });
    },
    close() {
      for (const socket of sockets) socket.close();
    },
  };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
