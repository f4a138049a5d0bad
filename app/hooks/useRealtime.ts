import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { RealtimeClient } from "~/utils/realtime-client";

import type { RealtimeTopic } from "~/utils/realtime-topics";

export type { RealtimeTopic };

type Socket = RealtimeClient;
let socketPromise: Promise<Socket> | null = null;

// One connection per tab, opened on first use (a small client of our own, not
// socket.io-client: see app/utils/realtime-client.ts).
function getSocket(): Promise<Socket> {
  socketPromise ??= Promise.resolve(new RealtimeClient());
  return socketPromise;
}

function useSubscription(topics: RealtimeTopic[], onChange: (change: unknown) => void): void {
  const handler = useRef(onChange);
  handler.current = onChange;
  const key = topics.join(",");
  useEffect(() => {
    const listener = (change: unknown) => handler.current(change);
    const names = key.split(",");
    let socket: Socket | undefined;
    let cancelled = false;
    void getSocket().then((s) => {
      if (cancelled) return;
      socket = s;
      for (const name of names) socket.on(name, listener);
    });
    return () => {
      cancelled = true;
      for (const name of names) socket?.off(name, listener);
    };
  }, [key]);
}

/** Calls `onChange` with the change's payload whenever the server publishes `topic`. */
export function useRealtime<T = unknown>(topic: RealtimeTopic, onChange: (change: T) => void): void {
  useSubscription([topic], onChange as (change: unknown) => void);
}

/** Re-runs the page's loaders when any of `topics` changes: the page shows the new data without a reload. */
export function useLiveData(...topics: RealtimeTopic[]): void {
  const revalidator = useRevalidator();
  useSubscription(topics, () => revalidator.revalidate());
}

/**
 * Calls `onConnect` each time this tab's realtime connection is (re)established,
 * including at once when it already is: changes published while it was down
 * were missed, so state that must be current (what is on air) is fetched again.
 */
export function useRealtimeConnected(onConnect: () => void): void {
  const handler = useRef(onConnect);
  handler.current = onConnect;
  useEffect(() => {
    const listener = () => handler.current();
    let socket: Socket | undefined;
    let cancelled = false;
    void getSocket().then((s) => {
      if (cancelled) return;
      socket = s;
      socket.on("connect", listener);
      if (socket.connected) listener();
    });
    return () => {
      cancelled = true;
      socket?.off("connect", listener);
    };
  }, []);
}
