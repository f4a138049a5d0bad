import { redirect } from "@remix-run/node";
import { Authenticator, AuthorizationError } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { GoogleStrategy, type GoogleProfile, type GoogleStrategyOptions } from "remix-auth-google";
import { setFavorite } from "~/models/favorites.server";
import { followerForAccount } from "~/models/show-reminders.server";
import { findOrCreateGoogleUser, findUserByPassword, getSessionUser, GoogleAccountError, type CurrentUser } from "~/models/users.server";
import { siteOrigin } from "~/models/site-origin.server";
import type { MessageKey, MessageValues } from "~/i18n/keys";
import { safeRedirect as checkedRedirect } from "~/utils/safe-redirect";
import { getConfig } from "~/services/config.server";
import { createHash } from "node:crypto";
import { errorText, logError } from "~/services/log.server";
import { claimAttempt, hitRateLimit, limitedAddress, peekRateLimit, refundAttempt, resetRateLimit, type BackoffPolicy } from "~/services/rate-limit.server";
import { endAllListenerSessions, getListenerSession, listenerSessionId, listenerSessionStorage, rotateListenerSession } from "~/services/session.server";
import { peekSingleton, setSingleton } from "~/services/singleton.server";
import { parseForm } from "~/utils/forms/form";
import { signInFields, WRONG_CREDENTIALS } from "~/utils/forms/sign-in";

// The root and the page's own loader both ask, once per page view. Only reads share the answer:
// a form post may change it (a favourite, signing in or out) before its page is rendered.
const currentUsers = new WeakMap<Request, Promise<CurrentUser | null>>();

/** The signed-in listener (public fields and favourite episode ids) of this request, or null for a guest. */
export function getCurrentUser(request: Request): Promise<CurrentUser | null> {
  const read = async () => getSessionUser(await listenerSessionId(request));
  if (request.method !== "GET" && request.method !== "HEAD") return read();
  let user = currentUsers.get(request);
  if (!user) {
    user = read();
    currentUsers.set(request, user);
  }
  return user;
}

/** Sign-in attempts per address (all accounts together) that pass at once; then each waits 1, 2, 4, ... minutes, at most an hour. */
export const SIGN_IN_ATTEMPTS = 10;
/**
 * Wrong passwords for one account from all addresses together within an hour after which the
 * account counts as under attack: each address then gets one free attempt at it before its back-off
 * starts. Nothing stops for everyone, so guessing from many addresses never locks the owner out.
 */
export const SIGN_IN_ACCOUNT_ATTEMPTS = 20;
export const SIGN_IN_ACCOUNT_WINDOW_MS = 60 * 60_000;
/** The back-off per address, and per address on one account (see claimAttempt); forgotten a day after the last attempt. */
export const SIGN_IN_BACKOFF: BackoffPolicy = { free: SIGN_IN_ATTEMPTS, baseMs: 60_000, capMs: 60 * 60_000, forgetMs: 24 * 60 * 60_000 };
export const SIGN_IN_BACKOFF_UNDER_ATTACK: BackoffPolicy = { ...SIGN_IN_BACKOFF, free: 1 };
export const SIGNED_IN_HOME = "/listen";
// remix-auth-oauth2 keeps the OAuth state under this session key until the callback.
const OAUTH_STATE_KEY = "oauth2:state";

export interface GoogleEndpoints {
  authorizationURL: string;
  tokenURL: string;
  userInfoURL: string;
}

const GOOGLE_ENDPOINTS: GoogleEndpoints = {
  authorizationURL: "https://accounts.google.com/o/oauth2/v2/auth",
  tokenURL: "https://oauth2.googleapis.com/token",
  userInfoURL: "https://www.googleapis.com/oauth2/v3/userinfo",
};

/** Points Google sign-in at a provider speaking Google's protocol (the tests' local stand-in); undefined restores Google. */
export function setGoogleEndpoints(endpoints: GoogleEndpoints | undefined): void {
  setSingleton("googleEndpoints", endpoints);
}

/** remix-auth-google with configurable endpoints and a userinfo call that checks the response. */
class StationGoogleStrategy extends GoogleStrategy<string> {
  private readonly profileURL: string;

  constructor(options: GoogleStrategyOptions, endpoints: GoogleEndpoints, verify: ConstructorParameters<typeof GoogleStrategy<string>>[1]) {
    super(options, verify);
    this.authorizationURL = endpoints.authorizationURL;
    this.tokenURL = endpoints.tokenURL;
    this.profileURL = endpoints.userInfoURL;
  }

  protected async userProfile(accessToken: string): Promise<GoogleProfile> {
    const response = await fetch(this.profileURL, { headers: { Authorization: `Bearer ${accessToken}` } });
    if (!response.ok) throw new Error(`Google userinfo answered ${response.status}`);
    const raw = (await response.json()) as GoogleProfile["_json"];
    return {
      provider: "google",
      id: raw.sub,
      displayName: raw.name,
      name: { familyName: raw.family_name, givenName: raw.given_name },
      emails: [{ value: raw.email }],
      photos: [{ value: raw.picture }],
      _json: raw,
    };
  }
}

/** A wrong email or password, as opposed to a sign-in that broke. */
class WrongCredentialsError extends Error {}

export function isGoogleSignInConfigured(): boolean {
  return getConfig().google !== null;
}

async function googleCallbackUrl(request: Request): Promise<string> {
  return `${await siteOrigin(request.url)}/auth/google/callback`;
}

// Built per request: the Google callback URL depends on the address the listener used.
async function authenticator(request: Request): Promise<Authenticator<string>> {
  const auth = new Authenticator<string>(listenerSessionStorage(request), { sessionKey: "userId", throwOnError: true });
  auth.use(
    new FormStrategy<string>(async ({ form }) => {
      // A refused field is a wrong sign-in like any other (the same answer, counted the same way).
      const credentials = parseForm(signInFields, { email: form.get("email"), password: form.get("password") }, WRONG_CREDENTIALS);
      const user = credentials.ok ? await findUserByPassword(credentials.value.email, credentials.value.password) : null;
      if (!user) throw new WrongCredentialsError(WRONG_CREDENTIALS);
      return user.id;
    }),
    "password",
  );
  const google = getConfig().google;
  if (google) {
    auth.use(
      new StationGoogleStrategy(
        { clientID: google.clientId, clientSecret: google.clientSecret, callbackURL: await googleCallbackUrl(request), prompt: "select_account" },
        peekSingleton<GoogleEndpoints>("googleEndpoints") ?? GOOGLE_ENDPOINTS,
        async ({ profile }) => {
          const user = await findOrCreateGoogleUser({
            googleId: profile.id,
            email: profile._json.email,
            emailVerified: profile._json.email_verified === true,
            name: profile.displayName,
          });
          return user.id;
        },
      ),
      "google",
    );
  }
  return auth;
}

/** Only paths on this site are valid destinations after signing in (no open redirects; see app/utils/safe-redirect.ts). */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = SIGNED_IN_HOME): string {
  return checkedRedirect(to, fallback);
}

type ListenerSession = Awaited<ReturnType<typeof getListenerSession>>;

// The OAuth state is remix-auth-oauth2's key, outside the session's typed fields.
function forgetOAuthState(session: ListenerSession): void {
  (session as unknown as { unset(key: string): void }).unset(OAUTH_STATE_KEY);
}

async function signedIn(request: Request, userId: string, redirectTo: string): Promise<Response> {
  // A new session id at sign-in: an id someone planted or copied before is worth nothing after.
  const session = await rotateListenerSession(await getListenerSession(request));
  session.set("userId", userId);
  forgetOAuthState(session);
  // The ♡ a guest tapped before signing in (favoriteAfterSignIn) is kept now that we know who they are.
  const pendingFavorite = session.get("pendingFavorite");
  if (pendingFavorite !== undefined) {
    session.unset("pendingFavorite");
    await setFavorite(userId, pendingFavorite, true);
  }
  // Shows followed here as a guest join the account's; the account's follows show on this device.
  const followerId = await followerForAccount(userId, session.get("followerId"));
  if (followerId) session.set("followerId", followerId);
  else session.unset("followerId");
  return redirect(redirectTo, { headers: { "Set-Cookie": await listenerSessionStorage(request).commitSession(session) } });
}

/** A listener who just registered is signed in at once (no empty sign-in form after registering). */
export function signInNewAccount(request: Request, userId: string, redirectTo: string): Promise<Response> {
  return signedIn(request, userId, redirectTo);
}

/**
 * A guest tapped ♡: the episode waits in their (server-side) session while they sign in or
 * register, by any route there, and signedIn saves it. Works as a plain form post without JavaScript.
 */
export async function favoriteAfterSignIn(request: Request, episodeId: number, back: string): Promise<Response> {
  const session = await getListenerSession(request);
  session.set("pendingFavorite", episodeId);
  return redirect(`/login?redirectTo=${encodeURIComponent(back)}`, {
    headers: { "Set-Cookie": await listenerSessionStorage(request).commitSession(session) },
  });
}

/** Whether this visitor has a ♡ waiting for them to sign in (the sign-in pages say so). */
export async function hasPendingFavorite(request: Request): Promise<boolean> {
  return (await getListenerSession(request)).has("pendingFavorite");
}

/** Why a sign-in was refused: a message key (and its values) the page translates. */
export type SignInFailure = { error: MessageKey; values?: MessageValues; status: number };

/**
 * Email and password sign-in from the /login form. Attempts back off per client
 * address; a wrong email and a wrong password get the same answer.
 */
export async function signInWithPassword(request: Request, form: FormData, clientIp: string): Promise<SignInFailure | Response> {
  // Attempts back off per address (over all accounts) and per address on this account; a success
  // takes back only its own attempt, so signing in as oneself never buys more guesses at someone else's password.
  const email = String(form.get("email") ?? "")
    .trim()
    .toLowerCase();
  const address = limitedAddress(clientIp);
  const accountHash = createHash("sha256").update(email).digest("hex");
  const addressKey = `sign-in:ip:${address}`;
  const accountKey = `sign-in:account:${accountHash}`;
  const pairKey = `sign-in:account-ip:${accountHash}:${address}`;
  const underAttack = !(await peekRateLimit(accountKey, SIGN_IN_ACCOUNT_ATTEMPTS)).allowed;
  const tooMany = (retryAfterSeconds: number): SignInFailure => ({
    error: "account.tooManySignIns",
    values: { minutes: Math.ceil(retryAfterSeconds / 60) },
    status: 429,
  });
  const byAddress = await claimAttempt(addressKey, SIGN_IN_BACKOFF);
  if (!byAddress.allowed) return tooMany(byAddress.retryAfterSeconds);
  const byPair = await claimAttempt(pairKey, underAttack ? SIGN_IN_BACKOFF_UNDER_ATTACK : SIGN_IN_BACKOFF);
  if (!byPair.allowed) {
    await refundAttempt(addressKey);
    return tooMany(byPair.retryAfterSeconds);
  }
  let userId: string;
  try {
    // The form is already read: the strategy gets it through the context and a body-less copy of the request.
    const bodiless = new Request(request.url, { headers: request.headers });
    userId = await (await authenticator(request)).authenticate("password", bodiless, { context: { clientIp, formData: form } });
  } catch (error) {
    if (error instanceof AuthorizationError && error.cause instanceof WrongCredentialsError) {
      await hitRateLimit(accountKey, SIGN_IN_ACCOUNT_ATTEMPTS, SIGN_IN_ACCOUNT_WINDOW_MS);
      return { error: WRONG_CREDENTIALS, status: 401 };
    }
    const cause = error instanceof AuthorizationError ? (error.cause ?? error) : error;
    logError("Password sign-in failed", { error: errorText(cause) });
    return { error: "account.signInFailed", status: 500 };
  }
  await Promise.all([refundAttempt(addressKey), resetRateLimit(pairKey)]);
  return signedIn(request, userId, safeRedirect(form.get("redirectTo")));
}

/** Sends the listener to Google's consent screen (state kept in the session), or back to /login when Google is not configured. */
export async function startGoogleSignIn(request: Request): Promise<Response> {
  if (!isGoogleSignInConfigured()) return redirect("/login");
  try {
    await (await authenticator(request)).authenticate("google", request);
    return redirect(SIGNED_IN_HOME); // only reached when already signed in
  } catch (error) {
    if (error instanceof Response) return error;
    return googleSignInFailed(request, error);
  }
}

/** Google's redirect back: checks the state, trades the code for a token, reads the profile, signs the listener in. */
export async function finishGoogleSignIn(request: Request): Promise<Response> {
  if (!isGoogleSignInConfigured()) return redirect("/login");
  try {
    const userId = await (await authenticator(request)).authenticate("google", request);
    return await signedIn(request, userId, SIGNED_IN_HOME);
  } catch (error) {
    if (error instanceof Response) return error;
    return googleSignInFailed(request, error);
  }
}

async function googleSignInFailed(request: Request, error: unknown): Promise<Response> {
  const cause = error instanceof AuthorizationError ? (error.cause ?? error) : error;
  const providerError = new URL(request.url).searchParams.get("error");
  logError("Google sign-in failed", { error: providerError ? `provider answered ${providerError}` : errorText(cause) });
  // A message key: /login shows it in the listener's language.
  const message: MessageKey =
    cause instanceof GoogleAccountError ? cause.key : providerError === "access_denied" ? "account.googleCancelled" : "account.googleFailed";
  const session = await getListenerSession(request);
  forgetOAuthState(session);
  session.flash("error", message);
  return redirect("/login", { headers: { "Set-Cookie": await listenerSessionStorage(request).commitSession(session) } });
}

/** Ends the listener's session (its server-side row and the cookie) and goes to the home page. */
export async function signOut(request: Request): Promise<Response> {
  const session = await getListenerSession(request);
  return redirect("/", { headers: { "Set-Cookie": await listenerSessionStorage(request).destroySession(session) } });
}

/** "Sign out everywhere": ends every session of the signed-in account, on every device. */
export async function signOutEverywhere(request: Request): Promise<Response> {
  const session = await getListenerSession(request);
  const userId = session.get("userId");
  if (userId) await endAllListenerSessions(userId);
  return redirect("/", { headers: { "Set-Cookie": await listenerSessionStorage(request).destroySession(session) } });
}
