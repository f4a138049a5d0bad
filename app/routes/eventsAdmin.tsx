import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { AdminList, AdminListItem, EditLink } from "~/components/admin/AdminList";
import { AdminPage, AdminSection } from "~/components/admin/AdminPage";
import { DeleteForm } from "~/components/admin/DeleteForm";
import { EditForm, keepCurrentLabel, useEditing } from "~/components/admin/EditForm";
import { Field } from "~/components/admin/Field";
import { ImagePicker } from "~/components/admin/ImagePicker";
import { EventPopup, formatEventDate } from "~/components/EventPopup";
import { useLiveData } from "~/hooks/useRealtime";
import type { MessageKey } from "~/i18n/keys";
import { requestTranslator } from "~/i18n/language.server";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/translate";
import { createEvent, deleteEvent, listEvents, updateEvent, validateEvent } from "~/models/events.server";
import { requireStaff } from "~/services/admin-session.server";
import { answerAdminForm, pageScoped } from "~/services/admin-forms.server";
import { eventFields } from "~/utils/forms/event";
import { fieldConstraints } from "~/utils/forms/form";

export const meta: MetaFunction = ({ matches }) => [{ title: metaTranslator(matches).t("events.adminMetaTitle") }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request, "content");
  const { t, locale } = await requestTranslator(request);
  const events = (await listEvents()).map((event) => ({
    id: event.id,
    name: event.name,
    date: event.date.toISOString().slice(0, 10),
    time: event.time,
    when: t("events.when", { date: formatEventDate(event.date, locale), time: event.time }),
    poster: event.poster,
  }));
  const editId = new URL(request.url).searchParams.get("edit");
  return { events, editing: events.find((event) => event.id === editId) ?? null };
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireStaff(request, "content");
  const { t } = await requestTranslator(request);
  return answerAdminForm(request, {
    "save-event": async ({ fields, files }) => {
      const editing = Boolean(fields.id);
      const check = validateEvent({ ...fields, poster: files.poster }, editing);
      if (!check.ok) {
        // The form's checks answer with message keys.
        const errors = Object.fromEntries(Object.entries(check.errors).map(([field, key]) => [field, t(key as MessageKey)]));
        return { ok: false, message: t(check.message as MessageKey), errors };
      }
      if (editing) {
        const event = await updateEvent(fields.id, { ...check.value, poster: files.poster ?? null }, actor, t);
        return { ok: true, message: t("events.saved", { name: event.name }) };
      }
      await createEvent({ ...check.value, poster: files.poster }, actor, t);
      return { ok: true, message: t("events.uploaded") };
    },
    "delete-event": pageScoped(async ({ fields }) => {
      await deleteEvent(fields.id ?? "", actor, t);
      return { ok: true, message: t("events.deleted", { name: fields.name ?? "" }) };
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
  const { t } = useT();

  return (
    <AdminPage title={t("events.adminTitle")} intro={t("events.adminIntro")}>
      {latest && <EventPopup key={`${latest.id}-${popup}`} event={latest} initiallyOpen={popup === "open"} />}
      <div className="admin-columns">
        <AdminSection id="event-form-title" title={editing ? t("events.editEvent") : t("events.uploadAnEvent")}>
          <EditForm
            formId="event-form"
            intent="save-event"
            editing={editing}
            addLabel={t("events.uploadAnEvent")}
            addButton={t("events.uploadEvent")}
            successTo="/eventsAdmin"
          >
            <ImagePicker
              name="poster"
              label={keepCurrentLabel(t("events.poster"), Boolean(editing), { t })}
              current={editing?.poster}
              currentAlt={editing ? t("events.currentPosterAlt", { name: editing.name }) : ""}
              aspect="4 / 5"
            />
            <Field name="name" label={t("events.name")} defaultValue={editing?.name} {...limits.name} autoComplete="off" />
            <div className="admin-form__row">
              <Field name="date" label={t("events.date")} type="date" defaultValue={editing?.date} {...limits.date} />
              <Field name="time" label={t("events.time")} type="time" defaultValue={editing?.time} {...limits.time} />
            </div>
          </EditForm>
        </AdminSection>

        <AdminSection
          id="event-list-title"
          title={t("events.allEvents")}
          description={t("events.listDescription", { count: events.length })}
          actions={
            latest && (
              <Link to="?popup=open" preventScrollReset className="button button--ghost">
                {t("events.showPopup")}
              </Link>
            )
          }
        >
          <AdminList items={[...events].reverse()} emptyIcon="calendar" empty={t("events.empty")}>
            {(event) => (
              <AdminListItem
                key={event.id}
                title={event.name}
                thumb={{ image: event.poster, alt: t("events.posterAlt", { name: event.name }), poster: true }}
                actions={
                  <>
                    <EditLink to={`?edit=${event.id}`} readAlso={` ${event.name}`} />
                    <DeleteForm
                      formId={`delete-${event.id}`}
                      intent="delete-event"
                      hidden={{ id: event.id, name: event.name }}
                      confirm={t("events.deleteConfirm", { name: event.name })}
                      readAs={t("events.deleteReadAs", { name: event.name })}
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
