import { classifyListenerAgent, OTHER_APP } from "./listener-agents.server";

// Real user agents as podcast apps, players, browsers and robots send them (the Open Podcast
// Analytics Working Group's list and the browsers' own documentation): what the audience screen
// shows per app and device, and what IAB v2.1 leaves out as a robot.
describe("a listener's user agent", () => {
  it.each([
    ["AppleCoreMedia/1.0.0.20E252 (iPhone; U; CPU OS 16_4_1 like Mac OS X; en_us)", "Apple Podcasts", "phone"],
    ["AppleCoreMedia/1.0.0.21T216 (Watch; U; CPU OS 10_4 like Mac OS X; en_gb)", "Apple Podcasts", "watch"],
    ["Spotify/8.8.12 iOS/16.5 (iPhone14,2)", "Spotify", "phone"],
    ["Overcast/3.0 (+http://overcast.fm/; iOS podcast app)", "Overcast", "phone"],
    ["PodcastAddict/v5 (+https://podcastaddict.com/; Android podcast app)", "Podcast Addict", "phone"],
    ["AntennaPod/3.2.0", "AntennaPod", "other"],
    ["Sonos/79.1-55014 (ZPS27)", "Sonos", "speaker"],
    ["AlexaMediaPlayer/2.1.4676.0 (Linux;Android 5.1.1) ExoPlayerLib/1.5.9", "Amazon Music / Alexa", "speaker"],
    ["VLC/3.0.18 LibVLC/3.0.18", "VLC", "other"],
    ["Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36", "Chrome", "phone"],
    ["Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36", "Chrome", "tablet"],
    [
      "Mozilla/5.0 (Linux; Android 13; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36",
      "Samsung Internet",
      "phone",
    ],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.80", "Edge", "desktop"],
    ["Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1", "Safari", "tablet"],
    ["Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", "Firefox", "desktop"],
  ])("%s is %s on a %s, a person", (userAgent, app, device) => {
    expect(classifyListenerAgent(userAgent)).toEqual({ app, device, bot: false });
  });

  it.each([
    ["Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"],
    ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.0.0 Safari/537.36"],
    ["PodcastIndex.org/v1.0"],
    ["Spotify/1.0"],
    ["iTMS"],
    ["curl/8.5.0"],
    ["SPIN-RADIO-station-follower/1"],
    [""],
  ])("%j is a robot", (userAgent) => {
    expect(classifyListenerAgent(userAgent).bot).toBe(true);
  });

  it("says Other for a client it does not know, and reads no further than the first 512 characters", () => {
    expect(classifyListenerAgent(null)).toEqual({ app: OTHER_APP, device: "other", bot: true });
    expect(classifyListenerAgent("MyRadioApp/2.0").app).toBe(OTHER_APP);
    // An app name past the first 512 characters is not read: nothing a client sends is scanned whole.
    expect(classifyListenerAgent(`${"x".repeat(600)} Overcast/3.0`).app).toBe(OTHER_APP);
    const started = process.cpuUsage();
    classifyListenerAgent(`Mozilla/5.0 ${"(".repeat(1_000_000)}`);
    const { user, system } = process.cpuUsage(started);
    expect((user + system) / 1000).toBeLessThan(500);
  });
});
