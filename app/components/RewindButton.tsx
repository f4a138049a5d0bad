import { useSyncExternalStore } from "react";
import { useT } from "~/i18n/translate";
import { IDLE_REWIND, rewindState, startRewind, type RewindState } from "~/utils/rewind-state";

/** The rewind state for the bar (idle on the server and in the first render). */
export function useRewindState(): RewindState {
  return useSyncExternalStore(rewindState.subscribe, rewindState.get, () => IDLE_REWIND);
}

/** The live bar's way in: back 30 seconds. */
export function RewindButton() {
  const { t } = useT();
  return (
    <button type="button" className="icon-button player-episode__skip" aria-label={t("player.rewind30")} onClick={() => void startRewind(30)}>
      −30
    </button>
  );
}
