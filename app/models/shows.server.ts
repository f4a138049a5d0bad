import { Prisma } from "~/generated/prisma/client";
import { db } from "~/services/db.server";
import { publish } from "~/services/realtime.server";
import { parseForm, type FormResult } from "~/utils/forms/form";
import { SHOW_REFUSED, showSchema, slugify } from "~/utils/forms/schedule";
import { activityMessage, logActivity, SYSTEM_ACTOR, type AdminActor } from "./activity.server";
import { commitFileChange, uploadImage } from "./files.server";
import { ScheduleError } from "./schedule.server";

const showSelect = {
  id: true,
  slug: true,
  name: true,
  description: true,
  colour: true,
  artwork: { select: { key: true, width: true, height: true, variantWidths: true } },
  hosts: { select: { crewMember: { select: { id: true, name: true, jobTitle: true } } }, orderBy: { position: "asc" } },
  slots: {
    select: {
      id: true,
      startDate: true,
      startTime: true,
      durationMinutes: true,
      rrule: true,
      endDate: true,
      exdates: true,
      moves: { select: { originalStart: true, newStart: true, durationMinutes: true } },
    },
    orderBy: [{ startDate: "asc" }, { startTime: "asc" }],
  },
} satisfies Prisma.ShowSelect;

/** Every show with its hosts and slots, by name (admin screen). */
export function listShows() {
  return db().show.findMany({ select: showSelect, orderBy: { name: "asc" } });
}

export function getShowBySlug(slug: string) {
  return db().show.findUnique({ where: { slug }, select: showSelect });
}

export interface ShowInput {
  name: string;
  slug: string;
  description: string;
  colour: string;
  hostIds: string[];
}

export { slugify };

/** Checks the show form with its schema (showSchema); the slug is made from the name when left empty. */
export function validateShow(values: { name: string; slug: string; description: string; colour: string; hostIds: string[] }): FormResult<ShowInput> {
  const { hostIds, ...fields } = values;
  return parseForm(showSchema, { ...fields, hosts: hostIds }, SHOW_REFUSED);
}

async function requireCrew(tx: Prisma.TransactionClient, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await tx.crewMember.count({ where: { id: { in: ids } } });
  if (found !== ids.length) throw ScheduleError.of("schedule.hostGone");
}

function friendlyWriteError(error: unknown, slug: string): unknown {
  if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
    return ScheduleError.of("schedule.slugTaken", { slug });
  }
  return error;
}

/** A show's own columns and its hosts (in order), as written on create and on edit. */
function showColumns(input: ShowInput) {
  return {
    name: input.name,
    slug: input.slug,
    description: input.description,
    colour: input.colour,
    hosts: { create: input.hostIds.map((crewMemberId, position) => ({ crewMemberId, position })) },
  };
}

/** What a save does to the artwork: a new image replaces the current one; `remove` takes it away. */
export interface ArtworkChange {
  image: Buffer | null;
  remove?: boolean;
}

const ARTWORK_FOLDER = "show-artwork";

/**
 * Adds a show (and its artwork, when given). The image is checked and stored
 * first, then recorded with the show in one transaction: if anything fails,
 * nothing is kept.
 */
export async function createShow(input: ShowInput, actor: AdminActor = SYSTEM_ACTOR, artwork: ArtworkChange = { image: null }) {
  const upload = artwork.image ? await uploadImage(artwork.image, ARTWORK_FOLDER) : null;
  let show: { id: string; slug: string; name: string };
  try {
    show = await commitFileChange(upload, async (tx, file) => {
      await requireCrew(tx, input.hostIds);
      const created = await tx.show.create({
        data: { ...showColumns(input), artworkId: file?.id ?? null },
        select: { id: true, slug: true, name: true },
      });
      await logActivity(
        tx,
        actor,
        "show.created",
        activityMessage(file ? "admin.activityShowCreatedArtwork" : "admin.activityShowCreated", { name: created.name }),
      );
      return { result: created, replaced: [] };
    });
  } catch (error) {
    throw friendlyWriteError(error, input.slug);
  }
  publish("schedule:changed", { action: "created", records: [show] });
  return show;
}

/** Edits a show; a new image replaces its artwork, `remove` takes it away, neither keeps it. The old file is discarded after the change commits. */
export async function updateShow(id: string, input: ShowInput, actor: AdminActor = SYSTEM_ACTOR, artwork: ArtworkChange = { image: null }) {
  const upload = artwork.image ? await uploadImage(artwork.image, ARTWORK_FOLDER) : null;
  let show: { id: string; slug: string; name: string };
  try {
    show = await commitFileChange(upload, async (tx, file) => {
      const previous = await tx.show.findUnique({ where: { id }, select: { id: true, artwork: { select: { key: true, variantWidths: true } } } });
      if (!previous) throw ScheduleError.of("schedule.showGone");
      await requireCrew(tx, input.hostIds);
      await tx.showHost.deleteMany({ where: { showId: id } });
      const dropArtwork = Boolean(file) || Boolean(artwork.remove);
      const updated = await tx.show.update({
        where: { id },
        data: { ...showColumns(input), ...(dropArtwork ? { artworkId: file?.id ?? null } : {}) },
        select: { id: true, slug: true, name: true },
      });
      const summary = file
        ? "admin.activityShowUpdatedArtwork"
        : artwork.remove && previous.artwork
          ? "admin.activityShowUpdatedNoArtwork"
          : "admin.activityShowUpdated";
      await logActivity(tx, actor, "show.updated", activityMessage(summary, { name: updated.name }));
      return { result: updated, replaced: dropArtwork ? [previous.artwork] : [] };
    });
  } catch (error) {
    throw friendlyWriteError(error, input.slug);
  }
  publish("schedule:changed", { action: "updated", records: [show] });
  return show;
}

/** Deletes a show with its slots and artwork; its episodes stay (without a show) and its songs in the history keep the show's name. */
export async function deleteShow(id: string, actor: AdminActor = SYSTEM_ACTOR): Promise<void> {
  const show = await commitFileChange(null, async (tx) => {
    const removed = await tx.show.findUnique({ where: { id }, select: { id: true, name: true, artwork: { select: { key: true, variantWidths: true } } } });
    if (!removed) throw ScheduleError.of("schedule.showGone");
    await tx.show.delete({ where: { id } });
    await logActivity(tx, actor, "show.deleted", activityMessage("admin.activityShowDeleted", { name: removed.name }));
    return { result: { id: removed.id, name: removed.name }, replaced: [removed.artwork] };
  });
  publish("schedule:changed", { action: "deleted", records: [show] });
}

/** Every show by name, for the episode form's show picker. */
export function listShowChoices() {
  return db().show.findMany({ select: { id: true, name: true }, orderBy: { name: "asc" } });
}
