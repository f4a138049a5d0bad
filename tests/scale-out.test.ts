import pg from "pg";
import { io as connect, type Socket } from "socket.io-client";
import { adminCookie, postAdminForm, testImage } from "./helpers/admin";
import { Visitor } from "./helpers/visitor";
import { startStationInstances, type ChildServer } from "./helpers/child-server";
import { createTestDatabase, type TestDatabase } from "./helpers/database";
import { startS3rver, type RunningS3 } from "./helpers/s3rver";

// Two app instances on different ports share one real PostgreSQL and one S3:
// realtime, admin sessions and files must not depend on which one answers.
describe.skipIf(!process.env.TEST_DATABASE_URL)("two app instances behind a load balancer", () => {
  let database: TestDatabase;
  let s3: RunningS3;
  let a: ChildServer;
  let b: ChildServer;
  let socket: Socket;
  let instances: Awaited<ReturnType<typeof startStationInstances>> | undefined;

  beforeAll(async () => {
    [database, s3] = await Promise.all([createTestDatabase(), startS3rver()]);
    instances = await startStationInstances(2, { DATABASE_URL: database.url, ...s3.env("shared-media") });
    [a, b] = instances.instances;
    socket = connect(b.url, { transports: ["websocket"] });
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", () => resolve());
      socket.once("connect_error", reject);
    });
  });

  afterAll(async () => {
    socket?.close();
    await instances?.stop();
    await database?.drop();
    await s3?.stop();
  });

  it("carries an admin session made on A to B, pushes A's upload to B's listeners, and serves it from B", async () => {
    const cookie = await adminCookie(a.url);
    const onB = await fetch(`${b.url}/eventsAdmin`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(onB.status).toBe(200);

    const received = new Promise<{ action: string; records: { name: string; poster: { key: string } }[] }>((resolve) => socket.once("events:changed", resolve));
    const upload = await postAdminForm(
      a.url,
      "/eventsAdmin",
      cookie,
      { intent: "save-event", formId: "event-form", name: "Two Instances Live", date: "2026-12-31", time: "22:00" },
      { poster: await testImage("#ff3d6e") },
    );
    expect(upload.status).toBe(200);

    const change = await received;
    expect(change.action).toBe("created");
    expect(change.records[0].name).toBe("Two Instances Live");

    const poster = await fetch(`${b.url}/media/${change.records[0].poster.key}`);
    expect(poster.status).toBe(200);
    expect(poster.headers.get("content-type")).toBe("image/webp");

    const page = await (await fetch(`${b.url}/events`)).text();
    expect(page).toContain("Two Instances Live");
  });

  it("ends the admin session on every instance when it is left on one", async () => {
    const cookie = await adminCookie(a.url);
    const leave = await fetch(`${b.url}/pin`, {
      method: "POST",
      body: new URLSearchParams({ kind: "public", pin: "54321" }),
      headers: { Cookie: cookie },
      redirect: "manual",
    });
    expect(leave.status).toBe(302);
    const onA = await fetch(`${a.url}/eventsAdmin`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(onA.status).toBe(302);
    expect(onA.headers.get("location")).toMatch(/^\/listen\?pin=admin/);
  });

  it("refuses a staff member on both instances at their next request once a manager revokes the role on one", async () => {
    const onA = { manager: new Visitor(a.url), producer: new Visitor(a.url) };
    for (const [who, visitor] of Object.entries(onA)) {
      const email = `${who}-scale@example.com`;
      expect((await visitor.post("/register", { name: `Scale ${who}`, email, password: "long enough 12", conPassword: "long enough 12" })).status).toBe(302);
    }
    // A fresh station: the first signed-in account to enter the PIN becomes its manager.
    expect((await onA.manager.post("/pin", { kind: "admin", pin: "123456" })).status).toBe(302);
    const managerOnB = new Visitor(b.url);
    for (const [name, value] of onA.manager.cookies) managerOnB.cookies.set(name, value);
    const grant = await managerOnB.post("/staff-admin", {
      intent: "grant",
      formId: "staff-grant",
      email: "producer-scale@example.com",
      role: "producer",
      crewMemberId: "",
    });
    expect(grant.status).toBe(200);
    expect((await onA.producer.post("/pin", { kind: "admin", pin: "123456" })).status).toBe(302);
    const producerOnB = new Visitor(b.url);
    for (const [name, value] of onA.producer.cookies) producerOnB.cookies.set(name, value);
    expect((await onA.producer.request("/eventsAdmin")).status).toBe(200);
    expect((await producerOnB.request("/eventsAdmin")).status).toBe(200);

    expect(await managerOnB.page("/staff-admin")).toContain("Scale producer");
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query<{ id: string }>(`SELECT id FROM "User" WHERE email = 'producer-scale@example.com'`).finally(() => client.end());
    const revoked = await managerOnB.post("/staff-admin", { intent: "revoke", formId: "x", userId: rows[0].id });
    expect(revoked.status).toBe(200);
    // No instance keeps the role in memory: the very next request on either is refused.
    expect((await onA.producer.request("/eventsAdmin")).status).toBe(302);
    expect((await producerOnB.request("/eventsAdmin")).status).toBe(302);
    expect((await onA.producer.post("/eventsAdmin", { intent: "save-event", formId: "event-form", name: "After revocation" })).status).toBe(403);
  });
});
