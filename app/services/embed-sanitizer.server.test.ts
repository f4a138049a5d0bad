import { serverI18n } from "~/i18n/catalogs.server";
import { translateMessage } from "~/i18n/keyed";
import { translator } from "~/i18n/translate";
import { ConfigError, DEFAULT_EMBED_ALLOWED_HOSTS, loadConfig } from "~/services/config.server";
import { EMBED_SANDBOX, isAllowedEmbedHost, sanitizeEmbed } from "~/services/embed-sanitizer.server";

const hosts = DEFAULT_EMBED_ALLOWED_HOSTS;
// Refusals are keyed messages (translated for the admin by the route); read here as an English admin would.
const english = translator(serverI18n("en")).t;
const check = (code: string, allowList = hosts) => {
  const result = sanitizeEmbed(code, allowList);
  return result.ok ? result : { ...result, error: translateMessage(result.error, english) };
};

describe("sanitizeEmbed", () => {
  it("keeps a Spotify player, rebuilt from safe attributes only and sandboxed", () => {
    const result = check(
      `<iframe style="border-radius:12px" src="https://open.spotify.com/embed/episode/7makk4oTQel546B0PZlDM5?utm_source=generator" width="100%" height="152" frameBorder="0" allowfullscreen="" allow="autoplay; clipboard-write; encrypted-media; fullscreen; picture-in-picture; camera; geolocation" loading="lazy" onload="alert(1)"></iframe>`,
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.host).toBe("open.spotify.com");
    expect(result.attributes).toEqual({
      src: "https://open.spotify.com/embed/episode/7makk4oTQel546B0PZlDM5?utm_source=generator",
      // No title of its own: one in the station's language (STATION_LANGUAGE, by default Indonesian), stored with the code.
      title: "Pemutar dari open.spotify.com",
      width: "100%",
      height: "152",
      allow: "autoplay; clipboard-write; encrypted-media; fullscreen; picture-in-picture",
      allowFullScreen: true,
    });
    expect(result.code).toBe(
      `<iframe src="https://open.spotify.com/embed/episode/7makk4oTQel546B0PZlDM5?utm_source=generator" title="Pemutar dari open.spotify.com" width="100%" height="152" allow="autoplay; clipboard-write; encrypted-media; fullscreen; picture-in-picture" allowfullscreen loading="lazy" sandbox="${EMBED_SANDBOX}" referrerpolicy="strict-origin-when-cross-origin"></iframe>`,
    );
    expect(result.code).not.toMatch(/style|onload|camera|geolocation|frameBorder/i);
  });

  it.each([
    ["YouTube", '<iframe width="560" height="315" src="https://www.youtube.com/embed/dQw4w9WgXcQ" title="YouTube video player" allowfullscreen></iframe>'],
    [
      "SoundCloud",
      "<iframe width='100%' height='166' scrolling='no' src='https://w.soundcloud.com/player/?url=https%3A//api.soundcloud.com/tracks/1&amp;color=%23ff5500'></iframe>",
    ],
    ["Apple Music", '<iframe allow="autoplay *; encrypted-media *;" height="175" src="https://embed.music.apple.com/us/album/x/1?i=2"></iframe>'],
    ["Deezer", '<iframe title="deezer-widget" src="https://widget.deezer.com/widget/dark/track/3135556" width="100%" height="300"></iframe>'],
    ["Mixcloud", '<iframe width="100%" height="120" src="https://player-widget.mixcloud.com/widget/iframe/?feed=%2Fx%2Fy%2F" />'],
  ])("accepts a %s player", (_service, code) => {
    const result = check(code);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.code).toContain(`sandbox="${EMBED_SANDBOX}"`);
  });

  it("decodes entities in the src once and re-escapes them on output", () => {
    const result = check("<iframe src='https://w.soundcloud.com/player/?url=a&amp;b=&quot;c&quot;'></iframe>");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.attributes.src).toBe("https://w.soundcloud.com/player/?url=a&b=%22c%22");
    expect(result.code).toContain('src="https://w.soundcloud.com/player/?url=a&amp;b=%22c%22"');
  });

  it.each([
    ["a script", "<script>alert(1)</script>"],
    ["plain text", "hello"],
    ["an http player", '<iframe src="http://open.spotify.com/embed/x"></iframe>'],
    ["a host not on the list", '<iframe src="https://evil.example/embed"></iframe>'],
    ["a look-alike host", '<iframe src="https://open.spotify.com.evil.example/embed"></iframe>'],
    ["a javascript: src", '<iframe src="javascript:alert(1)"></iframe>'],
    ["a data: src", '<iframe src="data:text/html,<script>alert(1)</script>"></iframe>'],
    ["srcdoc", '<iframe srcdoc="<script>alert(1)</script>" src="https://open.spotify.com/embed/x"></iframe>'],
    ["two iframes", '<iframe src="https://open.spotify.com/a"></iframe><iframe src="https://open.spotify.com/b"></iframe>'],
    ["markup after the iframe", '<iframe src="https://open.spotify.com/a"></iframe><img src=x onerror=alert(1)>'],
    ["markup before the iframe", '<p>Hi</p><iframe src="https://open.spotify.com/a"></iframe>'],
    ["an iframe without src", "<iframe></iframe>"],
    ["a duplicated src", '<iframe src="https://open.spotify.com/a" src="https://evil.example/"></iframe>'],
    ["credentials in the address", '<iframe src="https://user:pw@open.spotify.com/a"></iframe>'],
    ["a port", '<iframe src="https://open.spotify.com:8443/a"></iframe>'],
    ["another tag", '<object data="https://open.spotify.com/a"></object>'],
    ["an unclosed attribute", '<iframe src="https://open.spotify.com/a></iframe>'],
    ["a huge paste", `<iframe src="https://open.spotify.com/${"a".repeat(5000)}"></iframe>`],
  ])("refuses %s, saying what is accepted", (_label, code) => {
    const result = check(code);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatch(/Only a single <iframe> player with an https address from open\.spotify\.com, www\.youtube\.com/);
  });

  it("names the refused host", () => {
    const result = check('<iframe src="https://evil.example/embed"></iframe>');
    expect(result.ok ? "" : result.error).toContain("Players from evil.example are not allowed.");
  });

  it("follows a configured allow-list, with *. entries covering subdomains", () => {
    const custom = ["*.example.com", "player.radio.test"];
    expect(check('<iframe src="https://open.spotify.com/a"></iframe>', custom).ok).toBe(false);
    expect(check('<iframe src="https://w.example.com/a"></iframe>', custom).ok).toBe(true);
    expect(check('<iframe src="https://example.com/a"></iframe>', custom).ok).toBe(true);
    expect(check('<iframe src="https://badexample.com/a"></iframe>', custom).ok).toBe(false);
    expect(check('<iframe src="https://x.player.radio.test/a"></iframe>', custom).ok).toBe(false);
    expect(isAllowedEmbedHost("PLAYER.RADIO.TEST", custom)).toBe(true);
  });
});

describe("EMBED_ALLOWED_HOSTS", () => {
  it("defaults to Spotify, YouTube, SoundCloud, Apple Music, Deezer and Mixcloud", () => {
    const { embedAllowedHosts } = loadConfig({});
    for (const host of [
      "open.spotify.com",
      "www.youtube.com",
      "w.soundcloud.com",
      "embed.music.apple.com",
      "widget.deezer.com",
      "player-widget.mixcloud.com",
    ]) {
      expect(embedAllowedHosts).toContain(host);
    }
  });

  it("reads a comma-separated list, lower-cased", () => {
    expect(loadConfig({ EMBED_ALLOWED_HOSTS: " Open.Spotify.com, *.bandcamp.com ," }).embedAllowedHosts).toEqual(["open.spotify.com", "*.bandcamp.com"]);
  });

  it.each(["https://open.spotify.com", "open.spotify.com/embed", "*", "localhost", "a..b", "*.*.com", "exa mple.com"])(
    "refuses %j with a clear message",
    (value) => {
      expect(() => loadConfig({ EMBED_ALLOWED_HOSTS: value })).toThrow(ConfigError);
      expect(() => loadConfig({ EMBED_ALLOWED_HOSTS: value })).toThrow(/EMBED_ALLOWED_HOSTS must be host names/);
    },
  );
});
