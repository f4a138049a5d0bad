import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ActionLabel } from "~/components/admin/ActionLabel";
import { AdminForm, SubmitButton, useSubmittedValue } from "~/components/admin/AdminForm";
import { AdminList, AdminListItem, EditLink } from "~/components/admin/AdminList";
import { AdminPage, AdminSection } from "~/components/admin/AdminPage";
import { DeleteForm } from "~/components/admin/DeleteForm";
import { EditForm, keepCurrentLabel, useEditing } from "~/components/admin/EditForm";
import { Field } from "~/components/admin/Field";
import { ImagePicker } from "~/components/admin/ImagePicker";
import { useLiveData } from "~/hooks/useRealtime";
import { listCrewMembers } from "~/models/crew.server";
import {
  cancelAiring,
  createSlot,
  deleteSlot,
  describeSlot,
  listAirings,
  moveAiring,
  parseDuration,
  slotDays,
  toPublicAiring,
  updateSlot,
  validateSlot,
} from "~/models/schedule.server";
import { createShow, deleteShow, listShows, updateShow, validateShow } from "~/models/shows.server";
import { requireAdmin } from "~/services/admin-session.server";
import { answerAdminForm, pageScoped } from "~/services/admin-forms.server";
import { getConfig } from "~/services/config.server";
import { dayIn, timeIn } from "~/utils/airing-format";
import { WEEKDAY_NAMES, WEEKDAYS } from "~/utils/weekdays";

export const meta: MetaFunction = () => [{ title: "Schedule · Admin" }, { name: "robots", content: "noindex" }];

const UPCOMING_DAYS = 14;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const [shows, crew] = await Promise.all([listShows(), listCrewMembers()]);
  const now = new Date();
  const airings = await listAirings(now, new Date(now.getTime() + UPCOMING_DAYS * 86_400_000));
  const url = new URL(request.url);
  const editShow = shows.find((show) => show.id === url.searchParams.get("edit")) ?? null;
  const slotId = url.searchParams.get("slot");
  const editSlot = shows.flatMap((show) => show.slots.map((slot) => ({ ...slot, showId: show.id }))).find((slot) => slot.id === slotId) ?? null;
  return {
    shows: shows.map((show) => ({ ...show, slots: show.slots.map((slot) => ({ id: slot.id, text: describeSlot(slot) })) })),
    crew: crew.map((member) => ({ id: member.id, name: member.name })),
    airings: airings.map(toPublicAiring),
    editShow: editShow && {
      id: editShow.id,
      name: editShow.name,
      slug: editShow.slug,
      description: editShow.description,
      colour: editShow.colour,
      artwork: editShow.artwork,
      hostIds: editShow.hosts.map((host) => host.crewMember.id),
    },
    editSlot: editSlot && { ...editSlot, days: slotDays(editSlot.rrule) },
    stationTimeZone: getConfig().stationTimezone,
    today: new Date().toISOString().slice(0, 10),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const session = await requireAdmin(request);
  const actor = { adminSessionId: session.id };
  return answerAdminForm(request, {
    "save-show": async ({ fields, files }) => {
      const check = validateShow({
        name: fields.name ?? "",
        slug: fields.slug ?? "",
        description: fields.description ?? "",
        colour: fields.colour ?? "",
        hostIds: Object.keys(fields)
          .filter((name) => name.startsWith("host-"))
          .map((name) => name.slice(5)),
      });
      if (!check.ok) return { ok: false, message: "Please correct the marked fields.", errors: check.errors };
      const artwork = { image: files.artwork ?? null, remove: fields.removeArtwork !== undefined };
      if (fields.id) {
        const show = await updateShow(fields.id, check.value, actor, artwork);
        return { ok: true, message: `"${show.name}" saved.` };
      }
      const show = await createShow(check.value, actor, artwork);
      return { ok: true, message: `"${show.name}" added. Now give it a time slot.` };
    },
    "delete-show": pageScoped(async ({ fields }) => {
      await deleteShow(fields.id ?? "", actor);
      return { ok: true, message: `"${fields.name ?? "The show"}" deleted.` };
    }),
    "save-slot": async ({ fields }) => {
      const duration = parseDuration(fields.duration ?? "");
      const check = validateSlot({
        kind: fields.kind === "once" ? "once" : "weekly",
        days: WEEKDAYS.filter((day) => fields[`day-${day}`] !== undefined),
        startDate: (fields.startDate ?? "").trim(),
        startTime: (fields.startTime ?? "").trim(),
        durationMinutes: duration ?? Number.NaN,
        endDate: (fields.endDate ?? "").trim() || null,
      });
      if (!check.ok) return { ok: false, message: check.error };
      if (fields.slotId) {
        await updateSlot(fields.slotId, check.value, actor);
        return { ok: true, message: "Time slot saved." };
      }
      await createSlot(fields.showId ?? "", check.value, actor);
      return { ok: true, message: "Time slot added." };
    },
    "delete-slot": pageScoped(async ({ fields }) => {
      await deleteSlot(fields.slotId ?? "", actor);
      return { ok: true, message: "Time slot removed." };
    }),
    "cancel-airing": pageScoped(async ({ fields }) => {
      await cancelAiring(fields.slotId ?? "", fields.originalStart ?? "", actor);
      return { ok: true, message: `The airing of ${(fields.originalStart ?? "").replace("T", " ")} is cancelled.` };
    }),
    "move-airing": pageScoped(async ({ fields }) => {
      const duration = parseDuration(fields.duration ?? "");
      if (duration === null) return { ok: false, message: "The duration must be between 5 and 1440 minutes. Nothing was changed." };
      await moveAiring(fields.slotId ?? "", fields.originalStart ?? "", fields.newStart ?? "", duration, actor);
      return { ok: true, message: `Moved to ${(fields.newStart ?? "").replace("T", " ")}.` };
    }),
  });
}

function Checkbox({ name, label, defaultChecked }: { name: string; label: string; defaultChecked: boolean }) {
  const submitted = useSubmittedValue(name);
  return (
    <label className="schedule-check check-chip">
      <input type="checkbox" name={name} defaultChecked={submitted !== undefined || defaultChecked} /> {label}
    </label>
  );
}

export default function ScheduleAdmin() {
  const { shows, crew, airings, editShow, editSlot, stationTimeZone, today } = useLoaderData<typeof loader>();
  useLiveData("schedule:changed");
  const showEditing = useEditing("show-form", editShow);
  const slotEditing = useEditing("slot-form", editSlot);
  const minutes = (airing: { start: string; end: string }) => String(Math.round((Date.parse(airing.end) - Date.parse(airing.start)) / 60_000));

  return (
    <AdminPage
      title="Schedule"
      intro={`Shows, their weekly time slots and one-off specials, in station time (${stationTimeZone}). Overlapping airings are refused.`}
    >
      <div className="admin-columns">
        <AdminSection id="show-form-title" title={showEditing ? `Edit ${showEditing.name}` : "Add a show"}>
          <EditForm
            formId="show-form"
            intent="save-show"
            editing={showEditing}
            addLabel="Add a show"
            addButton="Add show"
            saveButton="Save show"
            successTo="/schedule-admin"
          >
            <Field name="name" label="Name" defaultValue={showEditing?.name} maxLength={100} required autoComplete="off" />
            <Field
              name="slug"
              label="Address /shows/…"
              hint="Leave empty to make it from the name."
              defaultValue={showEditing?.slug}
              maxLength={60}
              autoComplete="off"
            />
            <Field name="description" label="Description" multiline rows={4} defaultValue={showEditing?.description} maxLength={4000} />
            <Field name="colour" label="Colour" type="color" defaultValue={showEditing?.colour ?? "#e11d48"} />
            <ImagePicker
              name="artwork"
              label={keepCurrentLabel("Artwork", Boolean(showEditing?.artwork), { optional: true })}
              current={showEditing?.artwork}
              currentAlt={showEditing ? `Current artwork for ${showEditing.name}` : ""}
              hint="Square works best; shown on the show's page, the schedule and the player."
            />
            {showEditing?.artwork && <Checkbox name="removeArtwork" label="Remove the artwork" defaultChecked={false} />}
            <fieldset className="schedule-fieldset">
              <legend className="admin-label">Hosts</legend>
              {crew.length === 0 ? (
                <p className="caption">Add crew members first (CREW).</p>
              ) : (
                crew.map((member) => (
                  <Checkbox key={member.id} name={`host-${member.id}`} label={member.name} defaultChecked={showEditing?.hostIds.includes(member.id) ?? false} />
                ))
              )}
            </fieldset>
          </EditForm>
        </AdminSection>

        <AdminSection
          id="slot-form-title"
          title={slotEditing ? "Edit time slot" : "Add a time slot"}
          description="Weekly on the chosen days, or once (a special)."
        >
          {shows.length === 0 ? (
            <p className="caption">Add a show first.</p>
          ) : (
            <EditForm
              formId="slot-form"
              intent="save-slot"
              editing={slotEditing && { id: slotEditing.id, name: "time slot" }}
              idField="slotId"
              addLabel="Add a time slot"
              addButton="Add time slot"
              saveButton="Save time slot"
              successTo="/schedule-admin"
            >
              {!slotEditing && (
                <div className="admin-field">
                  <label htmlFor="slot-show" className="admin-label">
                    Show
                  </label>
                  <select id="slot-show" name="showId" className="admin-input" defaultValue={shows[0].id}>
                    {shows.map((show) => (
                      <option key={show.id} value={show.id}>
                        {show.name}
                      </option>
                    ))}
                  </select>
                </div>
              )}
              <fieldset className="schedule-fieldset">
                <legend className="admin-label">Repeats</legend>
                <label className="schedule-check check-chip">
                  <input type="radio" name="kind" value="weekly" defaultChecked={slotEditing ? Boolean(slotEditing.rrule) : true} /> Weekly
                </label>
                <label className="schedule-check check-chip">
                  <input type="radio" name="kind" value="once" defaultChecked={slotEditing ? !slotEditing.rrule : false} /> Once (special)
                </label>
              </fieldset>
              <fieldset className="schedule-fieldset">
                <legend className="admin-label">Days (weekly)</legend>
                {WEEKDAYS.map((day) => (
                  <Checkbox key={day} name={`day-${day}`} label={WEEKDAY_NAMES[day]} defaultChecked={slotEditing?.days.includes(day) ?? false} />
                ))}
              </fieldset>
              <div className="admin-form__row">
                <Field name="startDate" label="First date" type="date" defaultValue={slotEditing?.startDate ?? today} required />
                <Field name="startTime" label="Start time" type="time" defaultValue={slotEditing?.startTime} required />
              </div>
              <div className="admin-form__row">
                <Field name="duration" label="Minutes" type="number" min={5} max={1440} defaultValue={slotEditing?.durationMinutes ?? 60} required />
                <Field name="endDate" label="Last date (optional)" type="date" defaultValue={slotEditing?.endDate ?? ""} />
              </div>
            </EditForm>
          )}
        </AdminSection>
      </div>

      <AdminSection
        id="show-list-title"
        title="Shows"
        description={`${shows.length} show${shows.length === 1 ? "" : "s"}.`}
        actions={
          <Link to="/schedule" className="button button--ghost">
            Public schedule
          </Link>
        }
      >
        <AdminList items={shows} empty="No shows yet.">
          {(show) => (
            <AdminListItem
              key={show.id}
              className="schedule-admin__show"
              style={{ borderColor: show.colour }}
              title={<Link to={`/shows/${show.slug}`}>{show.name}</Link>}
              thumb={show.artwork && { image: show.artwork, alt: `Artwork for ${show.name}` }}
              actions={
                <>
                  <EditLink to={`?edit=${show.id}`} aria-label={`Edit ${show.name}`} />
                  <DeleteForm
                    formId={`delete-${show.id}`}
                    intent="delete-show"
                    hidden={{ id: show.id, name: show.name }}
                    confirm={`Delete the show "${show.name}" with its time slots and artwork? Its episodes stay, without a show.`}
                    readAs={`Delete ${show.name}`}
                  />
                </>
              }
            >
              {show.hosts.length > 0 && <p className="caption">with {show.hosts.map((host) => host.crewMember.name).join(", ")}</p>}
              <ul className="schedule-admin__slots">
                {show.slots.map((slot) => (
                  <li key={slot.id}>
                    <span>{slot.text}</span> <EditLink to={`?slot=${slot.id}`} aria-label={`Edit the slot ${slot.text}`} />
                    <DeleteForm
                      formId={`delete-slot-${slot.id}`}
                      intent="delete-slot"
                      hidden={{ slotId: slot.id }}
                      confirm={`Remove the time slot "${slot.text}"?`}
                      label="Remove"
                      pendingLabel="Removing…"
                      readAs={`Remove the slot ${slot.text}`}
                    />
                  </li>
                ))}
              </ul>
            </AdminListItem>
          )}
        </AdminList>
      </AdminSection>

      <AdminSection id="airings-title" title={`Next ${UPCOMING_DAYS} days`} description="Cancel or move one airing; the rest of the series stays as it is.">
        <AdminList items={airings} empty={`Nothing scheduled in the next ${UPCOMING_DAYS} days.`}>
          {(airing) => {
            const label = `${airing.name} on ${dayIn(airing.start, stationTimeZone)} at ${timeIn(airing.start, stationTimeZone)}`;
            const key = `${airing.slotId}-${airing.originalStart}`;
            return (
              <AdminListItem
                key={key}
                className="schedule-admin__airing"
                style={{ borderColor: airing.colour }}
                title={airing.name}
                actions={
                  <>
                    <AdminForm
                      formId={`move-${key}`}
                      intent="move-airing"
                      hidden={{ slotId: airing.slotId, originalStart: airing.originalStart }}
                      className="admin-form--inline"
                      aria-label={`Move ${label}`}
                    >
                      <label className="visually-hidden" htmlFor={`move-${key}-start`}>
                        New start of {label}
                      </label>
                      <input
                        id={`move-${key}-start`}
                        type="datetime-local"
                        name="newStart"
                        className="admin-input"
                        defaultValue={airing.originalStart}
                        required
                      />
                      <label className="visually-hidden" htmlFor={`move-${key}-duration`}>
                        Minutes
                      </label>
                      <input
                        id={`move-${key}-duration`}
                        type="number"
                        name="duration"
                        className="admin-input schedule-admin__minutes"
                        min={5}
                        max={1440}
                        defaultValue={minutes(airing)}
                        required
                      />
                      <SubmitButton pendingLabel="Moving…" variant="ghost">
                        <ActionLabel label="Move" readAs={`Move ${label}`} />
                      </SubmitButton>
                    </AdminForm>
                    <DeleteForm
                      formId={`cancel-${key}`}
                      intent="cancel-airing"
                      hidden={{ slotId: airing.slotId, originalStart: airing.originalStart }}
                      confirm={`Cancel ${label}?`}
                      label="Cancel"
                      pendingLabel="Cancelling…"
                      readAs={`Cancel ${label}`}
                    />
                  </>
                }
              >
                <p className="caption">
                  {dayIn(airing.start, stationTimeZone)} · {timeIn(airing.start, stationTimeZone)}–{timeIn(airing.end, stationTimeZone)}
                  {airing.moved && ` (moved from ${airing.originalStart.replace("T", " ")})`}
                </p>
              </AdminListItem>
            );
          }}
        </AdminList>
      </AdminSection>

      <AdminSection
        id="history-export-title"
        title="Song history export"
        description="Every song played between two dates (station time), as CSV for licensing reports."
      >
        <form method="get" action="/history.csv" className="admin-form admin-form--inline">
          <label htmlFor="export-from" className="admin-label">
            From
          </label>
          <input id="export-from" type="date" name="from" className="admin-input" required />
          <label htmlFor="export-to" className="admin-label">
            To
          </label>
          <input id="export-to" type="date" name="to" className="admin-input" defaultValue={today} required />
          <button type="submit" className="button">
            Download CSV
          </button>
        </form>
      </AdminSection>
    </AdminPage>
  );
}
