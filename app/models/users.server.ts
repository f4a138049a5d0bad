import { randomBytes } from "node:crypto";
import type { MessageKey, MessageValues } from "~/i18n/keys";
import type { Language } from "~/i18n/languages";
import { Prisma } from "~/generated/prisma/client";
import { db } from "~/services/db.server";
import { hashPassword, verifyAgainstNothing, verifyPassword } from "~/services/passwords.server";
import { hitRateLimit } from "~/services/rate-limit.server";
import { fieldConstraints, parseForm, type FormResult } from "~/utils/forms/form";
import { registrationFields, registrationProblem, registrationSchema, type Registration } from "~/utils/forms/registration";
import { isPlainText } from "~/utils/plain-text";

const limits = fieldConstraints(registrationFields);
// scrypt hashes whatever it is given: cap the work one request can ask for.
const PASSWORD_MAX_LENGTH = limits.password.maxLength!;
const NAME_MAX_LENGTH = limits.name.maxLength!;
export const REGISTRATION_ATTEMPTS = 10;
export const REGISTRATION_WINDOW_MS = 60 * 60_000;

/** What a listener's account shows of itself: never the password hash. */
const publicUserSelect = { id: true, name: true, email: true, createdAt: true } as const;

export type PublicUser = Prisma.UserGetPayload<{ select: typeof publicUserSelect }>;

export interface CurrentUser {
  id: string;
  name: string;
  email: string;
  /** The interface language chosen on the account, or null to follow the browser. */
  language: string | null;
  favoriteEpisodeIds: number[];
}

/**
 * The account behind a listener session, read with the session row in one query (the row's userId
 * column mirrors its data's userId), or null for a guest, an expired session or a deleted account.
 */
export async function getSessionUser(sessionId: string | null): Promise<CurrentUser | null> {
  if (!sessionId) return null;
  const row = await db().listenerSession.findUnique({
    where: { id: sessionId },
    select: {
      data: true,
      expiresAt: true,
      user: { select: { id: true, name: true, email: true, language: true, favorites: { select: { episodeId: true } } } },
    },
  });
  if (!row || row.expiresAt <= new Date() || !row.user) return null;
  const userId = (row.data as { userId?: unknown } | null)?.userId;
  if (typeof userId !== "string" || userId !== row.user.id) return null;
  const { favorites, ...fields } = row.user;
  return { ...fields, favoriteEpisodeIds: favorites.map((favorite) => favorite.episodeId) };
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export interface RegistrationInput {
  name: string;
  email: string;
  password: string;
  conPassword: string;
}

/** A refusal's message and each field's problem are message keys (with values for the message): the route translates them. */
export type RegistrationResult =
  { ok: true; user: PublicUser } | { ok: false; status: 400 | 409 | 429; message: MessageKey; values?: MessageValues; errors: Record<string, MessageKey> };

/** Reads the four registration fields (form post or the old JSON API); anything missing is "". */
export function readRegistration(source: FormData | Record<string, unknown>): RegistrationInput {
  const get = (name: keyof RegistrationInput) => {
    const value = source instanceof FormData ? source.get(name) : source[name];
    return typeof value === "string" ? value : "";
  };
  return { name: get("name"), email: get("email"), password: get("password"), conPassword: get("conPassword") };
}

/** Checks the registration with its schema; the message is the one problem the form and the API tell. */
function checkRegistration(input: RegistrationInput): FormResult<Registration> {
  const check = parseForm(registrationSchema, input, "");
  return check.ok ? check : { ...check, message: registrationProblem(check.errors) };
}

const EMAIL_TAKEN: MessageKey = "account.emailTaken";

/**
 * Creates a password account after checking every rule on the server.
 * Attempts are limited per client address; nothing is written on failure.
 */
export async function registerUser(input: RegistrationInput, clientIp: string): Promise<RegistrationResult> {
  const limit = await hitRateLimit(`register:${clientIp}`, REGISTRATION_ATTEMPTS, REGISTRATION_WINDOW_MS);
  if (!limit.allowed) {
    return { ok: false, status: 429, message: "account.tooManyRegistrations", values: { minutes: Math.ceil(limit.retryAfterSeconds / 60) }, errors: {} };
  }
  const check = checkRegistration(input);
  // The schema's messages are all message keys (app/utils/forms/registration.ts).
  if (!check.ok) return { ok: false, status: 400, message: check.message as MessageKey, errors: check.errors as Record<string, MessageKey> };
  const { name, email, password } = check.value;
  if (await db().user.findUnique({ where: { email }, select: { id: true } }))
    return { ok: false, status: 409, message: EMAIL_TAKEN, errors: { email: EMAIL_TAKEN } };
  try {
    const user = await db().user.create({
      data: { name, email, passwordHash: await hashPassword(password) },
      select: publicUserSelect,
    });
    return { ok: true, user };
  } catch (error) {
    // Two registrations for one email at the same moment: the unique index decides.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      return { ok: false, status: 409, message: EMAIL_TAKEN, errors: { email: EMAIL_TAKEN } };
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

/** A Google sign-in the station cannot accept; its message is the key of what the listener is told. */
export class GoogleAccountError extends Error {
  name = "GoogleAccountError";
  constructor(readonly key: MessageKey) {
    super(key);
  }
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
    throw new GoogleAccountError("account.googleNoVerifiedEmail");
  }
  const sameEmail = await db().user.findUnique({ where: { email }, select: { id: true, googleId: true } });
  if (sameEmail?.googleId) {
    throw new GoogleAccountError("account.googleLinkedElsewhere");
  }
  if (sameEmail) {
    return db().user.update({ where: { id: sameEmail.id }, data: { googleId: identity.googleId }, select: publicUserSelect });
  }
  const name = identity.name?.trim().slice(0, NAME_MAX_LENGTH) || email.split("@")[0];
  return db().user.create({ data: { email, googleId: identity.googleId, name }, select: publicUserSelect });
}

/** Remembers the interface language a signed-in listener chose, for their other devices. */
export async function setUserLanguage(userId: string, language: Language): Promise<void> {
  await db().user.update({ where: { id: userId }, data: { language } });
}
