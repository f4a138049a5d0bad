import { embedSourceLink } from "./embed-links";

describe("embedSourceLink", () => {
  it.each([
    ["https://open.spotify.com/embed/track/4cOdK2wGLETKBW3PvgPWqT", "Spotify", "https://open.spotify.com/track/4cOdK2wGLETKBW3PvgPWqT"],
    ["https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ", "YouTube", "https://www.youtube.com/watch?v=dQw4w9WgXcQ"],
    [
      "https://w.soundcloud.com/player/?url=https%3A%2F%2Fsoundcloud.com%2Fspin-radio%2Fnight-drive",
      "SoundCloud",
      "https://soundcloud.com/spin-radio/night-drive",
    ],
    ["https://w.soundcloud.com/player/?url=https%3A%2F%2Fsoundcloud.com%2Fspin-radio%2Fsets%2Fmix", "SoundCloud", "https://soundcloud.com/spin-radio/sets/mix"],
  ])("opens %s's content on its service's page", (src, name, href) => {
    expect(embedSourceLink(src)).toEqual({ name, href });
  });

  it.each([
    // The official embed code's API address, another host or a script behind the widget: the player itself.
    "https://w.soundcloud.com/player/?url=https%3A//api.soundcloud.com/tracks/123456&color=%23ff5500",
    "https://w.soundcloud.com/player/?url=https%3A%2F%2Fevil.test%2Fa%2Fb",
    "https://w.soundcloud.com/player/?url=javascript%3Aalert(1)%2F%2Fsoundcloud.com%2Fa%2Fb",
    "https://w.soundcloud.com/player/?url=https%3A%2F%2Fsoundcloud.com.evil.test%2Fa%2Fb",
  ])("keeps the SoundCloud player's own address for %s", (src) => {
    expect(embedSourceLink(src)).toEqual({ name: "SoundCloud", href: src });
  });
});
