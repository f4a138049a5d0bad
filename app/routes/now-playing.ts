import { getNowPlaying } from "~/models/station.server";

// Browsers' <audio> cannot read ICY metadata, so the live player asks here.
export async function loader() {
  return Response.json({ title: await getNowPlaying() }, { headers: { "Cache-Control": "no-store" } });
}
