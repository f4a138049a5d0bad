import { randomBytes } from "node:crypto";
import { Prisma } from "~/generated/prisma/client";
import { db } from "~/services/db.server";
import { hashPassword, verifyAgainstNothing, verifyPassword } from "~/services/passwords.server";
import { hitRateLimit } from "~/services/rate-limit.server";
import { getListenerSession } from "~/services/session.server";
import { isPlainText } from "~/utils/plain-text";

export const PASSWORD_MIN_LENGTH = 8;
// scrypt hashes whatever it is given: cap the work one request can ask for.
const PASSWORD_MAX_LENGTH = 200;
const NAME_MAX_LENGTH = 80;
const EMAIL_MAX_LENGTH = 254;
export const REGISTRATION_ATTEMPTS = 10;
export const REGISTRATION_WINDOW_MS = 60 * 60_000;

/** What a listener's account shows of itself: never the password hash. */
const publicUserSelect = { id: true, name: true, email: true, createdAt: true } as const;

export type PublicUser = Prisma.UserGetPayload<{ select: typeof publicUserSelect }>;

/** The signed-in listener's public fields and favourite episode ids, or null for a guest. */
export async function getCurrentUser(request: Request) {
  const session = await getListenerSession(request);
  const userId = session.get("userId");
  if (!userId) return null;
  const user = await db().user.findUnique({
    where: { id: userId },
    select: { id: true, name: true, email: true, favorites: { select: { episodeId: true } } },
  });
  if (!user) return null;
  const { favorites, ...fields } = user;
  return { ...fields, favoriteEpisodeIds: favorites.map((favorite) => favorite.episodeId) };
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

// Deliberately loose: one @, something on both sides, a dot in the domain, no spaces,
// and none of the characters an address only has when quoted (no markup either).
const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

/** True for something shaped like an email address (the crew form and registration share the rule). */
export function isEmailAddress(value: string): boolean {
  return isPlainText(value) && EMAIL_PATTERN.test(value);
}

export interface RegistrationInput {
  name: string;
  email: string;
  password: string;
  conPassword: string;
}

export type RegistrationResult = { ok: true; user: PublicUser } | { ok: false; status: 400 | 409 | 429; msg: string };

/** Reads the four registration fields (form post or the old JSON API); anything missing is "". */
export function readRegistration(source: FormData | Record<string, unknown>): RegistrationInput {
  const get = (name: keyof RegistrationInput) => {
    const value = source instanceof FormData ? source.get(name) : source[name];
    return typeof value === "string" ? value : "";
  };
  return { name: get("name"), email: get("email"), password: get("password"), conPassword: get("conPassword") };
}

function registrationProblem(input: RegistrationInput): string | null {
  const name = input.name.trim();
  const email = normalizeEmail(input.email);
  if (!name || !email || !input.password || !input.conPassword) return "Please fill in name, email, password and confirm password.";
  if (name.length > NAME_MAX_LENGTH) return `Name must be at most ${NAME_MAX_LENGTH} characters.`;
  if (!isPlainText(name)) return "Name contains characters that are not allowed (control characters or invalid UTF-8).";
  if (email.length > EMAIL_MAX_LENGTH || !isEmailAddress(email)) return "Please enter a valid email address.";
  if (input.password.length < PASSWORD_MIN_LENGTH) return `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (input.password.length > PASSWORD_MAX_LENGTH) return `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`;
  if (input.password !== input.conPassword) return "Passwords do not match.";
  return null;
}

const EMAIL_TAKEN = "This email is already registered.";

/**
 * Creates a password account after checking every rule on the server.
 * Attempts are limited per client address; nothing is written on failure.
 */
export async function registerUser(input: RegistrationInput, clientIp: string): Promise<RegistrationResult> {
  const limit = await hitRateLimit(`register:${clientIp}`, REGISTRATION_ATTEMPTS, REGISTRATION_WINDOW_MS);
  if (!limit.allowed) {
    const minutes = Math.ceil(limit.retryAfterSeconds / 60);
    return { ok: false, status: 429, msg: `Too many registrations from your network. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.` };
  }
  const problem = registrationProblem(input);
  if (problem) return { ok: false, status: 400, msg: problem };
  const email = normalizeEmail(input.email);
  if (await db().user.findUnique({ where: { email }, select: { id: true } })) return { ok: false, status: 409, msg: EMAIL_TAKEN };
  try {
    const user = await db().user.create({
      data: { name: input.name.trim(), email, passwordHash: await hashPassword(input.password) },
      select: publicUserSelect,
    });
    return { ok: true, user };
  } catch (error) {
    // Two registrations for one email at the same moment: the unique index decides.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      return { ok: false, status: 409, msg: EMAIL_TAKEN };
    }
    throw error;
  }
}

/** A cuid-shaped id (what Prisma's cuid() gives real accounts). */
function cuidLike(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  return "c" + Array.from(randomBytes(24), (byte) => alphabet[byte % alphabet.length]).join("");
}

/**
 * Registration through the original JSON API (POST /users). An email that is
 * already registered gets the same answer, shape and timing as a new one, so
 * the API cannot be used to find out who has an account; the owner simply
 * signs in as before (and the /register form, limited per address, still says it).
 */
export async function registerThroughApi(input: RegistrationInput, clientIp: string): Promise<RegistrationResult> {
  const result = await registerUser(input, clientIp);
  if (result.ok || result.status !== 409) return result;
  await hashPassword(input.password); // the time a new account's hash takes
  return { ok: true, user: { id: cuidLike(), name: input.name.trim(), email: normalizeEmail(input.email), createdAt: new Date() } };
}

/** The account for an email and password, or null (same answer and timing for unknown email or wrong password). */
export async function findUserByPassword(email: string, password: string): Promise<PublicUser | null> {
  // No account has an email with control characters, and PostgreSQL cannot even compare text holding NUL.
  const user = isPlainText(email)
    ? await db().user.findUnique({ where: { email: normalizeEmail(email) }, select: { ...publicUserSelect, passwordHash: true } })
    : null;
  const candidate = password.slice(0, PASSWORD_MAX_LENGTH);
  if (!user?.passwordHash || password.length > PASSWORD_MAX_LENGTH) {
    await verifyAgainstNothing(candidate);
    return null;
  }
  if (!(await verifyPassword(candidate, user.passwordHash))) return null;
  const { passwordHash: _hash, ...publicFields } = user;
  return publicFields;
}

export interface GoogleIdentity {
  googleId: string;
  email: string | undefined;
  emailVerified: boolean;
  name: string | undefined;
}

/** A Google sign-in the station cannot accept; the message is shown to the listener. */
export class GoogleAccountError extends Error {
  name = "GoogleAccountError";
}

/**
 * The account for a Google identity: the one already linked to it, else the
 * account with the same (verified) email, which gets linked, else a new one.
 */
export async function findOrCreateGoogleUser(identity: GoogleIdentity): Promise<PublicUser> {
  const linked = await db().user.findUnique({ where: { googleId: identity.googleId }, select: publicUserSelect });
  if (linked) return linked;
  const email = identity.email ? normalizeEmail(identity.email) : "";
  // An unverified address could belong to someone else's account here.
  if (!email || !identity.emailVerified) {
    throw new GoogleAccountError("Your Google account has no verified email address, so it cannot be used to sign in here.");
  }
  const sameEmail = await db().user.findUnique({ where: { email }, select: { id: true, googleId: true } });
  if (sameEmail?.googleId) {
    throw new GoogleAccountError("This email address is already linked to a different Google account.");
  }
  if (sameEmail) {
    return db().user.update({ where: { id: sameEmail.id }, data: { googleId: identity.googleId }, select: publicUserSelect });
  }
  const name = identity.name?.trim().slice(0, NAME_MAX_LENGTH) || email.split("@")[0];
  return db().user.create({ data: { email, googleId: identity.googleId, name }, select: publicUserSelect });
}
