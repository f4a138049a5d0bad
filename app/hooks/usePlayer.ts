import { useSyncExternalStore } from "react";
import { getPlayer, type PlayerState } from "~/utils/player";

// The player's state for components other than the bar (cards, the play page). Kept apart from
// PlayerBar so the bar's code stays in the root layout's own file: a page that shows a card does
// not make the bar a chunk of its own (one file fewer on every first load).

/** The player's state; the same object on the server and in the first client render. */
export function usePlayerState(): PlayerState {
  const player = getPlayer();
  return useSyncExternalStore(player.subscribe, player.getState, player.getState);
}

/** One value of the player's state; re-renders only when it changes (cards, the play page). */
export function usePlayerValue<T>(select: (state: PlayerState) => T, serverValue: T): T {
  const player = getPlayer();
  return useSyncExternalStore(
    player.subscribe,
    () => select(player.getState()),
    () => serverValue,
  );
}

/** Loads the player's episode half ahead of a likely ▶ (pointer over it, focus). */
export function prepareEpisodes() {
  getPlayer().prepareEpisodes();
}
