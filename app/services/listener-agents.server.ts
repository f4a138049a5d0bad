import { isbot } from "isbot";

/**
 * What a listener's user agent says about the client: the podcast app, player or browser, the kind
 * of device, and whether it is a robot. Podcast apps are recognised by the user agents their
 * makers document (as collected by the Open Podcast Analytics Working Group); browsers last,
 * because many apps put a browser's words in theirs.
 */
export interface ListenerAgent {
  app: string;
  device: "phone" | "tablet" | "desktop" | "speaker" | "watch" | "tv" | "car" | "other";
  bot: boolean;
}

// Podcast services' own fetchers (feed parsers, ingest, chart and index crawlers) that download
// episodes without a person listening (isbot does not know most of them), and the station's own
// reader of its stream (STATION_FOLLOWER_AGENT in stream-metadata.server.ts).
const PODCAST_BOTS =
  /podcastindex|podchaser|listennotes|listen notes|podnews|feed ?parser|podcast sync|itms|podbean\/feedupdate|castopod|podfriend|podlink|chartable|op3\.dev|podtrac|feedpress|feedburner|^spotify\/1\.0|gpodder\.net|podscribe|headliner|podcastsapi|podkite|rephonic|buzzsprout|audioboom|fyyd|trackable|podcast ?crawler|podcast-?sync|SPIN-RADIO-station-follower/i;

// First match wins: more specific names before the general ones they contain.
const APPS: [RegExp, string][] = [
  [/^Podcasts\/|\bApplePodcasts\b|^iTunes\/|AppleCoreMedia\/.*\((iPhone|iPad|Macintosh|Apple ?TV|Watch)/i, "Apple Podcasts"],
  [/^Spotify\//i, "Spotify"],
  [/Overcast/i, "Overcast"],
  [/Pocket ?Casts/i, "Pocket Casts"],
  [/^Castro/i, "Castro"],
  [/AntennaPod/i, "AntennaPod"],
  [/PodcastAddict/i, "Podcast Addict"],
  [/Podcast ?Guru/i, "Podcast Guru"],
  [/Podcast ?Republic/i, "Podcast Republic"],
  [/CastBox/i, "Castbox"],
  [/Player ?FM/i, "Player FM"],
  [/Podbean/i, "Podbean"],
  [/Podverse/i, "Podverse"],
  [/Fountain/i, "Fountain"],
  [/Deezer/i, "Deezer"],
  [/iHeartRadio/i, "iHeartRadio"],
  [/Stitcher/i, "Stitcher"],
  [/Amazon ?Music|AmazonMusic|Alexa|Echo\//i, "Amazon Music / Alexa"],
  [/Google-?Podcast|GSA\/.*Podcast/i, "Google Podcasts"],
  [/TuneIn/i, "TuneIn"],
  [/radio\.garden|RadioGarden/i, "Radio Garden"],
  [/Sonos/i, "Sonos"],
  [/VLC|LibVLC/i, "VLC"],
  [/\bmpv\b/i, "mpv"],
  [/foobar2000/i, "foobar2000"],
  [/Winamp/i, "Winamp"],
  [/^Lavf\//i, "FFmpeg"],
  [/^curl\//i, "curl"],
  [/^Wget/i, "Wget"],
  [/SamsungBrowser/i, "Samsung Internet"],
  [/Edg(e|A|iOS)?\//i, "Edge"],
  [/OPR\/|Opera/i, "Opera"],
  [/Firefox\/|FxiOS/i, "Firefox"],
  [/Chrome\/|CriOS|Chromium/i, "Chrome"],
  [/Safari\//i, "Safari"],
  [/AppleCoreMedia/i, "Apple (other)"],
];

export const OTHER_APP = "Other";

function deviceOf(ua: string): ListenerAgent["device"] {
  if (/Watch|watchOS|Wear ?OS/i.test(ua)) return "watch";
  if (/CarPlay|Android ?Auto|\bcar\b/i.test(ua)) return "car";
  if (/Sonos|Alexa|Echo\/|HomePod|Google ?Home|Nest|Bose|Speaker/i.test(ua)) return "speaker";
  if (/Apple ?TV|tvOS|SmartTV|SMART-TV|CrKey|Roku|AFT[A-Z]|\bTV\b/i.test(ua)) return "tv";
  // A browser on Android says "Mobile" on phones only; apps name Android alone and are mostly on phones.
  if (/iPad|Tablet/i.test(ua) || (/^Mozilla/.test(ua) && /Android(?!.*Mobile)/i.test(ua))) return "tablet";
  if (/iPhone|iPod|\biOS\b|Mobile|Android|Windows Phone/i.test(ua)) return "phone";
  if (/Windows|Macintosh|Mac OS X|X11|Linux|CrOS/i.test(ua)) return "desktop";
  return "other";
}

export function classifyListenerAgent(userAgent: string | null | undefined): ListenerAgent {
  const ua = (userAgent ?? "").slice(0, 512).trim();
  // No user agent at all is what scripts send: IAB v2.1 leaves those out too.
  if (ua === "") return { app: OTHER_APP, device: "other", bot: true };
  const app = APPS.find(([pattern]) => pattern.test(ua))?.[1] ?? OTHER_APP;
  // isbot takes many podcast apps for robots (their user agents carry a URL): a recognised app or
  // player is a robot only when it is one of the podcast services' fetchers; browsers and unknown
  // clients are judged by isbot too (headless browsers, crawlers, monitors).
  const bot = PODCAST_BOTS.test(ua) || ((BROWSERS.has(app) || app === OTHER_APP || app === "curl" || app === "Wget") && isbot(ua));
  return { app, device: deviceOf(ua), bot };
}

const BROWSERS = new Set(["Samsung Internet", "Edge", "Opera", "Firefox", "Chrome", "Safari"]);
