import { keyedMessage } from "~/i18n/keyed";
import type { Translator } from "~/i18n/translate";
import { db } from "~/services/db.server";
import { cachedRead } from "~/services/read-cache.server";
import { publish } from "~/services/realtime.server";
import { UploadError } from "~/services/uploads.server";
import { crewMemberSchema, type CrewMemberInput } from "~/utils/forms/crew-member";
import { parseForm, type FormResult } from "~/utils/forms/form";
import type { ActivityMessage } from "~/utils/activity-message";
import { activityMessage, logActivity, type AdminActor } from "./activity.server";
import { commitFileChange, uploadImage } from "./files.server";

const imageSelect = { select: { key: true, width: true, height: true, variantWidths: true } } as const;

/** The crew members managed on /CrewAdmin, with everything the admin entered. */
export function listCrewMembers() {
  return db().crewMember.findMany({
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, name: true, age: true, email: true, jobTitle: true, address: true, bio: true, detailsPublic: true, image: imageSelect },
  });
}

/**
 * The public CREW page's profiles: name, role, photo and bio; age, email and address only for a
 * member whose admin ticked "show on the public page" (never sent to the page otherwise).
 */
export async function listPublicCrewMembers() {
  const members = await listCrewMembers();
  return members.map(({ detailsPublic, age, email, address, ...profile }) => ({ ...profile, details: detailsPublic ? { age, email, address } : null }));
}

/** The slider images Crew1, Crew2, ... in slider order. */
export function listCrewImages() {
  return cachedRead("crewImages", () =>
    db().crewImage.findMany({
      orderBy: [{ position: "asc" }, { key: "asc" }],
      select: { id: true, key: true, position: true, image: imageSelect },
    }),
  );
}

export type CrewImageListItem = Awaited<ReturnType<typeof listCrewImages>>[number];

export interface CrewSliderPage {
  images: CrewImageListItem[];
  total: number;
  start: number;
}

/**
 * What a page ships for the crew slider's first render: the `size` images from index `from` on
 * (the page's ?crew= as given; from the first when it is not a valid index), and how many there are in all.
 */
export async function crewSliderPage(from: string | null, size: number): Promise<CrewSliderPage> {
  const all = await listCrewImages();
  const requested = Number(from);
  const start = Number.isInteger(requested) && requested > 0 && requested < all.length ? requested : 0;
  return { images: all.slice(start, start + size), total: all.length, start };
}

// ---- Crew slider images (admin)

const crewImageKey = (n: number) => `Crew${n}`;

function keyNumber(key: string): number {
  const match = /^Crew(\d+)$/.exec(key);
  return match ? Number(match[1]) : 0;
}

function publishCrewImages(action: "created" | "updated" | "deleted" | "reordered", keys: string[]) {
  publish("images:changed", { action, records: keys.map((key) => ({ kind: "crew-image", key })) });
}

/** Replaces the picture behind one slider key. */
export async function replaceCrewImage(key: string, image: Buffer, actor: AdminActor) {
  const upload = await uploadImage(image, "crew");
  await commitFileChange(upload, async (tx, file) => {
    const previous = await tx.crewImage.findUnique({ where: { key }, select: { image: imageSelect } });
    if (!previous) throw new UploadError(keyedMessage("admin.crewImageGone", { key }));
    await tx.crewImage.update({ where: { key }, data: { imageId: file!.id } });
    await logActivity(tx, actor, "crew-image.replaced", activityMessage("admin.activityCrewImageReplaced", { key }));
    return { result: null, replaced: [previous.image] };
  });
  publishCrewImages("updated", [key]);
}

/** Adds a picture at the end of the slider as the next free `Crew{n}`. */
export async function addCrewImage(image: Buffer, actor: AdminActor): Promise<string> {
  const upload = await uploadImage(image, "crew");
  const key = await commitFileChange(upload, async (tx, file) => {
    // One adder at a time, so two admins never get the same key.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(5417002)`;
    const existing = await tx.crewImage.findMany({ select: { key: true, position: true } });
    const next = Math.max(0, ...existing.map((image) => keyNumber(image.key))) + 1;
    const position = Math.max(0, ...existing.map((image) => image.position)) + 1;
    await tx.crewImage.create({ data: { key: crewImageKey(next), position, imageId: file!.id } });
    await logActivity(tx, actor, "crew-image.created", activityMessage("admin.activityCrewImageAdded", { key: crewImageKey(next) }));
    return { result: crewImageKey(next), replaced: [] };
  });
  publishCrewImages("created", [key]);
  return key;
}

/** Removes a picture from the slider (its key is not reused by later additions unless it was the last). */
export async function deleteCrewImage(key: string, actor: AdminActor) {
  await commitFileChange(null, async (tx) => {
    const removed = await tx.crewImage.findUnique({ where: { key }, select: { image: imageSelect } });
    if (!removed) throw new UploadError(keyedMessage("admin.crewImageGone", { key }));
    await tx.crewImage.delete({ where: { key } });
    await logActivity(tx, actor, "crew-image.deleted", activityMessage("admin.activityCrewImageDeleted", { key }));
    return { result: null, replaced: [removed.image] };
  });
  publishCrewImages("deleted", [key]);
}

/** Swaps a picture with its neighbour before (-1) or after (+1) it in the slider. */
export async function moveCrewImage(key: string, direction: -1 | 1, actor: AdminActor): Promise<boolean> {
  return placeCrewImage(
    key,
    (index) => index + direction,
    direction < 0 ? activityMessage("admin.activityCrewImageMovedUp", { key }) : activityMessage("admin.activityCrewImageMovedDown", { key }),
    actor,
  );
}

/** Drag-to-reorder: puts a crew image at a 1-based position of the slider, shifting the others. */
export async function moveCrewImageTo(key: string, position: number, actor: AdminActor): Promise<boolean> {
  return placeCrewImage(key, () => position - 1, activityMessage("admin.activityCrewImageMovedTo", { key, position }), actor);
}

async function placeCrewImage(key: string, target: (index: number) => number, logged: ActivityMessage, actor: AdminActor): Promise<boolean> {
  const moved = await db().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(5417002)`;
    const images = await tx.crewImage.findMany({ orderBy: [{ position: "asc" }, { key: "asc" }], select: { id: true, key: true } });
    const index = images.findIndex((image) => image.key === key);
    const to = target(index);
    if (index < 0 || !Number.isInteger(to) || to < 0 || to >= images.length || to === index) return false;
    const order = images.map((image) => image.id);
    const [id] = order.splice(index, 1);
    order.splice(to, 0, id);
    // Renumber 1..n so earlier duplicates or gaps in positions never make a move a no-op.
    for (const [position, imageId] of order.entries()) await tx.crewImage.update({ where: { id: imageId }, data: { position: position + 1 } });
    await logActivity(tx, actor, "crew-image.moved", logged);
    return true;
  });
  if (moved) publishCrewImages("reordered", [key]);
  return moved;
}

// ---- Crew members (admin)

/** Checks the crew form (fields and photo) with its schema; errors are per field, as message keys for the route to translate. */
export function validateCrewMember(values: Record<string, unknown>, editing: boolean): FormResult<CrewMemberInput> {
  const check = parseForm(crewMemberSchema(editing), values, "chart.correctFields");
  if (!check.ok) return check;
  const { image: _image, ...value } = check.value;
  return { ok: true, value };
}

function publishCrewMember(action: "created" | "updated" | "deleted", id: string) {
  publish("images:changed", { action, records: [{ kind: "crew-member", id }] });
}

export async function createCrewMember(input: CrewMemberInput, image: Buffer, actor: AdminActor) {
  const upload = await uploadImage(image, "members", { artwork: true });
  const member = await commitFileChange(upload, async (tx, file) => {
    const created = await tx.crewMember.create({ data: { ...input, imageId: file!.id }, select: { id: true, name: true } });
    await logActivity(tx, actor, "crew-member.created", activityMessage("admin.activityCrewMemberAdded", { name: created.name }));
    return { result: created, replaced: [] };
  });
  publishCrewMember("created", member.id);
  return member;
}

/** Updates a member; a new photo replaces the old one, no photo keeps it. `t` words a refusal in the admin's language. */
export async function updateCrewMember(id: string, input: CrewMemberInput, image: Buffer | null, actor: AdminActor, t: Translator["t"]) {
  const upload = image ? await uploadImage(image, "members", { artwork: true }) : null;
  const member = await commitFileChange(upload, async (tx, file) => {
    const previous = await tx.crewMember.findUnique({ where: { id }, select: { image: imageSelect } });
    if (!previous) throw new UploadError(t("chart.memberGone"));
    const updated = await tx.crewMember.update({
      where: { id },
      data: { ...input, ...(file ? { imageId: file.id } : {}) },
      select: { id: true, name: true },
    });
    await logActivity(
      tx,
      actor,
      "crew-member.updated",
      activityMessage(file ? "admin.activityCrewMemberUpdatedPhoto" : "admin.activityCrewMemberUpdated", { name: updated.name }),
    );
    return { result: updated, replaced: file ? [previous.image] : [] };
  });
  publishCrewMember("updated", member.id);
  return member;
}

export async function deleteCrewMember(id: string, actor: AdminActor, t: Translator["t"]) {
  const member = await commitFileChange(null, async (tx) => {
    const removed = await tx.crewMember.findUnique({ where: { id }, select: { id: true, name: true, image: imageSelect } });
    if (!removed) throw new UploadError(t("chart.memberGone"));
    await tx.crewMember.delete({ where: { id } });
    await logActivity(tx, actor, "crew-member.deleted", activityMessage("admin.activityCrewMemberDeleted", { name: removed.name }));
    return { result: removed, replaced: [removed.image] };
  });
  publishCrewMember("deleted", member.id);
}
