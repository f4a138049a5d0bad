import type { Server as SocketServer } from "socket.io";
import { peekSingleton, setSingleton } from "./singleton.server";

/**
 * The realtime contract (README "Realtime"): socket.io on the default path,
 * every change broadcast to every connected client.
 */
export type RealtimeTopic = "events:changed" | "embeds:changed" | "images:changed";

export interface RealtimeChange<T = unknown> {
  action: "created" | "updated" | "deleted" | "reordered";
  records: T[];
}

export function attachRealtime(io: SocketServer | undefined): void {
  setSingleton("io", io);
}

/** Tells every open page about a change; model functions call this after they commit. */
export function publish<T>(topic: RealtimeTopic, change: RealtimeChange<T>): void {
  peekSingleton<SocketServer>("io")?.emit(topic, change);
}

export function connectedListeners(): number {
  return peekSingleton<SocketServer>("io")?.engine.clientsCount ?? 0;
}
