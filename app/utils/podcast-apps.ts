/** A link that subscribes to the podcast feed: the feed itself, or a podcast app given its URL. */
export interface SubscribeLink {
  name: string;
  href: string;
}

/**
 * The feed and the apps that subscribe to any feed URL handed to them (no directory listing needed):
 * each app's documented subscribe link, built from the canonical feed URL.
 */
export function subscribeLinks(feedUrl: string): SubscribeLink[] {
  const withoutScheme = feedUrl.replace(/^https?:\/\//, "");
  const encoded = encodeURIComponent(feedUrl);
  return [
    { name: "RSS", href: feedUrl },
    { name: "Apple Podcasts", href: `podcast://${withoutScheme}` },
    { name: "Overcast", href: `overcast://x-callback-url/add?url=${encoded}` },
    { name: "Pocket Casts", href: `pktc://subscribe/${withoutScheme}` },
    { name: "AntennaPod", href: `https://antennapod.org/deeplink/subscribe?url=${encoded}` },
    { name: "Podcast Addict", href: `podcastaddict://${withoutScheme}` },
  ];
}
