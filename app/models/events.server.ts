import { db } from "~/services/db.server";
import { publish } from "~/services/realtime.server";
import { discardFileIfUnused, recordFile, uploadImage } from "./files.server";

const eventSelect = {
  id: true,
  name: true,
  date: true,
  time: true,
  createdAt: true,
  poster: { select: { key: true, width: true, height: true, variantWidths: true } },
} as const;

/** All events, oldest upload first; the last one is "the latest event" of the popup. */
export function listEvents() {
  return db().event.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: eventSelect });
}

export type EventListItem = Awaited<ReturnType<typeof listEvents>>[number];

export interface NewEvent {
  name: string;
  /** YYYY-MM-DD */
  date: string;
  /** HH:MM, in the station's time zone */
  time: string;
  poster: Buffer;
}

/** Stores the poster, then the event; publishes `events:changed`. Nothing is kept if any step fails. */
export async function createEvent(input: NewEvent): Promise<EventListItem> {
  const poster = await uploadImage(input.poster, "event-posters");
  let event: EventListItem;
  try {
    event = await db().$transaction(async (tx) => {
      const file = await recordFile(tx, poster);
      return tx.event.create({
        data: { name: input.name, date: new Date(`${input.date}T00:00:00Z`), time: input.time, posterId: file.id },
        select: eventSelect,
      });
    });
  } catch (error) {
    await discardFileIfUnused(poster);
    throw error;
  }
  publish("events:changed", { action: "created", records: [event] });
  return event;
}

export async function deleteEvent(id: string): Promise<void> {
  const event = await db().event.delete({ where: { id }, select: eventSelect });
  await discardFileIfUnused(event.poster);
  publish("events:changed", { action: "deleted", records: [{ id: event.id, name: event.name }] });
}
