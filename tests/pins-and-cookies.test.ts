import { verifyPin } from "~/models/pins.server";
import { db } from "~/services/db.server";
import { cookieFrom, postAdminForm } from "./helpers/admin";
import { createTestDatabase, type TestDatabase } from "./helpers/database";
import { startTestServer, type TestServer } from "./helpers/server";

const enter = (url: string, kind: "admin" | "public", pin: string, headers: Record<string, string> = {}) =>
  fetch(`${url}/pin`, { method: "POST", body: new URLSearchParams({ kind, pin }), redirect: "manual", headers });

describe("PINs stored in the database", () => {
  let database: TestDatabase;
  let server: TestServer | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });
  // Successive starts of one station (one database), each with its own environment.
  const start = async (env: Record<string, string>) => {
    await server?.stop();
    server = await startTestServer(env, { database });
    return server;
  };

  it("stores PINs from the environment hashed on the first start; they keep working without it", async () => {
    await start({ ADMIN_PIN: "111111", PUBLIC_PIN: "Q7W2E" });
    const stored = await db().setting.findMany({ where: { key: { startsWith: "pin." } }, orderBy: { key: "asc" } });
    expect(stored.map((s) => s.key)).toEqual(["pin.admin.hash", "pin.public.hash"]);
    for (const row of stored) {
      expect(row.value).toMatch(/^scrypt\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
      expect(row.value).not.toContain("111111");
    }
    // A recreated container: the same station without ADMIN_PIN / PUBLIC_PIN.
    const { url } = await start({ ADMIN_PIN: "", PUBLIC_PIN: "" });
    expect((await enter(url, "admin", "111111")).status).toBe(302);
    expect((await enter(url, "public", "Q7W2E")).status).toBe(302);
    expect(await db().setting.count({ where: { key: { startsWith: "pin." } } })).toBe(2);
  });

  it("keeps the stored PIN when the environment names another one", async () => {
    const { url } = await start({ ADMIN_PIN: "222222", PUBLIC_PIN: "" });
    expect((await enter(url, "admin", "111111")).status).toBe(302);
    expect((await enter(url, "admin", "222222")).status).toBe(401);
  });

  it("changes a PIN from the settings screen (typed twice, server-checked); bad input changes nothing", async () => {
    const { url } = await start({ ADMIN_PIN: "", PUBLIC_PIN: "" });
    const cookie = cookieFrom(await enter(url, "admin", "111111"));
    const change = (fields: Record<string, string>) => postAdminForm(url, "/settings-admin", cookie, { formId: "pin-admin", intent: "change-pin", ...fields });

    const refusals: [Record<string, string>, string][] = [
      [{ kind: "admin", pin: "12345", confirm: "12345" }, "The admin PIN is exactly 6 digits."],
      [{ kind: "admin", pin: "12345a", confirm: "12345a" }, "The admin PIN is exactly 6 digits."],
      [{ kind: "admin", pin: "333333", confirm: "333334" }, "The two PINs differ: type the same PIN twice."],
      [{ kind: "public", pin: "AB CD", confirm: "AB CD" }, "The public PIN is exactly 5 characters, without spaces."],
      [{ kind: "root", pin: "333333", confirm: "333333" }, "Nothing was saved"],
    ];
    for (const [fields, message] of refusals) {
      const response = await change(fields);
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(await response.text()).toContain(message);
    }
    expect(await verifyPin("admin", "111111")).toBe(true);
    expect(await verifyPin("public", "Q7W2E")).toBe(true);

    expect((await change({ kind: "admin", pin: "333333", confirm: "333333" })).status).toBe(200);
    expect((await change({ kind: "public", pin: "zz9Zz", confirm: "zz9Zz" })).status).toBe(200);
    expect((await enter(url, "admin", "111111")).status).toBe(401);
    expect((await enter(url, "admin", "333333")).status).toBe(302);
    expect((await enter(url, "public", "zz9Zz")).status).toBe(302);
    const activity = await db().activityLog.findMany({ where: { action: { startsWith: "pin." } }, select: { action: true } });
    expect(activity.map((a) => a.action).sort()).toEqual(["pin.admin.changed", "pin.public.changed"]);
    // Without an admin session the form changes nothing.
    const anonymous = await postAdminForm(url, "/settings-admin", "", { intent: "change-pin", kind: "admin", pin: "444444", confirm: "444444" });
    expect(anonymous.status).not.toBe(200);
    expect(await verifyPin("admin", "333333")).toBe(true);
  });
});

describe("cookies over HTTP and HTTPS", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: "1" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("are not Secure on a plain-HTTP request, so the browser keeps them (no PIN dialog loop)", async () => {
    const response = await enter(server.url, "admin", "123456");
    expect(response.status).toBe(302);
    const cookie = response.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^__admin=/);
    expect(cookie).not.toMatch(/;\s*Secure/i);
    // The cookie opens the admin area on the next request.
    const dashboard = await fetch(`${server.url}/dashboard-admin`, { headers: { Cookie: cookieFrom(response) }, redirect: "manual" });
    expect(dashboard.status).toBe(200);
  });

  it("are Secure when the request came over HTTPS (through the trusted proxy)", async () => {
    const admin = await enter(server.url, "admin", "123456", { "X-Forwarded-Proto": "https" });
    expect(admin.headers.get("set-cookie")).toMatch(/^__admin=.*;\s*Secure/i);
  });
});
