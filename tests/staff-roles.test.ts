import { readdirSync, readFileSync } from "node:fs";
import { db } from "~/services/db.server";
import { rolesFor, STAFF_ROLES, type StaffPermission, type StaffRole } from "~/utils/staff-roles";
import { startTestServer, type TestServer } from "./helpers/server";
import { Visitor } from "./helpers/visitor";

// Every route module, read the way Remix's flat routes read app/routes: a route either names the
// permission its loader and action need (requireStaff) or is on this list of public routes. A new
// route is on neither until someone decides, so an admin route cannot be added without its walk below.
const PUBLIC_ROUTES = new Set([
  "$",
  "Chart",
  "CrewSpin",
  "Game",
  "apple-touch-icon[.]png",
  "downloads",
  "icons.$name",
  "offline",
  "push-subscriptions",
  "reminders.$token.calendar[.]ics",
  "crew-images",
  "_index",
  "auth.google.callback",
  "auth.google",
  "cardlistmore",
  "chartcontent",
  "episode-progress.$episodeId",
  "events",
  "events[.]ics",
  "favorites.$episodeId",
  "favorites",
  "history",
  "history[.]json",
  "language",
  "listen",
  "listening",
  "locales.$language[.]json",
  "login",
  "logout",
  "manifest[.]webmanifest",
  "news",
  "now-playing",
  "pin",
  "play.$podId",
  "plays.$episodeId",
  "podcast-artwork[.]jpg",
  "podcast.chapters.$episodeId",
  "podcast.transcript.$episodeId",
  "podcast[.]xml",
  "register",
  "rewind[.]json",
  "schedule",
  "schedule[.]ics",
  "show-calendar.$slug",
  "shows.$slug",
  "station-icon[.]svg",
  "theme",
  "users",
  "watch",
]);

interface AdminRoute {
  path: string;
  /** A resource route (no page): it may answer a GET without its query with 400. */
  resource: boolean;
  loader: StaffPermission | null;
  action: StaffPermission | null;
}

const GUARD = /await requireStaff\(request, "(\w+)"\)/;

function adminRoutes(): { routes: AdminRoute[]; unclassified: string[] } {
  const routes: AdminRoute[] = [];
  const unclassified: string[] = [];
  for (const file of readdirSync("app/routes").filter((name) => /\.tsx?$/.test(name) && !name.includes(".test."))) {
    const name = file.replace(/\.tsx?$/, "");
    const source = readFileSync(`app/routes/${file}`, "utf8");
    const [loaderPart, actionPart] = source.split(/export async function action\b/);
    const loader = /export (async )?function loader\b/.test(loaderPart)
      ? (GUARD.exec(loaderPart.split(/export (async )?function loader\b/)[2] ?? "")?.[1] ?? null)
      : null;
    const action = actionPart !== undefined ? (GUARD.exec(actionPart)?.[1] ?? null) : null;
    if (loader === null && action === null) {
      if (!PUBLIC_ROUTES.has(name)) unclassified.push(name);
      continue;
    }
    // Remix flat routes: a bare "." separates URL segments, "[.]" is a literal dot.
    const path = `/${name
      .split(/(\[\.\])/)
      .map((part) => (part === "[.]" ? "." : part.replace(/\./g, "/")))
      .join("")
      .replace(/\$\w+/g, "1")}`;
    routes.push({ path, resource: file.endsWith(".ts"), loader: loader as StaffPermission | null, action: action as StaffPermission | null });
  }
  return { routes, unclassified };
}

const { routes: ADMIN_ROUTES, unclassified } = adminRoutes();
const may = (role: StaffRole | null, permission: StaffPermission) => role !== null && rolesFor(permission).includes(role);

describe("staff accounts and roles", () => {
  let server: TestServer;
  const people = {} as Record<StaffRole | "listener", Visitor>;
  let stationAdmin: Visitor;
  let hostShow: { id: string; name: string; slotId: string };
  let otherShow: { id: string; name: string; slotId: string; hostIds: string[] };
  let hostCrewId: string;

  async function register(visitor: Visitor, name: string): Promise<void> {
    const email = `${name.toLowerCase().replace(/\W/g, "")}@example.com`;
    const response = await visitor.post("/register", { name, email, password: "correct horse battery", conPassword: "correct horse battery" });
    expect(response.status, await response.clone().text()).toBe(302);
  }

  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: "1", SEED_CONTENT: "true" });
    for (const who of ["manager", "producer", "host", "listener"] as const) {
      people[who] = new Visitor(server.url);
      await register(people[who], `Staff ${who[0].toUpperCase()}${who.slice(1)}`);
    }
    stationAdmin = new Visitor(server.url);
    // A demo crew member who hosts some shows but not all: the host's crew profile.
    const shows = await db().show.findMany({ include: { hosts: true, slots: { select: { id: true } } }, orderBy: { name: "asc" } });
    const withSlots = shows.filter((show) => show.slots.length > 0 && show.hosts.length > 0);
    const own = withSlots[0];
    hostCrewId = own.hosts[0].crewMemberId;
    const other = withSlots.find((show) => !show.hosts.some((host) => host.crewMemberId === hostCrewId))!;
    hostShow = { id: own.id, name: own.name, slotId: own.slots[0].id };
    otherShow = { id: other.id, name: other.name, slotId: other.slots[0].id, hostIds: other.hosts.map((host) => host.crewMemberId) };
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("finds every route: each is public or names its permission", () => {
    expect(unclassified).toEqual([]);
    expect(ADMIN_ROUTES.map((route) => route.path)).toEqual(
      expect.arrayContaining(["/dashboard-admin", "/staff-admin", "/activity-admin", "/activity.csv", "/settings-admin"]),
    );
    expect(ADMIN_ROUTES.length).toBeGreaterThanOrEqual(12);
  });

  it("keeps a station without a manager working with the station PIN alone, then makes the first signed-in PIN its manager", async () => {
    // An upgraded (or fresh) station: the PIN-only admin as before.
    expect((await stationAdmin.post("/pin", { kind: "admin", pin: "123456" })).headers.get("location")).toBe("/dashboard-admin");
    expect((await stationAdmin.request("/dashboard-admin")).status).toBe(200);

    const first = await people.manager.post("/pin", { kind: "admin", pin: "123456", redirectTo: "/staff-admin" });
    expect(first.headers.get("location")).toBe("/staff-admin");
    expect((await db().user.findUnique({ where: { email: "staffmanager@example.com" } }))?.staffRole).toBe("manager");

    // From now on the station PIN alone opens nothing: the old session ends, and the dialog asks to sign in (no PIN is checked).
    expect((await stationAdmin.request("/dashboard-admin")).status).toBe(302);
    const refused = await stationAdmin.post("/pin", { kind: "admin", pin: "123456" });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("sign in to your account first");
    const listener = await people.listener.post("/pin", { kind: "admin", pin: "123456" });
    expect(listener.status).toBe(403);
    expect(await listener.text()).toContain("no staff role");
  });

  it("lets the manager grant roles on the Staff screen; a host needs their crew profile", async () => {
    const grant = (fields: Record<string, string>) => people.manager.post("/staff-admin", { intent: "grant", formId: "staff-grant", ...fields });
    expect((await grant({ email: "staffhost@example.com", role: "host", crewMemberId: "" })).status).toBe(400);
    expect((await grant({ email: "nobody@example.com", role: "producer", crewMemberId: "" })).status).toBe(400);
    expect((await grant({ email: "staffproducer@example.com", role: "owner", crewMemberId: "" })).status).toBe(400);
    expect((await grant({ email: "staffproducer@example.com", role: "producer", crewMemberId: "" })).status).toBe(200);
    expect((await grant({ email: "staffhost@example.com", role: "host", crewMemberId: hostCrewId })).status).toBe(200);
    for (const who of ["producer", "host"] as const) {
      const entered = await people[who].post("/pin", { kind: "admin", pin: "123456" });
      expect(entered.status, who).toBe(302);
      expect(entered.headers.get("location")).toBe(who === "host" ? "/schedule-admin" : "/dashboard-admin");
    }
  });

  it("walks every admin route and action with each role and with none", async () => {
    const identities: [string, Visitor, StaffRole | null][] = [
      ["nobody", new Visitor(server.url), null],
      ["listener", people.listener, null],
      ...STAFF_ROLES.map((role) => [role, people[role], role] as [string, Visitor, StaffRole]),
    ];
    for (const route of ADMIN_ROUTES) {
      for (const [who, visitor, role] of identities) {
        if (route.loader) {
          const page = await visitor.request(route.path);
          const expected = may(role, route.loader) ? (route.resource ? [200, 400] : [200]) : [role ? 403 : 302];
          expect(expected, `GET ${route.path} as ${who}: ${page.status}`).toContain(page.status);
          await page.arrayBuffer();
        }
        if (route.action) {
          // An intent nobody handles: refused as such (400) when the role may post here, else 403 before the form is read.
          const post = await visitor.post(route.path, { intent: "no-such-intent", formId: "x", role: "manager", staffRole: "manager" });
          expect(post.status, `POST ${route.path} as ${who}`).toBe(may(role, route.action) ? 400 : 403);
          await post.arrayBuffer();
        }
      }
    }
  });

  it("refuses role escalation and station settings by crafted form fields", async () => {
    const pinBefore = await db().setting.findUnique({ where: { key: "pin.admin.hash" } });
    const crafted: [StaffRole, string, Record<string, string>][] = [
      ["host", "/staff-admin", { intent: "grant", email: "staffhost@example.com", role: "manager", crewMemberId: "" }],
      ["producer", "/staff-admin", { intent: "grant", email: "staffproducer@example.com", role: "manager", crewMemberId: "" }],
      ["producer", "/staff-admin", { intent: "revoke", userId: "x" }],
      ["producer", "/settings-admin", { intent: "change-pin", kind: "admin", pin: "000000", confirm: "000000" }],
      ["producer", "/settings-admin", { intent: "save-settings", name: "Taken over", timeZone: "UTC" }],
      ["producer", "/dashboard-admin", { intent: "site-origin", origin: "https://evil.example" }],
      ["producer", "/dashboard-admin", { intent: "remove-demo-content" }],
      ["host", "/settings-admin", { intent: "change-pin", kind: "admin", pin: "000000", confirm: "000000" }],
      ["host", "/settings-admin", { intent: "save-settings", name: "Taken over" }],
    ];
    for (const [role, path, fields] of crafted) {
      const response = await people[role].post(path, { formId: "x", ...fields });
      expect(response.status, `${role} ${path} ${fields.intent}`).toBe(403);
    }
    expect(await db().setting.findUnique({ where: { key: "pin.admin.hash" } })).toEqual(pinBefore);
    expect(await db().setting.findUnique({ where: { key: "station.settings" } })).toBeNull();
    const roles = await db().user.findMany({ where: { staffRole: { not: null } }, select: { email: true, staffRole: true }, orderBy: { email: "asc" } });
    expect(roles).toEqual([
      { email: "staffhost@example.com", staffRole: "host" },
      { email: "staffmanager@example.com", staffRole: "manager" },
      { email: "staffproducer@example.com", staffRole: "producer" },
    ]);
  });

  it("lets a host change only their own shows, slots and episodes (another host's by id is 403), and names them in the log", async () => {
    const host = people.host;
    const schedule = await host.page("/schedule-admin");
    expect(schedule).toContain(hostShow.name);
    expect(schedule).not.toContain(`?edit=${otherShow.id}`);
    const before = await db().show.findUnique({ where: { id: otherShow.id }, include: { hosts: true, slots: true } });
    const refused: Record<string, string>[] = [
      { intent: "save-show", id: otherShow.id, name: "Taken over", slug: "taken-over", description: "", colour: "#000000" },
      { intent: "save-show", name: "A show of my own", slug: "my-own", description: "", colour: "#000000" },
      { intent: "delete-show", id: hostShow.id },
      { intent: "delete-slot", slotId: otherShow.slotId },
      { intent: "save-slot", showId: otherShow.id, kind: "once", startDate: "2030-01-01", startTime: "03:00", duration: "30", endDate: "" },
      { intent: "cancel-airing", slotId: otherShow.slotId, originalStart: "2030-01-01T03:00" },
    ];
    for (const fields of refused) expect((await host.post("/schedule-admin", { formId: "x", ...fields })).status, fields.intent).toBe(403);
    expect(await db().show.findUnique({ where: { id: otherShow.id }, include: { hosts: true, slots: true } })).toEqual(before);

    // Their own show: saved, and its hosts stay as they were whatever host-* fields say.
    const ownHosts = (await db().showHost.findMany({ where: { showId: hostShow.id }, orderBy: { position: "asc" } })).map((row) => row.crewMemberId);
    const saved = await host.post("/schedule-admin", {
      formId: "show-form",
      intent: "save-show",
      id: hostShow.id,
      name: `${hostShow.name} Live`,
      slug: `own-show-${Date.now()}`,
      description: "Edited by its host",
      colour: "#123456",
      [`host-${otherShow.hostIds[0]}`]: "on",
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect((await db().showHost.findMany({ where: { showId: hostShow.id }, orderBy: { position: "asc" } })).map((row) => row.crewMemberId)).toEqual(ownHosts);

    // Episodes: another show's by id is refused, and a new one must belong to their show.
    const otherEpisode = await db().podcastEpisode.findFirst({ where: { NOT: { show: { hosts: { some: { crewMemberId: hostCrewId } } } } } });
    expect(otherEpisode).not.toBeNull();
    expect((await host.post("/episodes-admin", { formId: "x", intent: "delete-episode", id: String(otherEpisode!.id) })).status).toBe(403);
    expect(await db().podcastEpisode.findUnique({ where: { id: otherEpisode!.id } })).not.toBeNull();
    expect((await host.page("/episodes-admin")).includes(`?edit=${otherEpisode!.id}"`)).toBe(false);

    const log = await db().activityLog.findFirst({ where: { action: "show.updated" }, orderBy: { createdAt: "desc" } });
    expect(log?.actorName).toBe("Staff Host");
    const hostId = (await db().user.findUnique({ where: { email: "staffhost@example.com" } }))!.id;
    const page = await people.manager.page(`/activity-admin?person=${hostId}&entity=show`);
    expect(page).toContain("by Staff Host");
    const csv = await (await people.manager.request(`/activity.csv?person=${hostId}`)).text();
    expect(csv.split("\n")[0]).toContain('"Person"');
    expect(csv).toContain('"Staff Host"');
    expect(csv).not.toContain('"Staff Manager"');
  });

  it("lets staff set their own PIN (the station PIN no longer opens admin for them) and sign their own sessions out", async () => {
    const producer = people.producer;
    expect((await producer.post("/staff-admin", { formId: "own-pin", intent: "own-pin", pin: "424242", confirm: "424243" })).status).toBe(400);
    expect((await producer.post("/staff-admin", { formId: "own-pin", intent: "own-pin", pin: "424242", confirm: "424242" })).status).toBe(200);
    const again = new Visitor(server.url);
    again.cookies.set("__session", producer.cookies.get("__session")!);
    expect((await again.post("/pin", { kind: "admin", pin: "123456" })).status).toBe(401);
    expect((await again.post("/pin", { kind: "admin", pin: "424242" })).status).toBe(302);
    // The second browser's session, signed out from the first.
    const page = await producer.page("/staff-admin");
    const handles = [...page.matchAll(/name="session" value="([^"]+)"/g)].map((match) => match[1]);
    expect(handles.length).toBe(2);
    for (const session of handles) await producer.post("/staff-admin", { formId: "x", intent: "end-own-session", session });
    expect((await again.request("/dashboard-admin")).status).toBe(302);
    expect((await producer.request("/dashboard-admin")).status).toBe(302);
    expect((await producer.post("/pin", { kind: "admin", pin: "424242" })).status).toBe(302);
  });

  it("does not let PIN guesses from many addresses lock out the staff", async () => {
    await db().rateLimit.deleteMany();
    // Signed out or without a role, nothing is checked (or counted) at all.
    for (let i = 0; i < 10; i++) {
      const guesser = new Visitor(server.url);
      expect((await guesser.post("/pin", { kind: "admin", pin: String(100000 + i) })).status).toBe(403);
    }
    // With the host's password (a stolen session) from many addresses: each address backs off, the account is marked.
    for (let i = 0; i < 21; i++) {
      const thief = new Visitor(server.url);
      thief.cookies.set("__session", people.host.cookies.get("__session")!);
      expect((await thief.post("/pin", { kind: "admin", pin: String(200000 + i) })).status).toBe(401);
    }
    // The account is now under attack: a further address gets one attempt before its back-off.
    const late = new Visitor(server.url);
    late.cookies.set("__session", people.host.cookies.get("__session")!);
    expect((await late.post("/pin", { kind: "admin", pin: "999998" })).status).toBe(401);
    expect((await late.post("/pin", { kind: "admin", pin: "999997" })).status).toBe(429);
    // The real host, from their own address, still gets in with the right PIN at once.
    expect((await people.host.post("/pin", { kind: "admin", pin: "123456" })).status).toBe(302);
    expect((await people.manager.post("/pin", { kind: "admin", pin: "123456" })).status).toBe(302);
  });

  it("ends a host's access on their next request when the manager revokes the role, also for a replayed cookie", async () => {
    const host = people.host;
    expect((await host.request("/schedule-admin")).status).toBe(200);
    const replay = new Visitor(server.url);
    for (const [name, value] of host.cookies) replay.cookies.set(name, value);
    const hostId = (await db().user.findUnique({ where: { email: "staffhost@example.com" } }))!.id;
    expect((await people.manager.post("/staff-admin", { formId: "x", intent: "revoke", userId: hostId })).status).toBe(200);
    expect((await host.request("/schedule-admin")).status).toBe(302);
    expect((await replay.post("/schedule-admin", { formId: "x", intent: "delete-slot", slotId: hostShow.slotId })).status).toBe(403);
    expect(await db().showSlot.findUnique({ where: { id: hostShow.slotId } })).not.toBeNull();
    // The PIN dialog now says the account has no role.
    expect((await host.post("/pin", { kind: "admin", pin: "123456" })).status).toBe(403);
    // The last manager stays.
    const managerId = (await db().user.findUnique({ where: { email: "staffmanager@example.com" } }))!.id;
    expect((await people.manager.post("/staff-admin", { formId: "x", intent: "revoke", userId: managerId })).status).toBe(400);
  });
});
