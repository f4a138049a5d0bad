/*
 * The bar's controls while rewinding, loaded when a rewind starts (PlayerBar, from ./EpisodeBar's chunk):
 * most listeners never rewind, and /listen's first-load JavaScript has a budget (issue 14). The
 * actions come as a prop: importing ~/utils/rewind-state here would move it out of the root's chunk
 * into a chunk of its own that every page loads.
 */
import { useT } from "~/i18n/translate";
import type { RewindState, rewindActions } from "~/utils/rewind-state";

function behind(state: RewindState): string {
  if (state.at === null || state.windowEnd === null) return "";
  const seconds = Math.max(0, Math.round((state.windowEnd - state.at) / 1000));
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const clock =
    hours > 0
      ? `${hours}:${String(minutes % 60).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`
      : `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
  return `−${clock}`;
}

/** While rewinding: the scrubber over the window, ±30 s, the show from its start, back to live. */
export function RewindControls({ state, actions: rewind }: { state: RewindState; actions: typeof rewindActions }) {
  const { t } = useT();
  const ready = state.at !== null && state.windowStart !== null && state.windowEnd !== null;
  return (
    <div className="player-episode__progress rewind-controls" data-testid="rewind-controls">
      <button type="button" className="icon-button player-episode__skip" aria-label={t("player.back30")} onClick={() => rewind.skip(-30)} disabled={!ready}>
        −30
      </button>
      <button type="button" className="icon-button player-episode__skip" aria-label={t("player.ahead30")} onClick={() => rewind.skip(30)} disabled={!ready}>
        +30
      </button>
      <label className="visually-hidden" htmlFor="rewind-scrubber">
        {t("player.rewindPosition")}
      </label>
      <input
        id="rewind-scrubber"
        className="player-episode__scrubber"
        type="range"
        min={0}
        max={ready ? Math.max(1, Math.round((state.windowEnd! - state.windowStart!) / 1000)) : 1}
        step={1}
        value={ready ? Math.round((state.at! - state.windowStart!) / 1000) : 0}
        disabled={!ready}
        aria-valuetext={ready ? t("player.rewindBehind", { behind: behind(state) }) : t("player.loading")}
        onChange={(event) => rewind.seekTo(state.windowStart! + Number(event.target.value) * 1000)}
      />
      <span className="player-episode__time" data-testid="rewind-behind">
        {state.loading ? "…" : behind(state)}
      </span>
      {state.show && (
        <button type="button" className="button button--ghost" onClick={() => rewind.seekTo(state.show!.start)}>
          {t("player.showFromStart")}
        </button>
      )}
      <button type="button" className="player-episode__live" onClick={rewind.backToLive}>
        <span className="live-badge">{t("player.backToLive")}</span>
      </button>
    </div>
  );
}
