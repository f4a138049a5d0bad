import { getStationIdentity } from "~/models/station.server";
import { podcastArtwork } from "~/services/artwork.server";

// GET /podcast-artwork.jpg — the show's square artwork, as podcast directories require (JPEG, 1400 px or more).
export async function loader() {
  return new Response(new Uint8Array(await podcastArtwork(getStationIdentity())), {
    headers: { "Content-Type": "image/jpeg", "Cache-Control": "public, max-age=86400" },
  });
}
