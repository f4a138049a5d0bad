import type { LoaderFunctionArgs } from "@remix-run/node";
import { buildPodcastFeed } from "~/models/episodes.server";
import { publicBaseUrl } from "~/services/feeds.server";

// GET /podcast.xml — the feed podcast apps subscribe to.
export async function loader({ request }: LoaderFunctionArgs) {
  const xml = await buildPodcastFeed((await publicBaseUrl(request)));
  return new Response(xml, {
    headers: {
      "Content-Type": "application/rss+xml; charset=utf-8",
      // Apps poll feeds often; a few minutes of caching spares the storage checks.
      "Cache-Control": "public, max-age=300",
    },
  });
}
