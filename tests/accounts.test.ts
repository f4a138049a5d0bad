import { db } from "~/services/db.server";
import { REGISTRATION_ATTEMPTS } from "~/models/users.server";
import { setGoogleEndpoints, SIGN_IN_ATTEMPTS } from "~/auth.server";
import { startOAuthProvider, type OAuthProvider, type StandInIdentity } from "./helpers/oauth-provider";
import { startTestServer, type TestServer } from "./helpers/server";
import { Visitor } from "./helpers/visitor";

function location(response: Response): string {
  return response.headers.get("Location") ?? "";
}

/** The role="alert" paragraph's text, tags stripped. */
function alertText(html: string): string | undefined {
  const match = /<p[^>]*role="alert"[^>]*>([\s\S]*?)<\/p>/.exec(html);
  return match?.[1]
    .replace(/<[^>]+>/g, "")
    .replace(/&#x27;|&#39;/g, "'")
    .trim();
}

const PASSWORD = "correct horse battery";

function registration(overrides: Partial<Record<"name" | "email" | "password" | "conPassword", string>> = {}) {
  return { name: "Rina Listener", email: "rina@example.com", password: PASSWORD, conPassword: PASSWORD, ...overrides };
}

describe("listener accounts", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: "1", SEED_CONTENT: "true" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe("registering with the form", () => {
    it("creates the account with a scrypt hash and signs the new listener in, with the success message", async () => {
      const visitor = new Visitor(server.url);
      const response = await visitor.post("/register", registration({ email: "Form.User@Example.com", name: "  Form User " }));
      expect(response.status).toBe(302);
      expect(location(response)).toBe("/listen?registered=1");

      const user = await db().user.findUniqueOrThrow({ where: { email: "form.user@example.com" } });
      expect(user.name).toBe("Form User");
      expect(user.passwordHash).toMatch(/^scrypt\$/);
      expect(user.passwordHash).not.toContain(PASSWORD);

      const welcome = await visitor.page(location(response));
      expect(welcome).toContain("Registration Success!");
      expect(welcome).toContain("You have registered!");
      expect(await visitor.headerName()).toBe("Form User");
    });

    it.each([
      ["a missing name", { name: "" }, 400, "Please fill in name, email, password and confirm password."],
      ["a missing confirmation", { conPassword: "" }, 400, "Please fill in name, email, password and confirm password."],
      ["an invalid email", { email: "not-an-email" }, 400, "Please enter a valid email address."],
      ["a short password", { password: "short", conPassword: "short" }, 400, "Password must be at least 8 characters."],
      ["passwords that differ", { conPassword: "correct horse battery!" }, 400, "Passwords do not match."],
    ])("refuses %s with the server's msg in an alert and keeps name and email", async (_case, overrides, status, msg) => {
      const visitor = new Visitor(server.url);
      const before = await db().user.count();
      const fields = registration({ email: "kept@example.com", name: "Kept Name", ...overrides });
      const response = await visitor.post("/register", fields);
      expect(response.status).toBe(status);
      const html = await response.text();
      expect(alertText(html)).toBe(msg);
      if (fields.name) expect(html).toContain(`value="${fields.name}"`);
      expect(html).toContain(`value="${fields.email}"`);
      expect(html).not.toContain(PASSWORD);
      expect(await db().user.count()).toBe(before);
    });

    it("refuses an email that is already registered, whatever its case", async () => {
      const visitor = new Visitor(server.url);
      expect((await visitor.post("/register", registration({ email: "taken@example.com" }))).status).toBe(302);
      const response = await visitor.post("/register", registration({ email: "TAKEN@example.com", name: "Someone Else" }));
      expect(response.status).toBe(409);
      expect(alertText(await response.text())).toBe("This email is already registered.");
      expect(await db().user.count({ where: { email: "taken@example.com" } })).toBe(1);
    });
  });

  describe("POST /users (the original API)", () => {
    async function postUsers(visitor: Visitor, body: unknown) {
      const response = await visitor.request("/users", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, text, json: JSON.parse(text) as Record<string, unknown> };
    }

    it("answers 201 with the public fields only", async () => {
      const result = await postUsers(new Visitor(server.url), registration({ email: "api@example.com", name: "Api User" }));
      expect(result.status).toBe(201);
      expect(result.json).toEqual({ id: expect.any(String), name: "Api User", email: "api@example.com", createdAt: expect.any(String) });
      expect(result.text).not.toContain(PASSWORD);
      expect(result.text).not.toContain("scrypt");
    });

    it("answers 400 with {msg}, a taken email like a new one, and writes nothing", async () => {
      const visitor = new Visitor(server.url);
      const before = await db().user.count();
      await expect(postUsers(visitor, registration({ email: "" }))).resolves.toMatchObject({
        status: 400,
        json: { msg: "Please fill in name, email, password and confirm password." },
      });
      await expect(postUsers(visitor, registration({ email: "new@example.com", conPassword: "different password" }))).resolves.toMatchObject({
        status: 400,
        json: { msg: "Passwords do not match." },
      });
      // An email already registered is answered like a new one (no account enumeration), and nothing is written.
      await expect(postUsers(visitor, registration({ email: "api@example.com" }))).resolves.toMatchObject({
        status: 201,
        json: { id: expect.any(String), name: "Rina Listener", email: "api@example.com", createdAt: expect.any(String) },
      });
      await expect(postUsers(visitor, "{not json")).resolves.toMatchObject({ status: 400, json: { msg: expect.stringContaining("JSON") } });
      await expect(postUsers(visitor, ["a list"])).resolves.toMatchObject({ status: 400 });
      expect(await db().user.count()).toBe(before);
      const get = await visitor.request("/users");
      expect(get.status).toBe(405);
      expect(await get.json()).toEqual({ msg: "Use POST to register." });
    });

    it("limits registrations per address with a clear 429", async () => {
      const visitor = new Visitor(server.url);
      for (let i = 0; i < REGISTRATION_ATTEMPTS; i++) {
        expect((await postUsers(visitor, registration({ email: "" }))).status).toBe(400);
      }
      const limited = await postUsers(visitor, registration({ email: "late@example.com" }));
      expect(limited.status).toBe(429);
      expect(limited.json.msg).toMatch(/Too many registrations/);
      expect(await db().user.count({ where: { email: "late@example.com" } })).toBe(0);
      // The form shares the limit.
      const form = await visitor.post("/register", registration({ email: "late@example.com" }));
      expect(form.status).toBe(429);
      expect(alertText(await form.text())).toMatch(/Too many registrations/);
    });
  });

  describe("signing in with a password, and out", () => {
    const email = "signin@example.com";
    beforeAll(async () => {
      expect((await new Visitor(server.url).post("/register", registration({ email, name: "Sign In Sam" }))).status).toBe(302);
    });

    it("gives one generic error for a wrong password and an unknown email", async () => {
      const visitor = new Visitor(server.url);
      for (const fields of [
        { email, password: "wrong password" },
        { email: "nobody@example.com", password: PASSWORD },
      ]) {
        const response = await visitor.post("/login", fields);
        expect(response.status).toBe(401);
        const html = await response.text();
        expect(alertText(html)).toBe("Wrong email or password.");
        expect(html).toContain(`value="${fields.email}"`);
      }
      expect(await visitor.headerName()).toBe("Guest");
    });

    it("tells the refusals in Indonesian to an Indonesian listener, 'Registration Success!' in the spec's words", async () => {
      const visitor = new Visitor(server.url);
      const indonesian = { "Accept-Language": "id" };
      const wrong = await visitor.request("/login", { method: "POST", headers: indonesian, body: new URLSearchParams({ email, password: "wrong password" }) });
      expect(alertText(await wrong.text())).toBe("Email atau kata sandi salah.");
      const short = await visitor.request("/register", {
        method: "POST",
        headers: indonesian,
        body: new URLSearchParams(registration({ email: "pendek@example.com", password: "short", conPassword: "short" })),
      });
      expect(alertText(await short.text())).toBe("Kata sandi minimal 8 karakter.");
      const api = await visitor.request("/users", {
        method: "POST",
        headers: { ...indonesian, "Content-Type": "application/json" },
        body: JSON.stringify(registration({ name: "" })),
      });
      expect(await api.json()).toEqual({ msg: "Harap isi nama, email, kata sandi, dan konfirmasi kata sandi." });
      const registered = await visitor.request("/register", {
        method: "POST",
        headers: indonesian,
        body: new URLSearchParams(registration({ email: "baru@example.com" })),
      });
      const success = await (await visitor.request(location(registered), { headers: indonesian })).text();
      expect(success).toContain("Registration Success!");
      expect(success).toMatch(/<html lang="id"/);
    });

    it("signs in, shows the name, honours a local redirectTo and signs out with a POST", async () => {
      const visitor = new Visitor(server.url);
      const response = await visitor.post("/login", { email: "SignIn@Example.com", password: PASSWORD, redirectTo: "/favorites" });
      expect(response.status).toBe(302);
      expect(location(response)).toBe("/favorites");
      expect(visitor.cookies.has("__session")).toBe(true);
      expect(await visitor.headerName()).toBe("Sign In Sam");

      // A visit to /logout does not sign out; only the POST does.
      expect(location(await visitor.request("/logout"))).toBe("/");
      expect(await visitor.headerName()).toBe("Sign In Sam");
      const out = await visitor.post("/logout", {});
      expect(out.status).toBe(302);
      expect(location(out)).toBe("/");
      expect(visitor.cookies.has("__session")).toBe(false);
      expect(await visitor.headerName()).toBe("Guest");
    });

    it("never redirects off the site after signing in", async () => {
      for (const redirectTo of ["//evil.example/", "https://evil.example/", "/\\evil.example"]) {
        const response = await new Visitor(server.url).post("/login", { email, password: PASSWORD, redirectTo });
        expect(location(response)).toBe("/listen");
      }
    });

    it("limits attempts per address with a 429, even for the right password", async () => {
      const visitor = new Visitor(server.url);
      for (let i = 0; i < SIGN_IN_ATTEMPTS; i++) {
        expect((await visitor.post("/login", { email, password: `guess ${i}` })).status).toBe(401);
      }
      const limited = await visitor.post("/login", { email, password: PASSWORD });
      expect(limited.status).toBe(429);
      expect(alertText(await limited.text())).toMatch(/Too many sign-in attempts/);
      expect(visitor.cookies.has("__session")).toBe(false);
      // Another address is unaffected.
      expect((await new Visitor(server.url).post("/login", { email, password: PASSWORD })).status).toBe(302);
    });
  });

  describe("favorites", () => {
    let listener: Visitor;
    let episodes: { id: number; title: string }[];
    beforeAll(async () => {
      listener = new Visitor(server.url);
      await listener.post("/register", registration({ email: "fan@example.com", name: "Fan" }));
      expect((await listener.post("/login", { email: "fan@example.com", password: PASSWORD })).status).toBe(302);
      episodes = await db().podcastEpisode.findMany({ orderBy: { publishedAt: "desc" }, take: 2, select: { id: true, title: true } });
      expect(episodes).toHaveLength(2);
    });

    it("invites guests to sign in", async () => {
      const guest = new Visitor(server.url);
      expect(await guest.page("/favorites")).toContain("Sign in to keep your favorite episodes");
      const response = await guest.post(`/favorites/${episodes[0].id}`, { favorite: "true", redirectTo: "/listen" });
      expect(location(response)).toBe("/login?redirectTo=%2Flisten");
      expect(await db().favorite.count()).toBe(0);
      // The guest's heart posts its mark, which waits for the guest to sign in (tests/browser/favorites.test.ts).
      expect(await guest.page("/listen")).toContain(`action="/favorites/${episodes[0].id}"`);
    });

    it("marks and unmarks with plain posts that come back to the page", async () => {
      const [first, second] = episodes;
      expect(await listener.page("/favorites")).toContain("No favorites yet");

      const marked = await listener.post(`/favorites/${first.id}`, { favorite: "true", redirectTo: "/listen" });
      expect(marked.status).toBe(302);
      expect(location(marked)).toBe("/listen");
      // Twice is still one favourite.
      await listener.post(`/favorites/${first.id}`, { favorite: "true", redirectTo: "/listen" });
      await listener.post(`/favorites/${second.id}`, { favorite: "true", redirectTo: "/listen" });
      const user = await db().user.findUniqueOrThrow({ where: { email: "fan@example.com" } });
      expect(await db().favorite.count({ where: { userId: user.id } })).toBe(2);

      const page = await listener.page("/favorites");
      expect(page).toContain(first.title);
      expect(page).toContain(second.title);
      // The newest favourite comes first.
      expect(page.indexOf(second.title)).toBeLessThan(page.indexOf(first.title));
      expect(await listener.page("/listen")).toMatch(new RegExp(`aria-pressed="true"[^>]*aria-label="Favorite: ${first.title}"`));

      await listener.post(`/favorites/${first.id}`, { favorite: "false", redirectTo: "/favorites" });
      const after = await listener.page("/favorites");
      expect(after).not.toContain(first.title);
      expect(after).toContain(second.title);
    });

    it("answers a fetcher post (no redirectTo) with data, and refuses bad input", async () => {
      const [first] = episodes;
      const response = await listener.post(`/favorites/${first.id}`, { favorite: "true" });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ favorite: true });

      expect((await listener.post("/favorites/999999", { favorite: "true" })).status).toBe(404);
      expect((await listener.post("/favorites/abc", { favorite: "true" })).status).toBe(404);
      expect((await listener.post(`/favorites/${first.id}`, { favorite: "maybe" })).status).toBe(400);
      expect(location(await listener.request(`/favorites/${first.id}`))).toBe("/favorites");
    });
  });
});

describe("Google sign-in", () => {
  const client = { clientId: "stand-in-client.apps.example", clientSecret: "stand-in-secret" };
  let server: TestServer;
  let provider: OAuthProvider;
  beforeAll(async () => {
    provider = await startOAuthProvider(client);
    setGoogleEndpoints(provider.endpoints);
    server = await startTestServer({ TRUST_PROXY: "1", GOOGLE_CLIENT_ID: client.clientId, GOOGLE_CLIENT_SECRET: client.clientSecret });
  });
  afterAll(async () => {
    setGoogleEndpoints(undefined);
    await server?.stop();
    await provider?.stop();
  });
  beforeEach(() => {
    provider.authorizationRequests.length = 0;
    provider.tokenRequests.length = 0;
  });

  let sub = 1000;
  function identity(overrides: Partial<StandInIdentity> = {}): StandInIdentity {
    sub++;
    return { sub: String(sub), email: `g${sub}@gmail.example`, email_verified: true, name: `Google Listener ${sub}`, ...overrides };
  }

  /** 'Sign With Google' → the provider → back to the callback; returns the callback's answer. */
  async function signInWithGoogle(visitor: Visitor, tamper?: (callback: URL) => void): Promise<Response> {
    const start = await visitor.post("/auth/google", {});
    expect(start.status).toBe(302);
    const authorize = new URL(location(start));
    expect(authorize.origin + authorize.pathname).toBe(provider.endpoints.authorizationURL);
    const atProvider = await fetch(authorize, { redirect: "manual" });
    const callback = new URL(location(atProvider));
    tamper?.(callback);
    return visitor.request(callback.pathname + callback.search);
  }

  it("runs the whole flow: authorization redirect with state, code exchange, userinfo, a new account", async () => {
    const who = identity({ name: "Gita Google" });
    provider.nextIdentity = who;
    const visitor = new Visitor(server.url);
    const response = await signInWithGoogle(visitor);

    const [authorization] = provider.authorizationRequests;
    expect(authorization.get("client_id")).toBe(client.clientId);
    expect(authorization.get("redirect_uri")).toBe(`${server.url}/auth/google/callback`);
    expect(authorization.get("scope")).toContain("email");
    expect(authorization.get("state")).toMatch(/^[0-9a-f-]{36}$/);
    const [token] = provider.tokenRequests;
    expect(token.get("grant_type")).toBe("authorization_code");
    expect(token.get("redirect_uri")).toBe(`${server.url}/auth/google/callback`);

    expect(response.status).toBe(302);
    expect(location(response)).toBe("/listen");
    expect(await visitor.headerName()).toBe("Gita Google");
    const user = await db().user.findUniqueOrThrow({ where: { googleId: who.sub } });
    expect(user).toMatchObject({ email: who.email, name: "Gita Google", passwordHash: null });

    // The next sign-in finds the same account.
    const again = new Visitor(server.url);
    await signInWithGoogle(again);
    expect(await again.headerName()).toBe("Gita Google");
    expect(await db().user.count({ where: { email: who.email } })).toBe(1);
  });

  it("links to an existing account with the same verified email", async () => {
    // Registering signs in; the Google sign-in comes from another browser.
    expect((await new Visitor(server.url).post("/register", registration({ email: "both@example.com", name: "Both Ways" }))).status).toBe(302);
    const visitor = new Visitor(server.url);
    const before = await db().user.findUniqueOrThrow({ where: { email: "both@example.com" } });
    provider.nextIdentity = identity({ email: "Both@Example.com", name: "Different Google Name" });
    expect(location(await signInWithGoogle(visitor))).toBe("/listen");
    const after = await db().user.findUniqueOrThrow({ where: { email: "both@example.com" } });
    expect(after.id).toBe(before.id);
    expect(after.googleId).toBe(provider.nextIdentity.sub);
    expect(await visitor.headerName()).toBe("Both Ways");
    // The password still works too.
    expect((await new Visitor(server.url).post("/login", { email: "both@example.com", password: PASSWORD })).status).toBe(302);
  });

  it("refuses a tampered state before asking for a token", async () => {
    provider.nextIdentity = identity();
    const visitor = new Visitor(server.url);
    const response = await signInWithGoogle(visitor, (callback) => callback.searchParams.set("state", crypto.randomUUID()));
    expect(response.status).toBe(302);
    expect(location(response)).toBe("/login");
    expect(provider.tokenRequests).toHaveLength(0);
    expect(await db().user.count({ where: { googleId: provider.nextIdentity.sub } })).toBe(0);
    const login = await visitor.page("/login");
    expect(alertText(login)).toBe("Google sign-in failed. Please try again.");
    // The message is shown once.
    expect(alertText(await visitor.page("/login"))).toBeUndefined();
    expect(await visitor.headerName()).toBe("Guest");
  });

  it("refuses a callback in a browser that never started the sign-in", async () => {
    provider.nextIdentity = identity();
    const starter = new Visitor(server.url);
    const start = await starter.post("/auth/google", {});
    const callback = new URL(location(await fetch(location(start), { redirect: "manual" })));
    const stranger = new Visitor(server.url);
    const response = await stranger.request(callback.pathname + callback.search);
    expect(location(response)).toBe("/login");
    expect(provider.tokenRequests).toHaveLength(0);
    expect(await stranger.headerName()).toBe("Guest");
  });

  it("refuses a Google account without a verified email, and explains", async () => {
    provider.nextIdentity = identity({ email_verified: false });
    const visitor = new Visitor(server.url);
    expect(location(await signInWithGoogle(visitor))).toBe("/login");
    expect(alertText(await visitor.page("/login"))).toMatch(/no verified email address/);
    expect(await db().user.count({ where: { email: provider.nextIdentity.email } })).toBe(0);
  });

  it("says so when the listener cancels at Google", async () => {
    provider.nextIdentity = null;
    const visitor = new Visitor(server.url);
    expect(location(await signInWithGoogle(visitor))).toBe("/login");
    expect(alertText(await visitor.page("/login"))).toBe("Google sign-in was cancelled.");
  });

  it("offers an enabled 'Sign With Google' button on /login", async () => {
    const html = await new Visitor(server.url).page("/login");
    expect(html).toMatch(/<button[^>]*google-button[^>]*>/);
    expect(html).not.toMatch(/<button[^>]*disabled[^>]*>[\s\S]{0,2000}Sign With Google/);
    expect(html).not.toContain("not configured");
  });
});

describe("without Google configured", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("offers no Google button on /login, and /auth/google goes back to /login", async () => {
    const visitor = new Visitor(server.url);
    const html = await visitor.page("/login");
    expect(html).not.toContain("Sign With Google");
    expect(html).not.toContain("REGISTER WITH GOOGLE");
    const start = await visitor.post("/auth/google", {});
    expect(location(start)).toBe("/login");
  });
});
