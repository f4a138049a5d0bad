import { randomBytes, randomInt, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { getConfig } from "~/services/config.server";
import { db } from "~/services/db.server";
import { activityMessage, logActivity, type AdminActor } from "./activity.server";

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

/** The two PIN dialogs: into the admin area (6 digits) and back to the public site (5 characters). */
export type PinKind = "admin" | "public";

const settingKey = (kind: PinKind) => `pin.${kind}.hash`;

export async function hashPin(pin: string, salt = randomBytes(16)): Promise<string> {
  const hash = await scryptAsync(pin, salt, 32);
  return `scrypt$${salt.toString("hex")}$${hash.toString("hex")}`;
}

export async function matchesHash(pin: string, stored: string): Promise<boolean> {
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
 * Makes sure both PINs are stored, hashed, in the database (so they survive a recreated container
 * and move with an export). On a station's first start each comes from ADMIN_PIN / PUBLIC_PIN,
 * or is generated and printed once. After that the stored PIN is the one that counts: it is
 * changed on /settings-admin (changePin), and a different PIN in the environment is reported, not used.
 */
export async function ensurePins(log: (line: string) => void): Promise<void> {
  const config = getConfig();
  for (const kind of ["admin", "public"] as const) {
    const variable = kind === "admin" ? "ADMIN_PIN" : "PUBLIC_PIN";
    const configured = kind === "admin" ? config.adminPin : config.publicPin;
    const existing = await db().setting.findUnique({ where: { key: settingKey(kind) } });
    if (existing) {
      if (configured !== null && !(await matchesHash(configured, existing.value))) {
        log(
          `${variable} differs from the station's ${kind} PIN and is not used: the stored PIN counts (change it in the station settings, /settings-admin, then unset ${variable})`,
        );
      }
      continue;
    }
    const pin = configured ?? generatePin(kind);
    const created = await db().setting.createMany({
      data: [{ key: settingKey(kind), value: await hashPin(pin) }],
      skipDuplicates: true,
    });
    if (created.count !== 1) continue;
    if (configured !== null) log(`Stored the ${kind} PIN from ${variable} (hashed); from now on change it in the station settings (/settings-admin)`);
    else log(`Generated the ${kind} PIN (shown only once; change it in the station settings, /settings-admin): ${pin}`);
  }
}

/**
 * Checks a typed PIN in constant time against the stored hash. A station whose PINs were never
 * stored (ensurePins runs at every server start) falls back to ADMIN_PIN / PUBLIC_PIN.
 */
export async function verifyPin(kind: PinKind, pin: string): Promise<boolean> {
  const stored = await db().setting.findUnique({ where: { key: settingKey(kind) } });
  if (stored) return matchesHash(pin, stored.value);
  const config = getConfig();
  const configured = kind === "admin" ? config.adminPin : config.publicPin;
  if (!configured) return false;
  // Hash both sides so the comparison takes the same time whatever the lengths.
  const salt = randomBytes(16);
  const [a, b] = await Promise.all([scryptAsync(pin, salt, 32), scryptAsync(configured, salt, 32)]);
  return timingSafeEqual(a, b);
}

/** Replaces a PIN from the dashboard (already checked by pinChangeSchema); the activity log says who. */
export async function changePin(kind: PinKind, pin: string, actor: AdminActor): Promise<void> {
  const value = await hashPin(pin);
  await db().$transaction(async (tx) => {
    await tx.setting.upsert({ where: { key: settingKey(kind) }, create: { key: settingKey(kind), value }, update: { value } });
    await logActivity(tx, actor, `pin.${kind}.changed`, activityMessage(kind === "admin" ? "admin.activityAdminPinChanged" : "admin.activityPublicPinChanged"));
  });
}
