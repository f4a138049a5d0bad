import { safeRedirect } from "./safe-redirect";
import { sameSitePath } from "./same-site-path";

// Where a browser goes when it follows the answer as a Location header from this site.
const followed = (location: string) => new URL(location, "https://station.example/login");

describe("safeRedirect", () => {
  it.each([
    "//evil.example",
    "/\\evil.example",
    "/\t/evil.example",
    "/%2F%2Fevil.example",
    "/.//evil.example",
    "/%2e//evil.example",
    "/%2e%2e//evil.example",
    "/x/..//evil.example",
    "/x/%2E%2E/\\evil.example",
    "/./\t/evil.example",
    "/a/b/../..//evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
  ])("keeps %j on the site", (hostile) => {
    const answer = safeRedirect(hostile, "/listen");
    expect(followed(answer).origin).toBe("https://station.example");
    expect(answer.startsWith("//")).toBe(false);
  });

  it("keeps real destinations as they are (query and fragment included)", () => {
    expect(safeRedirect("/favorites?sort=new#top", "/listen")).toBe("/favorites?sort=new#top");
    expect(safeRedirect("/play/3?t=90", "/listen")).toBe("/play/3?t=90");
    expect(safeRedirect("/a/../schedule", "/listen")).toBe("/schedule");
  });
});

describe("sameSitePath", () => {
  it.each([
    ["//evil.example/listen", "/evil.example/listen"],
    ["///evil.example", "/evil.example"],
    ["/\\evil.example/x", "/evil.example/x"],
    ["\\\\evil.example", "/evil.example"],
    ["/listen", "/listen"],
    ["/shows/late-night", "/shows/late-night"],
    ["/", "/"],
  ])("keeps %s on this site as %s", (path, expected) => {
    expect(sameSitePath(path)).toBe(expected);
    // As a browser reads the link: still this site.
    expect(new URL(sameSitePath(path), "https://radio.example").origin).toBe("https://radio.example");
  });
});
