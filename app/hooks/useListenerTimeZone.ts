import { useCallback, useEffect, useState } from "react";

const STORAGE_KEY = "listener-time-zone";

function knownZone(zone: string | null | undefined): zone is string {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The zone a listener reads times in: what the server rendered (`initial`,
 * the station's zone or the picker's choice) until the page runs, then the
 * zone they chose before (remembered in localStorage) or their browser's own.
 * `fromUrl` (a zone picked by form) wins over both.
 */
export function useListenerTimeZone(initial: string, fromUrl: string | null): [string, (zone: string) => void] {
  const [zone, setZone] = useState(initial);
  useEffect(() => {
    if (knownZone(fromUrl)) {
      setZone(fromUrl);
      return;
    }
    let saved: string | null = null;
    try {
      saved = window.localStorage.getItem(STORAGE_KEY);
    } catch {
      // Storage can be blocked; the browser's zone still applies.
    }
    const detected = Intl.DateTimeFormat().resolvedOptions().timeZone;
    setZone(knownZone(saved) ? saved : knownZone(detected) ? detected : initial);
  }, [initial, fromUrl]);
  const choose = useCallback((next: string) => {
    if (!knownZone(next)) return;
    setZone(next);
    try {
      window.localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Not remembered, but shown.
    }
  }, []);
  return [zone, choose];
}
