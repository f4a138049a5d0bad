import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { AdminList, AdminListItem, EditLink } from "~/components/admin/AdminList";
import { AdminPage, AdminSection } from "~/components/admin/AdminPage";
import { DeleteForm } from "~/components/admin/DeleteForm";
import { EditForm, keepCurrentLabel, useEditing } from "~/components/admin/EditForm";
import { Field } from "~/components/admin/Field";
import { ImagePicker } from "~/components/admin/ImagePicker";
import { EventPopup } from "~/components/EventPopup";
import { useLiveData } from "~/hooks/useRealtime";
import { createEvent, deleteEvent, EVENT_UPLOADED, listEvents, updateEvent, validateEvent } from "~/models/events.server";
import { requireAdmin } from "~/services/admin-session.server";
import { answerAdminForm, pageScoped } from "~/services/admin-forms.server";
import { eventFields } from "~/utils/forms/event";
import { fieldConstraints } from "~/utils/forms/form";

export const meta: MetaFunction = () => [{ title: "Events · Admin" }, { name: "robots", content: "noindex" }];

// Event dates are calendar dates stored at UTC midnight; times are already in the station's zone.
const dateFormat = new Intl.DateTimeFormat("id-ID", { weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const events = (await listEvents()).map((event) => ({
    id: event.id,
    name: event.name,
    date: event.date.toISOString().slice(0, 10),
    time: event.time,
    when: `${dateFormat.format(event.date)} · ${event.time}`,
    poster: event.poster,
  }));
  const editId = new URL(request.url).searchParams.get("edit");
  return { events, editing: events.find((event) => event.id === editId) ?? null };
}

export async function action({ request }: ActionFunctionArgs) {
  const session = await requireAdmin(request);
  const actor = { adminSessionId: session.id };
  return answerAdminForm(request, {
    "save-event": async ({ fields, files }) => {
      const editing = Boolean(fields.id);
      const check = validateEvent({ ...fields, poster: files.poster }, editing);
      if (!check.ok) return check;
      if (editing) {
        const event = await updateEvent(fields.id, { ...check.value, poster: files.poster ?? null }, actor);
        return { ok: true, message: `Event "${event.name}" saved.` };
      }
      await createEvent({ ...check.value, poster: files.poster }, actor);
      return { ok: true, message: EVENT_UPLOADED };
    },
    "delete-event": pageScoped(async ({ fields }) => {
      await deleteEvent(fields.id ?? "", actor);
      return { ok: true, message: `Event "${fields.name ?? ""}" deleted.` };
    }),
  });
}

const limits = fieldConstraints(eventFields);

export default function EventsAdmin() {
  const { events, editing: editingFromUrl } = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  useLiveData("events:changed");
  const editing = useEditing("event-form", editingFromUrl);
  const latest = events.at(-1);
  const popup = searchParams.get("popup");

  return (
    <AdminPage title="Events" intro="Upload an event with its poster, name, date and time. The latest one pops up on the public EVENTS page.">
      {latest && <EventPopup key={`${latest.id}-${popup}`} event={latest} initiallyOpen={popup === "open"} />}
      <div className="admin-columns">
        <AdminSection id="event-form-title" title={editing ? "Edit event" : "Upload an event"}>
          <EditForm formId="event-form" intent="save-event" editing={editing} addLabel="Upload an event" addButton="Upload event" successTo="/eventsAdmin">
            <ImagePicker
              name="poster"
              label={keepCurrentLabel("Poster", Boolean(editing))}
              current={editing?.poster}
              currentAlt={editing ? `Current poster for ${editing.name}` : ""}
              aspect="4 / 5"
            />
            <Field name="name" label="Name" defaultValue={editing?.name} {...limits.name} autoComplete="off" />
            <div className="admin-form__row">
              <Field name="date" label="Date" type="date" defaultValue={editing?.date} {...limits.date} />
              <Field name="time" label="Time" type="time" defaultValue={editing?.time} {...limits.time} />
            </div>
          </EditForm>
        </AdminSection>

        <AdminSection
          id="event-list-title"
          title="All events"
          description={`${events.length} event${events.length === 1 ? "" : "s"}, newest first.`}
          actions={
            latest && (
              <Link to="?popup=open" preventScrollReset className="button button--ghost">
                Show the popup
              </Link>
            )
          }
        >
          <AdminList items={[...events].reverse()} emptyIcon="calendar" empty="Belum ada event yang diunggah.">
            {(event) => (
              <AdminListItem
                key={event.id}
                title={event.name}
                thumb={{ image: event.poster, alt: `Poster for ${event.name}`, poster: true }}
                actions={
                  <>
                    <EditLink to={`?edit=${event.id}`} aria-label={`Edit ${event.name}`} />
                    <DeleteForm
                      formId={`delete-${event.id}`}
                      intent="delete-event"
                      hidden={{ id: event.id, name: event.name }}
                      confirm={`Delete the event "${event.name}"?`}
                      readAs={`Delete ${event.name}`}
                    />
                  </>
                }
              >
                <p className="caption">{event.when}</p>
              </AdminListItem>
            )}
          </AdminList>
        </AdminSection>
      </div>
    </AdminPage>
  );
}
