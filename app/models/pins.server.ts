import { randomBytes, randomInt, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { getConfig } from "~/services/config.server";
import { db } from "~/services/db.server";

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

/** The two PIN dialogs: into the admin area (6 digits) and back to the public site (5 characters). */
export type PinKind = "admin" | "public";

const settingKey = (kind: PinKind) => `pin.${kind}.hash`;

async function hashPin(pin: string, salt = randomBytes(16)): Promise<string> {
  const hash = await scryptAsync(pin, salt, 32);
  return `scrypt$${salt.toString("hex")}$${hash.toString("hex")}`;
}

async function matchesHash(pin: string, stored: string): Promise<boolean> {
  const [, saltHex, hashHex] = stored.split("$");
  const expected = Buffer.from(hashHex, "hex");
  const actual = await scryptAsync(pin, Buffer.from(saltHex, "hex"), expected.length);
  return timingSafeEqual(actual, expected);
}

function generatePin(kind: PinKind): string {
  if (kind === "admin") return String(randomInt(0, 1_000_000)).padStart(6, "0");
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  return Array.from({ length: 5 }, () => alphabet[randomInt(alphabet.length)]).join("");
}

/**
 * Makes sure both PINs exist. A PIN not set in the environment is generated on
 * first start, stored only as a hash, and printed once so the operator can note it.
 */
export async function ensurePins(log: (line: string) => void): Promise<void> {
  const config = getConfig();
  for (const kind of ["admin", "public"] as const) {
    if ((kind === "admin" ? config.adminPin : config.publicPin) !== null) continue;
    const existing = await db().setting.findUnique({ where: { key: settingKey(kind) } });
    if (existing) continue;
    const pin = generatePin(kind);
    const created = await db().setting.createMany({
      data: [{ key: settingKey(kind), value: await hashPin(pin) }],
      skipDuplicates: true,
    });
    if (created.count === 1) {
      log(
        `Generated the ${kind === "admin" ? "admin" : "public"} PIN (shown only once, set ${kind === "admin" ? "ADMIN_PIN" : "PUBLIC_PIN"} to choose your own): ${pin}`,
      );
    }
  }
}

/** Checks a typed PIN in constant time against ADMIN_PIN / PUBLIC_PIN, or the generated one. */
export async function verifyPin(kind: PinKind, pin: string): Promise<boolean> {
  const config = getConfig();
  const configured = kind === "admin" ? config.adminPin : config.publicPin;
  if (configured !== null) {
    // Hash both sides so the comparison takes the same time whatever the lengths.
    const salt = randomBytes(16);
    const [a, b] = await Promise.all([scryptAsync(pin, salt, 32), scryptAsync(configured, salt, 32)]);
    return timingSafeEqual(a, b);
  }
  const stored = await db().setting.findUnique({ where: { key: settingKey(kind) } });
  return stored ? matchesHash(pin, stored.value) : false;
}
