import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { buildPodcastFeed } from "~/models/episodes.server";

// GET /podcast.xml — the feed podcast apps subscribe to.
export async function loader({ request }: LoaderFunctionArgs) {
  const feed = await buildPodcastFeed(request.url);
  // Under an address the station used before: apps follow a permanent redirect to the new feed URL.
  if ("redirectTo" in feed) throw redirect(feed.redirectTo, 301);
  return new Response(feed.xml, {
    headers: {
      "Content-Type": "application/rss+xml; charset=utf-8",
      // Apps poll feeds often; a few minutes of caching spares the storage checks.
      "Cache-Control": "public, max-age=300",
    },
  });
}
