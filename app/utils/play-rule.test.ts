import { heardEnough, PLAY_THRESHOLD_SECONDS, requiredSeconds } from "./play-rule";
import { reportPlay } from "./plays";

// Chromium fires timeupdate about four times a second while playing.
const TIMEUPDATE_EVERY = 0.25;

describe("the heard-enough rule", () => {
  it("wants 30 s, or half of a shorter episode", () => {
    expect(requiredSeconds(600)).toBe(PLAY_THRESHOLD_SECONDS);
    expect(requiredSeconds(60)).toBe(30);
    expect(requiredSeconds(13)).toBe(6.5);
    expect(requiredSeconds(0)).toBe(PLAY_THRESHOLD_SECONDS);
    expect(heardEnough(6.4, 13)).toBe(false);
    expect(heardEnough(6.5, 13)).toBe(true);
    expect(heardEnough(Number.NaN, 13)).toBe(false);
  });

  describe("episodes of 1 to 40 s played to the end", () => {
    // The server's side, as app/models/plays.server.ts answers: the first report starts, a later one counts when heard enough.
    let answered: { episodeId: number; heardSeconds: number; status: number }[] = [];
    const durations: Record<number, number> = {};
    beforeEach(() => {
      answered = [];
      vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
        const episodeId = Number(url.split("/").pop());
        const { heardSeconds } = JSON.parse(String(init.body)) as { heardSeconds: number };
        const first = !answered.some((report) => report.episodeId === episodeId);
        // A slow server: answers may come after the next report was due.
        await new Promise((resolve) => setTimeout(resolve, 5));
        const status = first ? 202 : heardEnough(heardSeconds, durations[episodeId]) ? 204 : 202;
        answered.push({ episodeId, heardSeconds, status });
        return new Response(null, { status });
      });
    });
    afterEach(() => {
      vi.unstubAllGlobals();
    });

    it.each(Array.from({ length: 40 }, (_, index) => index + 1))("counts a %i s episode", async (seconds) => {
      const episodeId = 1000 + seconds;
      durations[episodeId] = seconds;
      // What app/utils/player-episodes.ts does: a report on play, one on every timeupdate while playing, one at the end.
      reportPlay(episodeId, { heardSeconds: 0, durationSeconds: seconds });
      for (let heard = TIMEUPDATE_EVERY; heard < seconds; heard += TIMEUPDATE_EVERY) reportPlay(episodeId, { heardSeconds: heard, durationSeconds: seconds });
      reportPlay(episodeId, { heardSeconds: seconds, durationSeconds: seconds, ended: true });
      await vi.waitFor(() => expect(answered.filter((report) => report.episodeId === episodeId).map((report) => report.status)).toContain(204));
      // The start was answered before anything else was sent (its answer carries the listener's session).
      expect(answered.find((report) => report.episodeId === episodeId)?.heardSeconds).toBe(0);
    });

    it("does not count an episode skipped to its end", async () => {
      const episodeId = 2000;
      durations[episodeId] = 13;
      reportPlay(episodeId, { heardSeconds: 0, durationSeconds: 13 });
      reportPlay(episodeId, { heardSeconds: 2, durationSeconds: 13, ended: true });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(answered.filter((report) => report.episodeId === episodeId).map((report) => report.status)).toEqual([202]);
    });
  });
});
