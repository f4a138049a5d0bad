import { decodeHTML } from "entities";
import { readResponseWithin } from "./http-response.server";
import { fetchWithinOrigin, icecastStatusUrl } from "./stream-metadata.server";

/**
 * Who listens to the station's Icecast, as Icecast tells it: listener counts per mount from
 * `status-json.xsl`, and, with the admin password, each listener's connection (its id, address,
 * user agent and seconds connected) from `/admin/listclients`. Every byte is taken as hostile, as
 * for the titles (stream-metadata.server.ts): answers are read up to a size and a time, and the
 * XML by hand with patterns that cannot backtrack.
 */
export interface IcecastMounts {
  /** When this Icecast started: a listener id is unique only until it restarts. */
  serverStart: string;
  mounts: { mount: string; listeners: number }[];
}

export interface IcecastClient {
  id: string;
  address: string;
  userAgent: string;
  connectedSeconds: number;
}

const TIMEOUT_MS = 2_000;
const STATUS_MAX_BYTES = 1_048_576;
// About 300 bytes per listener: room for 10,000.
const CLIENTS_MAX_BYTES = 4 * 1_048_576;

async function fetchWithin(url: string, init: RequestInit, maxBytes: number, signal?: AbortSignal): Promise<Buffer | null> {
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  try {
    const response = await fetchWithinOrigin(url, { ...init, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      return null;
    }
    return await readResponseWithin(response, maxBytes);
  } catch {
    return null;
  }
}

/** The mounts of the Icecast that serves `streamUrl` and their listener counts; null when it does not answer as Icecast. */
export async function readIcecastMounts(streamUrl: string, signal?: AbortSignal): Promise<IcecastMounts | null> {
  const bytes = await fetchWithin(icecastStatusUrl(streamUrl), { headers: { Accept: "application/json" } }, STATUS_MAX_BYTES, signal);
  if (!bytes) return null;
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString("utf8"));
  } catch {
    return null;
  }
  const stats = (body as { icestats?: { server_start_iso8601?: unknown; server_start?: unknown; source?: unknown } } | null)?.icestats;
  if (!stats || typeof stats !== "object") return null;
  const start = typeof stats.server_start_iso8601 === "string" ? stats.server_start_iso8601 : typeof stats.server_start === "string" ? stats.server_start : "";
  const sources = Array.isArray(stats.source) ? stats.source : stats.source && typeof stats.source === "object" ? [stats.source] : [];
  const mounts: IcecastMounts["mounts"] = [];
  for (const source of sources as { listenurl?: unknown; listeners?: unknown }[]) {
    if (!source || typeof source.listenurl !== "string" || !URL.canParse(source.listenurl)) continue;
    const listeners = Number(source.listeners);
    if (!Number.isSafeInteger(listeners) || listeners < 0) continue;
    mounts.push({ mount: new URL(source.listenurl).pathname.slice(0, 200), listeners });
  }
  return { serverStart: start.slice(0, 64), mounts };
}

/** The listeners of one mount from `/admin/listclients`; null when Icecast refuses (wrong password) or does not answer. */
export async function readIcecastClients(
  streamUrl: string,
  mount: string,
  admin: { user: string; password: string },
  signal?: AbortSignal,
): Promise<IcecastClient[] | null> {
  const url = new URL("/admin/listclients", streamUrl);
  url.searchParams.set("mount", mount);
  const authorization = `Basic ${Buffer.from(`${admin.user}:${admin.password}`).toString("base64")}`;
  const bytes = await fetchWithin(url.href, { headers: { Authorization: authorization } }, CLIENTS_MAX_BYTES, signal);
  return bytes ? parseListClients(bytes.toString("utf8")) : null;
}

/** `<listener id="3"><IP>…</IP><UserAgent>…</UserAgent><Connected>12</Connected>…</listener>` elements, read by hand. */
export function parseListClients(xml: string): IcecastClient[] | null {
  if (!xml.includes("<icestats")) return null;
  const clients: IcecastClient[] = [];
  let at = 0;
  while (true) {
    const open = xml.indexOf("<listener", at);
    if (open < 0) break;
    const close = xml.indexOf("</listener>", open);
    if (close < 0) break;
    const element = xml.slice(open, close);
    at = close + 11;
    const id = field(element, "ID") ?? /id="(\d{1,20})"/.exec(element.slice(0, 40))?.[1] ?? null;
    const connected = Number(field(element, "Connected"));
    if (!id || !/^\d{1,20}$/.test(id) || !Number.isFinite(connected) || connected < 0) continue;
    clients.push({
      id,
      address: (field(element, "IP") ?? "").slice(0, 64),
      userAgent: decodeHTML(field(element, "UserAgent") ?? "").slice(0, 512),
      connectedSeconds: Math.floor(connected),
    });
  }
  return clients;
}

function field(element: string, name: string): string | null {
  const start = element.indexOf(`<${name}>`);
  if (start < 0) return null;
  const end = element.indexOf(`</${name}>`, start);
  return end < 0 ? null : element.slice(start + name.length + 2, end).trim();
}
