// Any host name stands in as the base: a destination is accepted only if it stays on it.
const PROBE_ORIGIN = "http://redirect-check.invalid";

/**
 * The one check for every "go back to" destination (sign-in redirectTo,
 * favourites, PIN dialogs): only a path on this site. The text is first
 * normalised the way a browser reads a Location header — tabs and newlines
 * removed, backslashes taken as slashes, percent-escapes decoded for the
 * check — so `/\t/evil.example`, `/\\evil.example` or `/%2F%2Fevil.example`
 * cannot leave the site. Anything else, and any other control character,
 * goes to `fallback`. The result is the URL's own ASCII serialisation, so it
 * is always a valid header value.
 */
export function safeRedirect(to: unknown, fallback: string): string {
  if (typeof to !== "string" || to.length === 0 || to.length > 2000) return fallback;
  const stripped = to.replace(/[\t\n\r]/g, "");
  // Other C0 controls, DEL and the C1 range: no real link holds them.
  // eslint-disable-next-line no-control-regex -- control characters are what this matches
  if (/[\u0000-\u001f\u007f-\u009f]/.test(stripped)) return fallback;
  const slashed = stripped.replace(/\\/g, "/");
  if (!slashed.startsWith("/") || slashed.startsWith("//")) return fallback;
  let decoded: string;
  try {
    decoded = decodeURIComponent(slashed);
  } catch {
    return fallback;
  }
  // eslint-disable-next-line no-control-regex -- control characters are what this matches
  if (/[\u0000-\u001f\u007f-\u009f]/.test(decoded) || decoded.replace(/\\/g, "/").startsWith("//")) return fallback;
  let url: URL;
  try {
    url = new URL(slashed, PROBE_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PROBE_ORIGIN) return fallback;
  const result = url.pathname + url.search + url.hash;
  // Dot segments are resolved by the parse above: `/.//evil.example` or `/x/..//evil.example`
  // come out as `//evil.example`, which a browser reads as another host. The answer must itself
  // be a path that stays here when a browser follows it.
  if (result.startsWith("//") || new URL(result, PROBE_ORIGIN).origin !== PROBE_ORIGIN) return fallback;
  return result;
}
