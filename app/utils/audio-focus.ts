// One station, one sound: when any player starts, every other player pauses,
// in this tab (a podcast pauses the live stream) and in every other tab.

type Listener = (owner: string) => void;

const listeners = new Set<Listener>();
let channel: BroadcastChannel | null | undefined;

function getChannel(): BroadcastChannel | null {
  if (channel === undefined) {
    channel = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel("station-audio-focus");
    channel?.addEventListener("message", (event: MessageEvent<{ owner: string }>) => {
      // Another tab took the focus: whatever plays here yields.
      for (const listener of listeners) listener(`other-tab:${event.data.owner}`);
    });
  }
  return channel;
}

/** Announces that `owner` started playing. */
export function claimAudioFocus(owner: string): void {
  for (const listener of listeners) listener(owner);
  getChannel()?.postMessage({ owner });
}

/** Calls `onLost` whenever another player (here or in another tab) starts; returns the unsubscribe. */
export function onAudioFocusLost(owner: string, onLost: () => void): () => void {
  getChannel();
  const listener: Listener = (claimant) => {
    if (claimant !== owner) onLost();
  };
  listeners.add(listener);
  return () => listeners.delete(listener);
}
