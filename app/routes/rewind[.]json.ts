import { getOnAir } from "~/models/schedule.server";
import { rewindUsage } from "~/models/rewind.server";

// What the player's rewind controls need: the window's start and the show on air (to start it from its beginning).
export async function loader() {
  const now = new Date();
  const [usage, onAir] = await Promise.all([rewindUsage(), getOnAir(now)]);
  const show = onAir.now ? { name: onAir.now.name, start: onAir.now.start.toISOString() } : null;
  return Response.json({ windowStart: usage.oldest?.toISOString() ?? null, show }, { headers: { "Cache-Control": "no-store" } });
}
