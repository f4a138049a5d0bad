import { SYSTEM_ACTOR } from "~/models/activity.server";
import { addCrewImage, deleteCrewImage, replaceCrewImage } from "~/models/crew.server";
import { discardUnusedFiles } from "~/models/files.server";
import { getSiteImage, replaceSiteImage } from "~/models/site-images.server";
import { db } from "~/services/db.server";
import { getStorage, setStorage, type Storage } from "~/services/storage.server";
import { adminCookie, expectStorageConsistent, postAdminForm, recordedKeys, storageKeys, testImage, unreferencedFiles } from "./helpers/admin";
import { startS3rver, type RunningS3 } from "./helpers/s3rver";
import { startTestServer, type TestServer } from "./helpers/server";

const PUBLIC_PAGES = ["/listen", "/cardlistmore", "/events", "/CrewSpin"];
const ADMIN_PAGES = ["/dashboard-admin", "/cardlistmoreadmin", "/CrewAdmin", "/eventsAdmin"];

/** A storage that fails the chosen operation, to break a change in the middle. */
function failingStorage(real: Storage, fail: { put?: (key: string) => boolean; remove?: (key: string) => boolean }): Storage {
  return {
    kind: real.kind,
    put: (key, body, type) => (fail.put?.(key) ? Promise.reject(new Error(`injected put failure for ${key}`)) : real.put(key, body, type)),
    putFile: (key, file, type) => (fail.put?.(key) ? Promise.reject(new Error(`injected put failure for ${key}`)) : real.putFile(key, file, type)),
    remove: (key) => (fail.remove?.(key) ? Promise.reject(new Error(`injected remove failure for ${key}`)) : real.remove(key)),
    stat: (key) => real.stat(key),
    read: (key, range) => real.read(key, range),
    list: (prefix) => real.list(prefix),
    check: () => real.check(),
  };
}

async function databaseState() {
  const client = db();
  return {
    siteImages: await client.siteImage.findMany({ select: { slot: true, imageId: true } }),
    crewImages: await client.crewImage.findMany({ orderBy: { key: "asc" }, select: { key: true, position: true, imageId: true } }),
    crewMembers: await client.crewMember.findMany({ orderBy: { id: "asc" }, select: { id: true, name: true, imageId: true } }),
    events: await client.event.findMany({ orderBy: { id: "asc" }, select: { id: true, name: true, posterId: true } }),
    episodes: await client.podcastEpisode.findMany({ orderBy: { id: "asc" }, select: { id: true, coverId: true } }),
    files: await client.storedFile.findMany({ orderBy: { key: "asc" }, select: { key: true } }),
  };
}

describe.each([
  { backend: "folder", s3: false },
  { backend: "s3", s3: true },
])("admin image changes on the $backend backend", ({ s3 }) => {
  let server: TestServer;
  let s3rver: RunningS3 | null = null;
  let cookie: string;
  let real: Storage;

  /** Every /media/ URL that the pages render resolves to a stored file. */
  async function expectPagesResolve() {
    const urls = new Set<string>();
    for (const path of [...PUBLIC_PAGES, ...ADMIN_PAGES]) {
      const html = await (await fetch(`${server.url}${path}`, { headers: { Cookie: cookie } })).text();
      for (const match of html.matchAll(/\/media\/[a-z0-9/._-]+/g)) urls.add(match[0]);
    }
    expect(urls.size).toBeGreaterThan(40);
    const missing: string[] = [];
    await Promise.all(
      [...urls].map(async (url) => {
        const response = await fetch(`${server.url}${url}`, { method: "HEAD" });
        if (response.status !== 200) missing.push(url);
      }),
    );
    expect(missing).toEqual([]);
  }

  beforeAll(async () => {
    s3rver = s3 ? await startS3rver() : null;
    server = await startTestServer({ SEED_CONTENT: "true", ...(s3rver ? s3rver.env("admin-media") : {}) });
    real = getStorage();
    expect(real.kind).toBe(s3 ? "s3" : "folder");
    cookie = await adminCookie(server.url);
  });
  afterEach(() => setStorage(real));
  afterAll(async () => {
    await server?.stop();
    await s3rver?.stop();
  });

  it("starts consistent", async () => {
    await expectStorageConsistent();
  });

  it("replaces the jumbotron: new file served, old file gone", async () => {
    const old = (await getSiteImage("jumbotron"))!;
    const response = await postAdminForm(
      server.url,
      "/dashboard-admin",
      cookie,
      { formId: "jumbotron", intent: "replace-jumbotron" },
      { image: await testImage("#aa0000", 1600, 900) },
    );
    expect(response.status).toBe(200);
    const current = (await getSiteImage("jumbotron"))!;
    expect(current.key).not.toBe(old.key);
    expect(await getStorage().stat(old.key)).toBeNull();
    expect(await getStorage().stat(current.key)).not.toBeNull();
    await expectStorageConsistent();
    await expectPagesResolve();
  });

  it("changes, deletes and adds podcast card images", async () => {
    const [card] = await db().podcastEpisode.findMany({ orderBy: { publishedAt: "desc" }, take: 1, include: { cover: true } });
    let response = await postAdminForm(
      server.url,
      "/cardlistmoreadmin",
      cookie,
      { formId: `card-${card.id}`, intent: "replace-card-image", id: String(card.id) },
      { image: await testImage("#00aa00") },
    );
    expect(response.status).toBe(200);
    const changed = await db().podcastEpisode.findUniqueOrThrow({ where: { id: card.id }, include: { cover: true } });
    expect(changed.cover.key).not.toBe(card.cover.key);
    await expectStorageConsistent();

    response = await postAdminForm(server.url, "/cardlistmoreadmin", cookie, { formId: `reset-${card.id}`, intent: "reset-card-image", id: String(card.id) });
    expect(response.status).toBe(200);
    const reset = await db().podcastEpisode.findUniqueOrThrow({ where: { id: card.id }, include: { cover: true } });
    expect(reset.cover.key).not.toBe(changed.cover.key);
    expect(await getStorage().stat(reset.cover.key)).not.toBeNull();
    const page = await (await fetch(`${server.url}/cardlistmoreadmin`, { headers: { Cookie: cookie } })).text();
    expect(page).toContain("Shows the station artwork.");

    // A card is an episode with its own audio: the old "new card playing another episode's audio"
    // form is gone, and a post to it changes nothing.
    const episodes = await db().podcastEpisode.count();
    response = await postAdminForm(
      server.url,
      "/cardlistmoreadmin",
      cookie,
      { formId: "card-add", intent: "add-card", title: "Kuliah Malam", audioFrom: String(card.id) },
      { image: await testImage("#0000aa") },
    );
    expect(response.status).toBe(400);
    expect(await db().podcastEpisode.count()).toBe(episodes);
    await expectStorageConsistent();
    await expectPagesResolve();
  });

  it("replaces, adds as the next Crew{n}, reorders and deletes crew slider images", async () => {
    const count = await db().crewImage.count();
    let response = await postAdminForm(
      server.url,
      "/dashboard-admin",
      cookie,
      { formId: "crew-add", intent: "add-crew-image" },
      { image: await testImage("#aaaa00", 300, 400) },
    );
    expect(response.status).toBe(200);
    const added = await db().crewImage.findFirstOrThrow({ orderBy: { position: "desc" } });
    expect(added.key).toBe(`Crew${count + 1}`);

    const before = await db().crewImage.findUniqueOrThrow({ where: { key: "Crew2" }, include: { image: true } });
    response = await postAdminForm(
      server.url,
      "/dashboard-admin",
      cookie,
      { formId: "crew-Crew2", intent: "replace-crew-image", key: "Crew2" },
      { image: await testImage("#00aaaa", 300, 400) },
    );
    expect(response.status).toBe(200);
    expect(await getStorage().stat(before.image.key)).toBeNull();

    response = await postAdminForm(server.url, "/dashboard-admin", cookie, { formId: "up-Crew2", intent: "move-crew-image", key: "Crew2", direction: "up" });
    expect(response.status).toBe(200);
    const order = (await db().crewImage.findMany({ orderBy: { position: "asc" }, take: 2 })).map((image) => image.key);
    expect(order).toEqual(["Crew2", "Crew1"]);
    response = await postAdminForm(server.url, "/dashboard-admin", cookie, { formId: "up-Crew2", intent: "move-crew-image", key: "Crew2", direction: "up" });
    expect(response.status).toBe(400);

    const doomed = await db().crewImage.findUniqueOrThrow({ where: { key: "Crew5" }, include: { image: true } });
    response = await postAdminForm(server.url, "/dashboard-admin", cookie, { formId: "delete-Crew5", intent: "delete-crew-image", key: "Crew5" });
    expect(response.status).toBe(200);
    expect(await db().crewImage.findUnique({ where: { key: "Crew5" } })).toBeNull();
    expect(await getStorage().stat(doomed.image.key)).toBeNull();
    await expectStorageConsistent();
    await expectPagesResolve();
  });

  it("adds, edits (new photo) and deletes a crew member and an event", async () => {
    const member = {
      formId: "member-form",
      intent: "save-member",
      name: "Rani",
      age: "21",
      email: "rani@example.com",
      jobTitle: "Host",
      address: "Jl. Kampus 1",
      bio: "Pagi.",
    };
    expect((await postAdminForm(server.url, "/CrewAdmin", cookie, member, { image: await testImage("#550055") })).status).toBe(200);
    const created = await db().crewMember.findFirstOrThrow({ where: { name: "Rani" }, include: { image: true } });
    expect(
      (await postAdminForm(server.url, "/CrewAdmin", cookie, { ...member, id: created.id, name: "Rani P." }, { image: await testImage("#005555") })).status,
    ).toBe(200);
    expect(await getStorage().stat(created.image.key)).toBeNull();
    await expectStorageConsistent();
    expect((await postAdminForm(server.url, "/CrewAdmin", cookie, { formId: `delete-${created.id}`, intent: "delete-member", id: created.id })).status).toBe(
      200,
    );
    expect(await db().crewMember.findUnique({ where: { id: created.id } })).toBeNull();

    const event = { formId: "event-form", intent: "save-event", name: "Malam Akustik", date: "2030-05-01", time: "19:30" };
    const response = await postAdminForm(server.url, "/eventsAdmin?lang=id", cookie, event, { poster: await testImage("#335533", 800, 1000) });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Event berhasil diunggah!");
    const stored = await db().event.findFirstOrThrow({ where: { name: "Malam Akustik" }, include: { poster: true } });
    expect(
      (await postAdminForm(server.url, "/eventsAdmin", cookie, { ...event, id: stored.id, time: "20:00" }, { poster: await testImage("#553333", 800, 1000) }))
        .status,
    ).toBe(200);
    expect(await getStorage().stat(stored.poster.key)).toBeNull();
    await expectStorageConsistent();
    await expectPagesResolve();
    expect((await postAdminForm(server.url, "/eventsAdmin", cookie, { formId: `delete-${stored.id}`, intent: "delete-event", id: stored.id })).status).toBe(
      200,
    );
    await expectStorageConsistent();
  });

  it("refuses a non-image and an oversized file with a clear message and stores nothing", async () => {
    const before = await databaseState();
    const keys = await storageKeys();
    let response = await postAdminForm(
      server.url,
      "/dashboard-admin",
      cookie,
      { formId: "jumbotron", intent: "replace-jumbotron" },
      { image: Buffer.from("#!/bin/sh\necho not an image\n".repeat(10)) },
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("That file is not an image we accept");
    response = await postAdminForm(
      server.url,
      "/dashboard-admin",
      cookie,
      { formId: "jumbotron", intent: "replace-jumbotron" },
      { image: Buffer.concat([await testImage("#111111"), Buffer.alloc(10 * 1024 * 1024)]) },
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("The image is too large; the limit is 10 MB.");
    expect(await databaseState()).toEqual(before);
    expect(await storageKeys()).toEqual(keys);
  });

  it("a storage failure while uploading leaves the old image and no new files", async () => {
    const before = await databaseState();
    const keys = await storageKeys();
    // The main image is written, then a resized copy fails: the half-written upload is taken back.
    setStorage(failingStorage(real, { put: (key) => /-w640\.webp$/.test(key) }));
    await expect(replaceSiteImage("jumbotron", await testImage("#123123", 1600, 900), SYSTEM_ACTOR)).rejects.toThrow(/forms\.storageUnavailable/);
    await expect(addCrewImage(await testImage("#321321", 1200, 1600), SYSTEM_ACTOR)).rejects.toThrow(/forms\.storageUnavailable/);
    setStorage(real);
    expect(await databaseState()).toEqual(before);
    expect(await storageKeys()).toEqual(keys);
    await expectPagesResolve();
  });

  it("a database failure in the middle of the switch leaves the old image and no new files", async () => {
    const before = await databaseState();
    const keys = await storageKeys();
    await db().$executeRawUnsafe(
      `CREATE OR REPLACE FUNCTION fail_switch() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'injected database failure'; END $$ LANGUAGE plpgsql`,
    );
    await db().$executeRawUnsafe(`CREATE TRIGGER fail_site_image BEFORE UPDATE ON "SiteImage" FOR EACH ROW EXECUTE FUNCTION fail_switch()`);
    await db().$executeRawUnsafe(`CREATE TRIGGER fail_crew_image BEFORE UPDATE OR DELETE ON "CrewImage" FOR EACH ROW EXECUTE FUNCTION fail_switch()`);
    try {
      await expect(replaceSiteImage("jumbotron", await testImage("#456456", 1600, 900), SYSTEM_ACTOR)).rejects.toThrow(/injected database failure/);
      await expect(replaceCrewImage("Crew3", await testImage("#654654", 300, 400), SYSTEM_ACTOR)).rejects.toThrow(/injected database failure/);
      await expect(deleteCrewImage("Crew4", SYSTEM_ACTOR)).rejects.toThrow(/injected database failure/);
      const response = await postAdminForm(
        server.url,
        "/dashboard-admin",
        cookie,
        { formId: "jumbotron", intent: "replace-jumbotron" },
        { image: await testImage("#789789", 1600, 900) },
      );
      expect(response.status).toBe(500);
    } finally {
      await db().$executeRawUnsafe(`DROP TRIGGER fail_site_image ON "SiteImage"`);
      await db().$executeRawUnsafe(`DROP TRIGGER fail_crew_image ON "CrewImage"`);
    }
    expect(await databaseState()).toEqual(before);
    expect(await storageKeys()).toEqual(keys);
    await expectPagesResolve();
  });

  it("a storage failure while removing the old file keeps it recorded, and the next sweep removes it", async () => {
    const old = (await getSiteImage("jumbotron"))!;
    setStorage(failingStorage(real, { remove: (key) => key.startsWith(old.key.replace(/\.webp$/, "")) }));
    await replaceSiteImage("jumbotron", await testImage("#abcdef", 1600, 900), SYSTEM_ACTOR);
    const current = (await getSiteImage("jumbotron"))!;
    expect(current.key).not.toBe(old.key);
    // The page already shows the new image; the old one is still accounted for, not a stray object.
    await expectPagesResolve();
    expect(await storageKeys()).toEqual(await recordedKeys());
    expect(await unreferencedFiles()).toEqual([old.key]);
    setStorage(real);
    expect(await discardUnusedFiles()).toBe(1);
    await expectStorageConsistent();
  });

  it("every change above is in the activity log", async () => {
    const actions = new Set((await db().activityLog.findMany({ select: { action: true } })).map((entry) => entry.action));
    for (const action of [
      "site-image.replaced",
      "card-image.replaced",
      "card-image.deleted",
      "crew-image.created",
      "crew-image.replaced",
      "crew-image.moved",
      "crew-image.deleted",
      "crew-member.created",
      "crew-member.updated",
      "crew-member.deleted",
      "event.created",
      "event.updated",
      "event.deleted",
    ]) {
      expect(actions, action).toContain(action);
    }
  });
});
