import { embedCodeFromShareLink } from "./embed-share-link";

const everyHost = () => true;
const titleFor = (service: string) => `${service} player`;
const convert = (link: string) => embedCodeFromShareLink(link, everyHost, titleFor);
const src = (code: string | null) => code?.match(/src="([^"]*)"/)?.[1] ?? null;

const SPOTIFY_ID = "4cOdK2wGLETKBW3PvgPWqT";
const YOUTUBE_ID = "dQw4w9WgXcQ";

describe("embedCodeFromShareLink", () => {
  it.each([
    [`https://open.spotify.com/track/${SPOTIFY_ID}`, `https://open.spotify.com/embed/track/${SPOTIFY_ID}`],
    [`https://open.spotify.com/track/${SPOTIFY_ID}?si=a1b2c3d4e5f6`, `https://open.spotify.com/embed/track/${SPOTIFY_ID}`],
    [`https://open.spotify.com/intl-id/track/${SPOTIFY_ID}?si=x`, `https://open.spotify.com/embed/track/${SPOTIFY_ID}`],
    [`https://open.spotify.com/intl-pt-BR/album/${SPOTIFY_ID}`, `https://open.spotify.com/embed/album/${SPOTIFY_ID}`],
    [`https://open.spotify.com/playlist/${SPOTIFY_ID}/`, `https://open.spotify.com/embed/playlist/${SPOTIFY_ID}`],
    [`https://open.spotify.com/episode/${SPOTIFY_ID}`, `https://open.spotify.com/embed/episode/${SPOTIFY_ID}`],
    [`  https://open.spotify.com/show/${SPOTIFY_ID}\n`, `https://open.spotify.com/embed/show/${SPOTIFY_ID}`],
    [`HTTPS://OPEN.SPOTIFY.COM/track/${SPOTIFY_ID}`, `https://open.spotify.com/embed/track/${SPOTIFY_ID}`],
  ])("turns the Spotify link %s into its player", (link, expected) => {
    expect(src(convert(link))).toBe(expected);
  });

  it("gives Spotify's compact player to a track and its list player to an album, named after the service", () => {
    expect(convert(`https://open.spotify.com/track/${SPOTIFY_ID}`)).toBe(
      `<iframe src="https://open.spotify.com/embed/track/${SPOTIFY_ID}" title="Spotify player" width="100%" height="152" allow="autoplay; clipboard-write; encrypted-media; fullscreen; picture-in-picture"></iframe>`,
    );
    expect(convert(`https://open.spotify.com/album/${SPOTIFY_ID}`)).toContain('height="352"');
  });

  it.each([
    `https://www.youtube.com/watch?v=${YOUTUBE_ID}`,
    `https://youtube.com/watch?v=${YOUTUBE_ID}&t=42s`,
    `https://m.youtube.com/watch?feature=share&v=${YOUTUBE_ID}`,
    `https://music.youtube.com/watch?v=${YOUTUBE_ID}&si=abc`,
    `https://youtu.be/${YOUTUBE_ID}`,
    `https://youtu.be/${YOUTUBE_ID}?si=AbCdEf`,
    `https://www.youtube.com/shorts/${YOUTUBE_ID}`,
    `https://www.youtube.com/live/${YOUTUBE_ID}?feature=shared`,
  ])("turns the YouTube link %s into the cookie-free player", (link) => {
    expect(src(convert(link))).toBe(`https://www.youtube-nocookie.com/embed/${YOUTUBE_ID}`);
  });

  it("uses YouTube's own player host when the station does not allow the cookie-free one", () => {
    const code = embedCodeFromShareLink(`https://youtu.be/${YOUTUBE_ID}`, (host) => host === "www.youtube.com", titleFor);
    expect(src(code)).toBe(`https://www.youtube.com/embed/${YOUTUBE_ID}`);
  });

  it.each([
    ["https://soundcloud.com/some-artist/a_track-01", "https%3A%2F%2Fsoundcloud.com%2Fsome-artist%2Fa_track-01", "166"],
    ["https://m.soundcloud.com/some-artist/a-track?si=123&utm_source=clipboard", "https%3A%2F%2Fsoundcloud.com%2Fsome-artist%2Fa-track", "166"],
    ["https://soundcloud.com/some-artist/sets/summer-mix", "https%3A%2F%2Fsoundcloud.com%2Fsome-artist%2Fsets%2Fsummer-mix", "450"],
  ])("turns the SoundCloud link %s into its widget", (link, encoded, height) => {
    const code = convert(link);
    expect(src(code)).toBe(`https://w.soundcloud.com/player/?url=${encoded}`);
    expect(code).toContain(`height="${height}"`);
  });

  it.each([
    ["embed code", `<iframe src="https://open.spotify.com/embed/track/${SPOTIFY_ID}"></iframe>`],
    ["plain text", "just some words"],
    ["empty input", "   "],
    ["a javascript: link", "javascript:alert(1)"],
    ["a javascript: link dressed as Spotify", `javascript://open.spotify.com/track/${SPOTIFY_ID}%0aalert(1)`],
    ["a data: link", "data:text/html,<script>alert(1)</script>"],
    ["a link without a scheme", `open.spotify.com/track/${SPOTIFY_ID}`],
    ["a protocol-relative link", `//open.spotify.com/track/${SPOTIFY_ID}`],
    ["an ftp link", `ftp://open.spotify.com/track/${SPOTIFY_ID}`],
    ["a lookalike host (suffix)", `https://open.spotify.com.evil.test/track/${SPOTIFY_ID}`],
    ["a lookalike host (prefix)", `https://evilopen.spotify.com/track/${SPOTIFY_ID}`],
    ["a lookalike host (trailing dot)", `https://open.spotify.com./track/${SPOTIFY_ID}`],
    ["a lookalike host (other TLD)", `https://youtube.co/watch?v=${YOUTUBE_ID}`],
    ["a lookalike host (letters swapped)", `https://soundclound.com/artist/track`],
    ["a lookalike host (punycode)", `https://xn--yutube-wqf.com/watch?v=${YOUTUBE_ID}`],
    ["the allowed name as the user part", `https://open.spotify.com@evil.test/track/${SPOTIFY_ID}`],
    ["credentials before an allowed host", `https://user:pw@open.spotify.com/track/${SPOTIFY_ID}`],
    ["a backslash hiding another host", `https://evil.test\\@open.spotify.com/track/${SPOTIFY_ID}`],
    ["a port", `https://open.spotify.com:8443/track/${SPOTIFY_ID}`],
    ["whitespace inside", `https://open.spotify.com/track/ ${SPOTIFY_ID}`],
    ["a tab inside", `https://youtu.be/\t${YOUTUBE_ID}`],
    ["an overlong link", `https://open.spotify.com/track/${SPOTIFY_ID}?si=${"a".repeat(600)}`],
    ["a Spotify id too short", "https://open.spotify.com/track/4cOdK2wGLETKBW3PvgPWq"],
    ["a Spotify id too long", `https://open.spotify.com/track/${SPOTIFY_ID}x`],
    ["a Spotify id with a quote", `https://open.spotify.com/track/4cOdK2wGLETKBW3PvgPW"q`],
    ["a Spotify id percent-encoded", "https://open.spotify.com/track/4cOdK2wGLETKBW3PvgPW%22q"],
    ["a Spotify type not offered", `https://open.spotify.com/artist/${SPOTIFY_ID}`],
    ["a Spotify link with an extra segment", `https://open.spotify.com/track/${SPOTIFY_ID}/more`],
    ["a Spotify path with a doubled slash", `https://open.spotify.com//track/${SPOTIFY_ID}`],
    ["a Spotify locale segment that is not one", `https://open.spotify.com/evil/track/${SPOTIFY_ID}`],
    ["a Spotify short link", "https://spotify.link/AbCdEfGhIjK"],
    ["a YouTube id too short", "https://youtu.be/dQw4w9WgXc"],
    ["a YouTube id with a slash", `https://www.youtube.com/watch?v=${YOUTUBE_ID.slice(0, 10)}/`],
    ["a YouTube id with markup", 'https://www.youtube.com/watch?v=dQw4w9"><svg'],
    ["two YouTube ids", `https://www.youtube.com/watch?v=${YOUTUBE_ID}&v=aaaaaaaaaaa`],
    ["a YouTube watch page without an id", "https://www.youtube.com/watch"],
    ["a YouTube channel", "https://www.youtube.com/@station"],
    ["a YouTube playlist", "https://www.youtube.com/playlist?list=PL1234567890"],
    ["youtu.be with a path", `https://youtu.be/${YOUTUBE_ID}/extra`],
    ["a SoundCloud artist page", "https://soundcloud.com/some-artist"],
    ["a SoundCloud artist's likes", "https://soundcloud.com/some-artist/likes"],
    ["a SoundCloud name with markup", "https://soundcloud.com/some-artist/<script>"],
    ["a SoundCloud name percent-encoded", "https://soundcloud.com/some-artist/a%26url%3Dhttps%3A%2F%2Fevil.test"],
    ["a SoundCloud short link", "https://on.soundcloud.com/AbCdE"],
    ["a SoundCloud link too deep", "https://soundcloud.com/a/b/c/d"],
  ])("leaves %s alone (null)", (_label, input) => {
    expect(convert(input)).toBeNull();
  });

  it("escapes the title it is given", () => {
    const code = embedCodeFromShareLink(`https://youtu.be/${YOUTUBE_ID}`, everyHost, () => 'a "quoted" <b> & title');
    expect(code).toContain('title="a &quot;quoted&quot; &lt;b&gt; &amp; title"');
  });

  it("builds the player address from the parsed id only, never from the query", () => {
    const code = convert(`https://open.spotify.com/track/${SPOTIFY_ID}?si="><script>alert(1)</script>`);
    expect(code).not.toMatch(/script|alert|si=/);
    expect(src(code)).toBe(`https://open.spotify.com/embed/track/${SPOTIFY_ID}`);
  });
});
