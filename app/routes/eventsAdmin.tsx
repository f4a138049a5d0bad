import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { AdminForm, FormStatus, SubmitButton, type AdminResult } from "~/components/admin/AdminForm";
import { AdminPage, AdminSection } from "~/components/admin/AdminPage";
import { Field } from "~/components/admin/Field";
import { ImagePicker } from "~/components/admin/ImagePicker";
import { EventPopup } from "~/components/EventPopup";
import { Icon } from "~/components/Icon";
import { useLiveData } from "~/hooks/useRealtime";
import { createEvent, deleteEvent, EVENT_UPLOADED, listEvents, updateEvent, validateEvent } from "~/models/events.server";
import { requireAdmin } from "~/services/admin-session.server";
import { answerAdminForm, pageScoped } from "~/services/admin-forms.server";
import { mediaUrlFor } from "~/utils/media";

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
      const check = validateEvent({ name: fields.name ?? "", date: fields.date ?? "", time: fields.time ?? "" }, { hasPoster: Boolean(files.poster), editing });
      if (!check.ok) return { ok: false, message: check.error, errors: check.errors };
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

export default function EventsAdmin() {
  const { events, editing: editingFromUrl } = useLoaderData<typeof loader>();
  const actionData = useActionData<AdminResult | undefined>();
  const [searchParams] = useSearchParams();
  useLiveData("events:changed");
  // Edit mode is left after a successful submit, even before the URL changes (no JavaScript).
  const editing = actionData?.formId === "event-form" && actionData.ok ? null : editingFromUrl;
  const latest = events.at(-1);
  const popup = searchParams.get("popup");

  return (
    <AdminPage title="Events" intro="Upload an event with its poster, name, date and time. The latest one pops up on the public EVENTS page.">
      {latest && <EventPopup key={`${latest.id}-${popup}`} event={latest} initiallyOpen={popup === "open"} />}
      <div className="admin-columns">
        <AdminSection id="event-form-title" title={editing ? "Edit event" : "Upload an event"}>
          <AdminForm
            formId="event-form"
            intent="save-event"
            hidden={editing ? { id: editing.id } : undefined}
            successTo="/eventsAdmin"
            className="admin-form"
            aria-label={editing ? `Edit ${editing.name}` : "Upload an event"}
          >
            <div key={editing?.id ?? "new"} className="admin-form__fields">
              <ImagePicker
                name="poster"
                label={editing ? "Poster (leave empty to keep the current one)" : "Poster"}
                current={editing?.poster}
                currentAlt={editing ? `Current poster for ${editing.name}` : ""}
                aspect="4 / 5"
              />
              <Field name="name" label="Name" defaultValue={editing?.name} maxLength={120} required autoComplete="off" />
              <div className="admin-form__row">
                <Field name="date" label="Date" type="date" defaultValue={editing?.date} required />
                <Field name="time" label="Time" type="time" defaultValue={editing?.time} required />
              </div>
            </div>
            <FormStatus />
            <div className="admin-form__actions">
              <SubmitButton pendingLabel="Saving…">{editing ? "Save changes" : "Upload event"}</SubmitButton>
              {editing && (
                <Link to="/eventsAdmin" className="button button--ghost">
                  Cancel editing
                </Link>
              )}
            </div>
          </AdminForm>
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
          {events.length === 0 ? (
            <p className="empty-state">
              <Icon name="calendar" />
              Belum ada event yang diunggah.
            </p>
          ) : (
            <ul className="admin-list">
              {[...events].reverse().map((event) => (
                <li key={event.id} className="admin-list__item">
                  <img
                    className="admin-list__thumb admin-list__thumb--poster"
                    src={mediaUrlFor(event.poster, 320)}
                    alt={`Poster for ${event.name}`}
                    width={64}
                    height={80}
                    loading="lazy"
                  />
                  <div className="admin-list__text">
                    <p className="admin-list__title">{event.name}</p>
                    <p className="caption">{event.when}</p>
                  </div>
                  <div className="admin-list__actions">
                    <Link to={`?edit=${event.id}`} className="button button--ghost" aria-label={`Edit ${event.name}`}>
                      Edit
                    </Link>
                    <AdminForm
                      formId={`delete-${event.id}`}
                      intent="delete-event"
                      hidden={{ id: event.id, name: event.name }}
                      confirm={`Delete the event "${event.name}"?`}
                    >
                      <SubmitButton pendingLabel="Deleting…" variant="danger">
                        <span aria-hidden="true">Delete</span>
                        <span className="visually-hidden">Delete {event.name}</span>
                      </SubmitButton>
                    </AdminForm>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </AdminSection>
      </div>
    </AdminPage>
  );
}
