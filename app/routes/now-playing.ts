import { getNowPlaying } from "~/models/now-playing.server";

// The same state the server pushes as `nowplaying:changed`, for clients without socket.io.
export async function loader() {
  return Response.json(getNowPlaying(), { headers: { "Cache-Control": "no-store" } });
}
