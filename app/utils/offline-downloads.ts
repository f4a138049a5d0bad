/**
 * Episodes kept on this device for offline listening (browser only). Each download is its audio,
 * cover, chapters and transcript in the Cache Storage cache the service worker answers from
 * (public/service-worker.js, "spin-downloads", with Range support), plus one record under
 * RECORD_PREFIX written last: an episode is listed only once everything it needs is stored, and a
 * download that fails part-way removes what it had stored.
 */

export const DOWNLOADS_CACHE = "spin-downloads";
const RECORD_PREFIX = "/offline-downloads/";
/** All downloads together may use this much of the device (the downloads page shows it). */
export const DOWNLOAD_LIMIT_BYTES = 500 * 1024 * 1024;

export interface DownloadableEpisode {
  id: number;
  title: string;
  audioUrl: string;
  coverUrl: string;
  durationSeconds: number;
  chapters: boolean;
  transcript: boolean;
}

export interface Download extends DownloadableEpisode {
  /** Bytes stored for it (audio, cover, chapters and transcript). */
  bytes: number;
  downloadedAt: string;
}

export type DownloadRefusal = "unsupported" | "tooBig" | "failed";

export class DownloadError extends Error {
  constructor(readonly reason: DownloadRefusal) {
    super(reason);
  }
}

/** Whether this browser can keep and play downloads (Cache Storage and a service worker). */
export function canDownload(): boolean {
  return typeof caches !== "undefined" && "serviceWorker" in navigator;
}

const recordUrl = (id: number) => `${RECORD_PREFIX}${id}`;

function partsOf(episode: DownloadableEpisode): string[] {
  return [
    episode.audioUrl,
    episode.coverUrl,
    ...(episode.chapters ? [`/podcast/chapters/${episode.id}`] : []),
    ...(episode.transcript ? [`/podcast/transcript/${episode.id}`] : []),
  ];
}

/** Every complete download on this device, newest first. */
export async function listDownloads(): Promise<Download[]> {
  if (!canDownload()) return [];
  const cache = await caches.open(DOWNLOADS_CACHE);
  const records = (await cache.keys()).filter((request) => new URL(request.url).pathname.startsWith(RECORD_PREFIX));
  const downloads = await Promise.all(records.map(async (request) => (await cache.match(request))?.json() as Promise<Download> | undefined));
  return downloads.filter((download): download is Download => Boolean(download)).sort((a, b) => b.downloadedAt.localeCompare(a.downloadedAt));
}

export async function isDownloaded(id: number): Promise<boolean> {
  if (!canDownload()) return false;
  return Boolean(await (await caches.open(DOWNLOADS_CACHE)).match(recordUrl(id)));
}

/** Bytes all downloads use together. */
export async function downloadedBytes(): Promise<number> {
  return (await listDownloads()).reduce((sum, download) => sum + download.bytes, 0);
}

/**
 * Stores an episode for offline listening. Refuses (DownloadError) when the browser cannot,
 * when it would take the downloads past DOWNLOAD_LIMIT_BYTES, or when a part fails to arrive;
 * in every refusal nothing of it stays stored.
 */
export async function downloadEpisode(episode: DownloadableEpisode): Promise<Download> {
  if (!canDownload()) throw new DownloadError("unsupported");
  const cache = await caches.open(DOWNLOADS_CACHE);
  const parts = partsOf(episode);
  const stored: string[] = [];
  try {
    let bytes = 0;
    const budget = DOWNLOAD_LIMIT_BYTES - (await downloadedBytes());
    for (const url of parts) {
      const response = await fetch(url, { cache: "no-store" });
      if (!response.ok) throw new DownloadError("failed");
      // Read whole so the size is known before it counts; the audio is at most the upload limit.
      const body = await response.blob();
      bytes += body.size;
      if (bytes > budget) throw new DownloadError("tooBig");
      const headers = { "Content-Type": response.headers.get("Content-Type") ?? "application/octet-stream", "Content-Length": String(body.size) };
      await cache.put(url, new Response(body, { headers }));
      stored.push(url);
    }
    const download: Download = { ...episode, bytes, downloadedAt: new Date().toISOString() };
    await cache.put(recordUrl(episode.id), Response.json(download));
    // Ask the browser not to evict the downloads under storage pressure (it may still say no).
    void navigator.storage?.persist?.().catch(() => false);
    return download;
  } catch (error) {
    await Promise.all(stored.map((url) => cache.delete(url)));
    throw error instanceof DownloadError ? error : new DownloadError("failed");
  }
}

/** Removes a download: its record first (so it is no longer listed), then its files. */
export async function removeDownload(id: number): Promise<void> {
  if (!canDownload()) return;
  const cache = await caches.open(DOWNLOADS_CACHE);
  const record = await cache.match(recordUrl(id));
  if (!record) return;
  const download = (await record.json()) as Download;
  await cache.delete(recordUrl(id));
  // A cover another download shares stays.
  const others = await listDownloads();
  const stillUsed = new Set(others.flatMap(partsOf));
  await Promise.all(
    partsOf(download)
      .filter((url) => !stillUsed.has(url))
      .map((url) => cache.delete(url)),
  );
}

/** "12.3 MB" in the page's language. */
export function formatBytes(bytes: number, locale: string): string {
  const megabytes = bytes / (1024 * 1024);
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: megabytes < 10 ? 1 : 0 }).format(megabytes)} MB`;
}
