import { stationTranslator } from "~/i18n/catalogs.server";
import { keyedMessage } from "~/i18n/keyed";
import type { MessageKey, MessageValues } from "~/i18n/keys";
import { getConfig } from "./config.server";

/** What a chart embed is rendered from: only these attributes ever reach the page. */
export interface EmbedAttributes {
  src: string;
  title: string;
  width: string | null;
  height: string | null;
  allow: string | null;
  allowFullScreen: boolean;
}

export type EmbedCheck = { ok: true; code: string; attributes: EmbedAttributes; host: string } | { ok: false; error: string };

/** Every stored embed is sandboxed: the player runs scripts in its own origin and can open its links in a new tab. */
export const EMBED_SANDBOX = "allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox allow-presentation";
export const EMBED_REFERRER_POLICY = "strict-origin-when-cross-origin";

// Player features the allowed services ask for; anything else (camera, geolocation, ...) is dropped.
const ALLOWED_FEATURES = new Set(["autoplay", "clipboard-write", "encrypted-media", "fullscreen", "picture-in-picture", "web-share"]);
const MAX_CODE_LENGTH = 4000;
const SIZE = /^\d{1,4}(%|px)?$/;

const CLOSING_TAG = /^<\/iframe\s*>$/i;
const ATTRIBUTE = /\s*([a-zA-Z][a-zA-Z0-9_:-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/y;

function decodeEntities(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * One opening tag, its attributes, an optional closing tag, nothing else around it: the text of
 * the attributes, or null. Read by hand, in one pass: the pattern it replaces
 * (/^<iframe(\s[^<>]*?)?\s*\/?>\s*(<\/iframe\s*>)?$/i) backtracked quadratically on spaces.
 */
function iframeAttributes(code: string): string | null {
  if (code.slice(0, 7).toLowerCase() !== "<iframe") return null;
  const end = code.indexOf(">", 7);
  if (end === -1) return null;
  const inside = code.slice(7, end);
  if (inside.includes("<")) return null;
  const after = code.slice(end + 1).trim();
  if (after !== "" && !CLOSING_TAG.test(after)) return null;
  // A self-closing slash and the spaces before it are not attributes.
  const attributes = (inside.endsWith("/") ? inside.slice(0, -1) : inside).trimEnd();
  if (attributes !== "" && attributes.trimStart() === attributes) return null;
  return attributes;
}

function parseAttributes(source: string): Map<string, string> | null {
  const attributes = new Map<string, string>();
  ATTRIBUTE.lastIndex = 0;
  let index = 0;
  // Trailing spaces end the attributes (measured once, not re-tested after each one).
  const end = source.trimEnd().length;
  while (index < end) {
    ATTRIBUTE.lastIndex = index;
    const match = ATTRIBUTE.exec(source);
    if (!match || match[0].length === 0) return null;
    const name = match[1].toLowerCase();
    if (attributes.has(name)) return null;
    attributes.set(name, decodeEntities(match[2] ?? match[3] ?? match[4] ?? ""));
    index = ATTRIBUTE.lastIndex;
  }
  return attributes;
}

/** True when `host` is on the allow-list (an entry "*.example.com" also covers its subdomains). */
export function isAllowedEmbedHost(host: string, allowList: string[]): boolean {
  const name = host.toLowerCase();
  return allowList.some((entry) => (entry.startsWith("*.") ? name === entry.slice(2) || name.endsWith(entry.slice(1)) : name === entry));
}

function allowedHostsText(allowList: string[]): string {
  return allowList.map((host) => host.replace(/^\*\./, "")).join(", ");
}

/** A refusal as a keyed message (the route says it in the admin's language), each one ending with what is accepted. */
function refuse(allowList: string[], reason: MessageKey, values: MessageValues = {}): EmbedCheck {
  return { ok: false, error: keyedMessage(reason, { ...values, hosts: allowedHostsText(allowList) }) };
}

function canonicalCode(a: EmbedAttributes): string {
  const parts = [`src="${escapeAttribute(a.src)}"`, `title="${escapeAttribute(a.title)}"`];
  if (a.width) parts.push(`width="${a.width}"`);
  if (a.height) parts.push(`height="${a.height}"`);
  if (a.allow) parts.push(`allow="${escapeAttribute(a.allow)}"`);
  if (a.allowFullScreen) parts.push("allowfullscreen");
  parts.push('loading="lazy"', `sandbox="${EMBED_SANDBOX}"`, `referrerpolicy="${EMBED_REFERRER_POLICY}"`);
  return `<iframe ${parts.join(" ")}></iframe>`;
}

/**
 * Turns pasted embed code into the only form the app stores and renders:
 * a single https iframe from an allowed host, rebuilt from safe attributes.
 * Anything else is refused with a message saying what is accepted.
 */
export function sanitizeEmbed(input: string, allowList: string[] = getConfig().embedAllowedHosts): EmbedCheck {
  const code = input.trim();
  if (code.length > MAX_CODE_LENGTH) return refuse(allowList, "chart.embedTooLong");
  const tag = iframeAttributes(code);
  if (tag === null) return refuse(allowList, "chart.embedNotIframe");
  const attributes = parseAttributes(tag);
  if (!attributes) return refuse(allowList, "chart.embedUnreadable");
  const rawSrc = attributes.get("src");
  if (!rawSrc) return refuse(allowList, "chart.embedNoSrc");
  let url: URL;
  try {
    url = new URL(rawSrc);
  } catch {
    return refuse(allowList, "chart.embedBadSrc");
  }
  if (url.protocol !== "https:") return refuse(allowList, "chart.embedNotHttps");
  if (url.username || url.password || url.port) return refuse(allowList, "chart.embedCredentials");
  if (!isAllowedEmbedHost(url.hostname, allowList)) {
    return refuse(allowList, "chart.embedHostNotAllowed", { host: url.hostname });
  }
  const size = (name: string) => {
    const value = attributes.get(name)?.trim();
    return value && SIZE.test(value) ? value : null;
  };
  const allow = (attributes.get("allow") ?? "")
    .split(";")
    .map((feature) => feature.trim().split(/\s+/)[0]?.toLowerCase())
    .filter((feature): feature is string => !!feature && ALLOWED_FEATURES.has(feature));
  const title = (attributes.get("title") ?? "").replace(/\s+/g, " ").trim().slice(0, 200);
  const clean: EmbedAttributes = {
    src: url.toString(),
    // Stored with the code, so said once, in the station's language.
    title: title || stationTranslator().t("chart.embedDefaultTitle", { host: url.hostname }),
    width: size("width"),
    height: size("height"),
    allow: allow.length > 0 ? [...new Set(allow)].join("; ") : null,
    allowFullScreen: attributes.has("allowfullscreen") || allow.includes("fullscreen"),
  };
  return { ok: true, code: canonicalCode(clean), attributes: clean, host: url.hostname };
}
