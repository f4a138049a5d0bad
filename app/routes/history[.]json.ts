import type { LoaderFunctionArgs } from "@remix-run/node";
import { requestTranslator } from "~/i18n/language.server";
import { listSongsBetween } from "~/models/song-history.server";

const MAX_SONGS = 1000;

function instant(value: string | null): Date | null | "invalid" {
  if (!value) return null;
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  return Number.isNaN(date.getTime()) ? "invalid" : date;
}

// GET /history.json?from=&to=&q= — the song history for other tools: ISO 8601 times (or dates, UTC), newest first, at most 1000 songs.
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const from = instant(url.searchParams.get("from"));
  const to = instant(url.searchParams.get("to"));
  const headers = { "Cache-Control": "no-store", "Access-Control-Allow-Origin": "*" };
  if (from === "invalid" || to === "invalid") {
    return Response.json({ error: (await requestTranslator(request)).t("schedule.historyJsonInvalid") }, { status: 400, headers });
  }
  const q = (url.searchParams.get("q") ?? "").slice(0, 100);
  const songs = await listSongsBetween({ from, to, q, limit: MAX_SONGS + 1 });
  return Response.json(
    { from: from?.toISOString() ?? null, to: to?.toISOString() ?? null, q, truncated: songs.length > MAX_SONGS, songs: songs.slice(0, MAX_SONGS) },
    { headers },
  );
}
