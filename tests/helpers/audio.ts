import type { Page } from "playwright-core";

/** The bar's live `<audio>` position, in seconds. */
export const liveTime = (page: Page) => page.evaluate(() => (document.querySelector("[data-testid=live-audio]") as HTMLAudioElement).currentTime);
/** The bar's episode `<audio>` position, in seconds. */
export const episodeTime = (page: Page) => page.evaluate(() => (document.querySelector("[data-testid=episode-audio]") as HTMLAudioElement).currentTime);

/** Resolves with the ms from now until `probe` returns true (polling every 50 ms), or throws after `timeoutMs`. */
export async function msUntil(probe: () => Promise<boolean>, timeoutMs: number, what: string): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await probe().catch(() => false)) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** Audio is moving: `time` grows by at least 0.3 s from now. */
export async function advancing(page: Page, time: (page: Page) => Promise<number> = liveTime): Promise<boolean> {
  const before = await time(page);
  await page.waitForTimeout(400);
  return (await time(page)) > before + 0.3;
}
