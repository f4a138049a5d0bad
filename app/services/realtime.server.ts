import type { Server as SocketServer } from "socket.io";
import type { RealtimeTopic } from "~/utils/realtime-topics";
import { peekSingleton, setSingleton, singleton } from "./singleton.server";

/**
 * The realtime contract (README "Realtime"): socket.io on the default path,
 * every change broadcast to every connected client.
 */
export type { RealtimeTopic };

export interface RealtimeChange<T = unknown> {
  action: "created" | "updated" | "deleted" | "reordered";
  records: T[];
}

/** `shared`: the server uses an adapter that reaches the other app instances. */
export function attachRealtime(io: SocketServer | undefined, shared = false): void {
  setSingleton("io", io);
  setSingleton("ioShared", shared);
}

const CONTENT_CHANGED = "content:changed";

function contentListeners(): Set<() => void> {
  return singleton("contentListeners", () => new Set<() => void>());
}

/** Tells every open page about a change; model functions call this after they commit. */
export function publish<T>(topic: RealtimeTopic, change: RealtimeChange<T>): void {
  push(topic, change);
  announceContentChanged();
}

/**
 * Tells every open page about a change that kept pages and reads need not wait for: nothing is
 * forgotten (now playing, which pages take from this push or from /now-playing, not their HTML).
 */
export function push<T>(topic: RealtimeTopic, change: RealtimeChange<T>): void {
  peekSingleton<SocketServer>("io")?.emit(topic, change);
}

/** Tells this and every other instance that rendered pages are stale (no page event is sent). */
export function announceContentChanged(): void {
  const io = peekSingleton<SocketServer>("io");
  // Other app instances hear it through the shared adapter (nothing to reach without one).
  if (io && peekSingleton<boolean>("ioShared")) io.serverSideEmit(CONTENT_CHANGED);
  for (const listener of contentListeners()) listener();
}

/**
 * Runs `listener` after any change published here or by another instance
 * (the page cache uses it). Returns the unsubscribe function.
 */
export function onContentChanged(listener: () => void): () => void {
  contentListeners().add(listener);
  const io = peekSingleton<SocketServer>("io");
  io?.on(CONTENT_CHANGED, listener);
  return () => {
    contentListeners().delete(listener);
    io?.off(CONTENT_CHANGED, listener);
  };
}

const SETTINGS_CHANGED = "settings:changed";

/** Tells the other instances that the station settings changed: each reads them again (this one already has them). */
export function announceSettingsChanged(): void {
  const io = peekSingleton<SocketServer>("io");
  if (io && peekSingleton<boolean>("ioShared")) io.serverSideEmit(SETTINGS_CHANGED);
}

/** Runs `listener` when another instance announces a settings change. Returns the unsubscribe function. */
export function onSettingsAnnounced(listener: () => void): () => void {
  const io = peekSingleton<SocketServer>("io");
  io?.on(SETTINGS_CHANGED, listener);
  return () => void io?.off(SETTINGS_CHANGED, listener);
}

export function connectedListeners(): number {
  return peekSingleton<SocketServer>("io")?.engine.clientsCount ?? 0;
}
