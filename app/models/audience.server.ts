import { createHmac, randomBytes } from "node:crypto";
import { db } from "~/services/db.server";
import { countryOfAddress } from "~/services/ip-country.server";
import { classifyListenerAgent, type ListenerAgent } from "~/services/listener-agents.server";

/**
 * Who a listener is, as far as the audience figures need: never their address. A listener is the
 * hash of address and user agent keyed with the UTC day's random salt (as Castopod does); the salt
 * lives in the database so every instance hashes alike, and is deleted once the day is over, after
 * which no hash can be traced back to an address. Listeners who send Do Not Track or Global Privacy
 * Control get no hash and no country: they are counted in the totals only.
 */
export interface AudienceListener extends ListenerAgent {
  /** Null for a listener who asked not to be tracked. */
  hash: string | null;
  /** "ID", "US", ... or "" (unknown, or not tracked). */
  country: string;
}

export interface ListenerRequest {
  address: string;
  userAgent: string | null | undefined;
  /** The request's DNT / Sec-GPC header asked not to be tracked. */
  doNotTrack: boolean;
}

/** "DNT: 1" or "Sec-GPC: 1". */
export function asksNotToBeTracked(headers: { get(name: string): string | null } | Record<string, string | string[] | undefined>): boolean {
  const read = (name: string) => {
    const value = typeof headers.get === "function" ? (headers as { get(name: string): string | null }).get(name) : (headers as Record<string, unknown>)[name];
    return typeof value === "string" ? value.trim() : null;
  };
  return read("dnt") === "1" || read("sec-gpc") === "1";
}

export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

// A copy of rows the database holds (the same on every instance): saves a query per request.
const salts = new Map<string, string>();

async function daySalt(day: string): Promise<string> {
  const known = salts.get(day);
  if (known) return known;
  // Whoever comes first writes the day's salt; everybody reads the one that was written.
  await db().audienceSalt.createMany({ data: [{ day, salt: randomBytes(32).toString("hex") }], skipDuplicates: true });
  const { salt } = await db().audienceSalt.findUniqueOrThrow({ where: { day } });
  if (salts.size > 4) salts.clear();
  salts.set(day, salt);
  return salt;
}

/** The listener's hash for that day: the same address and user agent give the same hash all day. */
export async function listenerHash(address: string, userAgent: string, at: Date): Promise<string> {
  const salt = await daySalt(utcDay(at));
  return createHmac("sha256", salt).update(`${address}\n${userAgent}`).digest("hex").slice(0, 32);
}

/** What the figures keep of one request's listener. */
export async function describeListener(request: ListenerRequest, at: Date): Promise<AudienceListener> {
  const agent = classifyListenerAgent(request.userAgent);
  if (agent.bot) return { ...agent, hash: null, country: "" };
  const hash = request.doNotTrack ? null : await listenerHash(request.address, request.userAgent ?? "", at);
  const country = request.doNotTrack ? "" : await countryOfAddress(request.address);
  return { ...agent, hash, country };
}

/** Salts of days before yesterday: deleting them makes the hashes made with them anonymous for good. */
export async function forgetOldSalts(now: Date): Promise<void> {
  const yesterday = utcDay(new Date(now.getTime() - 24 * 3600_000));
  await db().audienceSalt.deleteMany({ where: { day: { lt: yesterday } } });
  for (const day of salts.keys()) if (day < yesterday) salts.delete(day);
}
