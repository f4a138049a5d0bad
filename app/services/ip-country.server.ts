import { createRequire } from "node:module";
import path from "node:path";
import maxmind, { type CountryResponse, type Reader } from "maxmind";
import { logger } from "./log.server";

/**
 * The country of a listener's address, from an offline database: the CC0 `geo-whois-asn-country`
 * table of the `@ip-location-db` packages (regional registries' and ASN data, IPv4 and IPv6),
 * read with `maxmind`. No address leaves the server and none is kept: only the two-letter code.
 */
type CountryRecord = CountryResponse & { country_code?: string };

let reader: Promise<Reader<CountryRecord> | null> | null = null;

function openReader(): Promise<Reader<CountryRecord> | null> {
  reader ??= (async () => {
    try {
      const require = createRequire(import.meta.url);
      const folder = path.dirname(require.resolve("@ip-location-db/geo-whois-asn-country-mmdb/package.json"));
      // watchForUpdates off: the file changes only with the package, at the next start.
      return await maxmind.open<CountryRecord>(path.join(folder, "geo-whois-asn-country.mmdb"));
    } catch (error) {
      logger.warn(`Audience: the country database could not be opened (${(error as Error).message}); countries are left out`);
      return null;
    }
  })();
  return reader;
}

/** "ID", "US", ... or "" for a private, unknown or malformed address. */
export async function countryOfAddress(address: string): Promise<string> {
  const db = await openReader();
  const plain = address.startsWith("::ffff:") ? address.slice(7) : address;
  if (!db || !maxmind.validate(plain)) return "";
  try {
    const record = db.get(plain);
    const code = record?.country_code ?? record?.country?.iso_code ?? "";
    return /^[A-Z]{2}$/.test(code) ? code : "";
  } catch {
    return "";
  }
}
