import type { Express } from "express";
import { buildLivePlaylist, getRewindSegment, listRewindSegments, segmentTimestampTag, type SegmentRow } from "~/models/rewind.server";
import { getStorage } from "~/services/storage.server";

// Every rewinding listener asks for the playlist every few seconds: one database read per second serves them all.
const PLAYLIST_TTL_MS = 1_000;

/**
 * The rewind window over HTTP: `/live.m3u8` (HLS, a sliding DVR window) and its segments at
 * `/live/segment/<sequence>.mp3`, each an MPEG audio elementary stream with the ID3 timestamp
 * HLS packed audio carries, so Safari, VLC, ffmpeg and hls.js all play it.
 */
export function mountRewindRoutes(app: Express): void {
  let cached: { at: number; body: Promise<string> } | null = null;
  const playlist = () => {
    if (!cached || Date.now() - cached.at > PLAYLIST_TTL_MS) {
      const body = listRewindSegments().then(buildLivePlaylist);
      body.catch(() => (cached = null));
      cached = { at: Date.now(), body };
    }
    return cached.body;
  };

  app.get("/live.m3u8", async (_req, res) => {
    try {
      const body = await playlist();
      res.status(200).set({ "Content-Type": "application/vnd.apple.mpegurl", "Cache-Control": "no-cache", "Access-Control-Allow-Origin": "*" }).send(body);
    } catch {
      res.status(503).set("Retry-After", "5").type("text/plain").send("The rewind window is not available right now");
    }
  });

  app.get(/^\/live\/segment\/(\d{1,10})\.mp3$/, async (req, res) => {
    const sequence = Number((req.params as Record<string, string>)[0]);
    let segment: SegmentRow | null;
    let stream: NodeJS.ReadableStream;
    try {
      segment = await getRewindSegment(sequence);
      if (!segment) return res.status(404).type("text/plain").send("Not found");
      stream = await getStorage().read(segment.key);
    } catch {
      return res.status(404).type("text/plain").send("Not found");
    }
    const tag = segmentTimestampTag(segment.startedAt);
    res.status(200).set({
      "Content-Type": "audio/mpeg",
      "Content-Length": String(tag.length + segment.size),
      // A segment never changes once written.
      "Cache-Control": "public, max-age=31536000, immutable",
      "Access-Control-Allow-Origin": "*",
    });
    if (req.method === "HEAD") return res.end();
    res.write(tag);
    stream.on("error", () => res.destroy());
    stream.pipe(res);
  });
}
