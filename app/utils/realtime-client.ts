/**
 * The browser's end of the realtime contract (README "Realtime"): listens to the
 * server's socket.io broadcasts over one WebSocket (Engine.IO protocol 4,
 * socket.io protocol 5, default namespace). Pages only receive JSON events, so
 * this is all of socket.io-client they need, at a fraction of its size: /listen
 * must stay within its JavaScript budget. The server is the stock socket.io.
 */
type Handler = (payload: unknown) => void;

// Engine.IO packet types (first character) and socket.io packet types (second).
const OPEN = "0";
const CLOSE = "1";
const PING = "2";
const PONG = "3";
const MESSAGE = "4";
const SIO_CONNECT = "0";
const SIO_DISCONNECT = "1";
const SIO_EVENT = "2";
const SIO_CONNECT_ERROR = "4";
const MAX_RECONNECT_MS = 10_000;

export class RealtimeClient {
  private handlers = new Map<string, Set<Handler>>();
  private socket: WebSocket | null = null;
  private attempt = 0;
  private heartbeat: ReturnType<typeof setTimeout> | undefined;
  private pingWindowMs = 45_000;
  connected = false;

  constructor(private readonly path = "/socket.io/") {
    this.open();
    // A machine that wakes up or a network that comes back: reconnect at once.
    window.addEventListener("online", () => !this.connected && this.reopen(0));
  }

  on(event: string, handler: Handler): void {
    let set = this.handlers.get(event);
    if (!set) this.handlers.set(event, (set = new Set()));
    set.add(handler);
  }

  off(event: string, handler: Handler): void {
    this.handlers.get(event)?.delete(handler);
  }

  private emitLocal(event: string, payload?: unknown): void {
    for (const handler of this.handlers.get(event) ?? []) handler(payload);
  }

  private open(): void {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}${this.path}?EIO=4&transport=websocket`);
    this.socket = socket;
    socket.onmessage = (message) => this.receive(String(message.data));
    socket.onclose = () => {
      if (this.socket !== socket) return;
      const wasConnected = this.connected;
      this.connected = false;
      clearTimeout(this.heartbeat);
      if (wasConnected) this.emitLocal("disconnect");
      // 0.5 s, 1 s, 2 s … 10 s, with jitter so a restarted server is not hit by everyone at once.
      this.reopen(Math.min(MAX_RECONNECT_MS, 500 * 2 ** this.attempt++) * (0.5 + Math.random() / 2));
    };
  }

  private reopen(delayMs: number): void {
    const old = this.socket;
    this.socket = null;
    if (old && old.readyState <= WebSocket.OPEN) {
      old.onclose = null;
      old.close();
    }
    setTimeout(() => !this.socket && this.open(), delayMs);
  }

  /** The server pings every pingInterval; silence beyond interval + timeout means a dead connection. */
  private expectPing(): void {
    clearTimeout(this.heartbeat);
    this.heartbeat = setTimeout(() => this.socket?.close(), this.pingWindowMs);
  }

  private receive(packet: string): void {
    const type = packet[0];
    if (type === OPEN) {
      const handshake = JSON.parse(packet.slice(1)) as { pingInterval?: number; pingTimeout?: number };
      this.pingWindowMs = (handshake.pingInterval ?? 25_000) + (handshake.pingTimeout ?? 20_000);
      this.expectPing();
      this.socket?.send(MESSAGE + SIO_CONNECT);
    } else if (type === PING) {
      this.expectPing();
      this.socket?.send(PONG);
    } else if (type === CLOSE) {
      this.socket?.close();
    } else if (type === MESSAGE) {
      const sioType = packet[1];
      if (sioType === SIO_CONNECT) {
        this.connected = true;
        this.attempt = 0;
        this.emitLocal("connect");
      } else if (sioType === SIO_EVENT) {
        // 42["name", payload] — possibly with an ack id before the array (never used for broadcasts).
        const body = packet.slice(2).replace(/^\d+/, "");
        try {
          const [name, payload] = JSON.parse(body) as [string, unknown];
          this.emitLocal(name, payload);
        } catch {
          // Not JSON we understand (e.g. a binary event): not part of the contract.
        }
      } else if (sioType === SIO_DISCONNECT || sioType === SIO_CONNECT_ERROR) {
        this.socket?.close();
      }
    }
  }
}
