import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ActionLabel } from "~/components/admin/ActionLabel";
import { AdminForm, SubmitButton, useFieldError, useSubmittedValue } from "~/components/admin/AdminForm";
import { AdminList, AdminListItem, EditLink } from "~/components/admin/AdminList";
import { AdminPage, AdminSection } from "~/components/admin/AdminPage";
import { DeleteForm } from "~/components/admin/DeleteForm";
import { EditForm, keepCurrentLabel, useEditing } from "~/components/admin/EditForm";
import { Field } from "~/components/admin/Field";
import { ImagePicker } from "~/components/admin/ImagePicker";
import { useLiveData } from "~/hooks/useRealtime";
import { requestTranslator } from "~/i18n/language.server";
import { metaTranslator } from "~/i18n/meta";
import { useT, type Translator } from "~/i18n/translate";
import { listCrewMembers } from "~/models/crew.server";
import {
  cancelAiring,
  createSlot,
  deleteSlot,
  listAirings,
  moveAiring,
  ScheduleError,
  slotDays,
  toPublicAiring,
  updateSlot,
  validateSlot,
} from "~/models/schedule.server";
import { createShow, deleteShow, listShows, updateShow, validateShow } from "~/models/shows.server";
import { currentHostIds, inScope, showOfSlot, showScope } from "~/models/staff.server";
import { forbidden, requireStaff } from "~/services/admin-session.server";
import { answerAdminForm, pageScoped, type AdminHandler } from "~/services/admin-forms.server";
import { getConfig } from "~/services/config.server";
import { timeIn } from "~/utils/airing-format";
import { fieldConstraints, parseForm } from "~/utils/forms/form";
import { DEFAULT_SHOW_COLOUR, moveAiringFields, showFields, slotFields } from "~/utils/forms/schedule";
import { dayLabel, describeSlot, wallLabel, weekdayName, WEEKDAYS } from "~/utils/weekdays";

export const meta: MetaFunction = ({ matches }) => [{ title: metaTranslator(matches).t("schedule.adminTitle") }, { name: "robots", content: "noindex" }];

const UPCOMING_DAYS = 14;

export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireStaff(request, "shows");
  // A Host sees and changes only the shows they host.
  const scope = await showScope(actor);
  const [allShows, crew] = await Promise.all([listShows(), listCrewMembers()]);
  const shows = allShows.filter((show) => inScope(scope, show.id));
  const showIds = new Set(shows.map((show) => show.id));
  const now = new Date();
  const airings = (await listAirings(now, new Date(now.getTime() + UPCOMING_DAYS * 86_400_000))).filter((airing) => showIds.has(airing.showId));
  const url = new URL(request.url);
  const editShow = shows.find((show) => show.id === url.searchParams.get("edit")) ?? null;
  const slotId = url.searchParams.get("slot");
  const editSlot = shows.flatMap((show) => show.slots.map((slot) => ({ ...slot, showId: show.id }))).find((slot) => slot.id === slotId) ?? null;
  return {
    shows: shows.map((show) => ({
      ...show,
      slots: show.slots.map(({ id, startDate, startTime, durationMinutes, rrule, endDate }) => ({ id, startDate, startTime, durationMinutes, rrule, endDate })),
    })),
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
    // Adding and deleting shows, and choosing their hosts, is for managers and producers.
    allShows: scope === null,
  };
}

/** The model's refusals (ScheduleError) in the admin's language; answerAdminForm would show their English message. */
function translatingRefusals(translator: Translator, handlers: Record<string, AdminHandler>): Record<string, AdminHandler> {
  const wrap = (handler: AdminHandler): AdminHandler =>
    Object.assign(
      async (form: Parameters<AdminHandler>[0]) => {
        try {
          return await handler(form);
        } catch (error) {
          if (!(error instanceof ScheduleError)) throw error;
          return { ok: false, message: error.text(translator) };
        }
      },
      handler.scope ? { scope: handler.scope } : {},
    );
  return Object.fromEntries(Object.entries(handlers).map(([intent, handler]) => [intent, wrap(handler)]));
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireStaff(request, "shows");
  const scope = await showScope(actor);
  // A Host's post naming a show, slot or airing that is not theirs is refused whole (403), also with crafted fields.
  const requireShow = async (showId: string | null) => {
    if (!inScope(scope, showId)) throw await forbidden(request);
  };
  const requireSlot = async (slotId: string | undefined) => requireShow(await showOfSlot(slotId ?? ""));
  const translator = await requestTranslator(request);
  const { t } = translator;
  return answerAdminForm(
    request,
    translatingRefusals(translator, {
      "save-show": async ({ fields, files }) => {
        if (scope !== null && !fields.id) throw await forbidden(request);
        if (fields.id) await requireShow(fields.id);
        const check = validateShow({
          name: fields.name ?? "",
          slug: fields.slug ?? "",
          description: fields.description ?? "",
          colour: fields.colour ?? "",
          hostIds:
            scope === null
              ? Object.keys(fields)
                  .filter((name) => name.startsWith("host-"))
                  .map((name) => name.slice(5))
              : await currentHostIds(fields.id ?? ""),
        });
        // Message keys: answerAdminForm translates the message and each field's error.
        if (!check.ok) return check;
        const artwork = { image: files.artwork ?? null, remove: fields.removeArtwork !== undefined };
        if (fields.id) {
          const show = await updateShow(fields.id, check.value, actor, artwork);
          return { ok: true, message: t("schedule.showSaved", { show: show.name }) };
        }
        const show = await createShow(check.value, actor, artwork);
        return { ok: true, message: t("schedule.showAdded", { show: show.name }) };
      },
      "delete-show": pageScoped(async ({ fields }) => {
        if (scope !== null) throw await forbidden(request);
        await deleteShow(fields.id ?? "", actor);
        return { ok: true, message: fields.name ? t("schedule.showDeleted", { show: fields.name }) : t("schedule.showDeletedUnnamed") };
      }),
      "save-slot": async ({ fields }) => {
        const check = validateSlot({
          kind: fields.kind,
          days: WEEKDAYS.filter((day) => fields[`day-${day}`] !== undefined),
          startDate: fields.startDate,
          startTime: fields.startTime,
          duration: fields.duration,
          endDate: fields.endDate,
        });
        if (!check.ok) return check;
        if (fields.slotId) {
          await requireSlot(fields.slotId);
          await updateSlot(fields.slotId, check.value, actor);
          return { ok: true, message: t("schedule.slotSaved") };
        }
        await requireShow(fields.showId ?? "");
        await createSlot(fields.showId ?? "", check.value, actor);
        return { ok: true, message: t("schedule.slotAdded") };
      },
      "delete-slot": pageScoped(async ({ fields }) => {
        await requireSlot(fields.slotId);
        await deleteSlot(fields.slotId ?? "", actor);
        return { ok: true, message: t("schedule.slotRemoved") };
      }),
      "cancel-airing": pageScoped(async ({ fields }) => {
        await requireSlot(fields.slotId);
        await cancelAiring(fields.slotId ?? "", fields.originalStart ?? "", actor);
        return { ok: true, message: t("schedule.airingCancelled", { start: wallLabel(fields.originalStart ?? "", translator.locale) }) };
      }),
      "move-airing": pageScoped(async ({ fields }) => {
        const check = parseForm(moveAiringFields, fields, "");
        if (!check.ok) return { ...check, message: Object.values(check.errors)[0] };
        const { newStart, duration } = check.value;
        await requireSlot(fields.slotId);
        await moveAiring(fields.slotId ?? "", fields.originalStart ?? "", newStart, duration, actor);
        return { ok: true, message: t("schedule.airingMoved", { start: wallLabel(newStart, translator.locale) }) };
      }),
    }),
  );
}

const showLimits = fieldConstraints(showFields);
const slotLimits = fieldConstraints(slotFields);
const moveLimits = fieldConstraints(moveAiringFields);

/** A group's error (days of the week, hosts), under its boxes like a Field's. */
function GroupError({ name }: { name: string }) {
  const error = useFieldError(name);
  return error ? <p className="form-error">{error}</p> : null;
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
  const { shows, crew, airings, editShow, editSlot, stationTimeZone, today, allShows } = useLoaderData<typeof loader>();
  useLiveData("schedule:changed");
  const translator = useT();
  const { t, locale } = translator;
  const showEditing = useEditing("show-form", editShow);
  const slotEditing = useEditing("slot-form", editSlot);
  const minutes = (airing: { start: string; end: string }) => String(Math.round((Date.parse(airing.end) - Date.parse(airing.start)) / 60_000));

  return (
    <AdminPage title={t("schedule.adminHeading")} intro={t("schedule.adminIntro", { zone: stationTimeZone })}>
      <div className="admin-columns">
        {(allShows || showEditing) && (
          <AdminSection id="show-form-title" title={showEditing ? t("schedule.editShow", { show: showEditing.name }) : t("schedule.addShowTitle")}>
            <EditForm
              formId="show-form"
              intent="save-show"
              editing={showEditing}
              addLabel={t("schedule.addShowTitle")}
              addButton={t("schedule.addShow")}
              saveButton={t("schedule.saveShow")}
              successTo="/schedule-admin"
            >
              <Field name="name" label={t("schedule.name")} defaultValue={showEditing?.name} {...showLimits.name} autoComplete="off" />
              <Field
                name="slug"
                label={t("schedule.slugLabel")}
                hint={t("schedule.slugHint")}
                defaultValue={showEditing?.slug}
                {...showLimits.slug}
                autoComplete="off"
              />
              <Field
                name="description"
                label={t("schedule.description")}
                multiline
                rows={4}
                defaultValue={showEditing?.description}
                {...showLimits.description}
              />
              <Field name="colour" label={t("schedule.colour")} type="color" defaultValue={showEditing?.colour ?? DEFAULT_SHOW_COLOUR} {...showLimits.colour} />
              <ImagePicker
                name="artwork"
                label={keepCurrentLabel(t("schedule.artwork"), Boolean(showEditing?.artwork), { optional: true, t })}
                current={showEditing?.artwork}
                currentAlt={showEditing ? t("schedule.currentArtworkFor", { show: showEditing.name }) : ""}
                hint={t("schedule.artworkHint")}
              />
              {showEditing?.artwork && <Checkbox name="removeArtwork" label={t("schedule.removeArtwork")} defaultChecked={false} />}
              {allShows && (
                <fieldset className="form-group">
                  <legend className="admin-label">{t("schedule.hosts")}</legend>
                  {crew.length === 0 ? (
                    <p className="caption">{t("schedule.addCrewFirst")}</p>
                  ) : (
                    crew.map((member) => (
                      <Checkbox
                        key={member.id}
                        name={`host-${member.id}`}
                        label={member.name}
                        defaultChecked={showEditing?.hostIds.includes(member.id) ?? false}
                      />
                    ))
                  )}
                  <GroupError name="hosts" />
                </fieldset>
              )}
            </EditForm>
          </AdminSection>
        )}

        <AdminSection id="slot-form-title" title={slotEditing ? t("schedule.editSlot") : t("schedule.addSlotTitle")} description={t("schedule.slotFormIntro")}>
          {shows.length === 0 ? (
            <p className="caption">{t("schedule.addShowFirst")}</p>
          ) : (
            <EditForm
              formId="slot-form"
              intent="save-slot"
              editing={slotEditing && { id: slotEditing.id, name: t("schedule.timeSlot") }}
              idField="slotId"
              addLabel={t("schedule.addSlotTitle")}
              addButton={t("schedule.addSlot")}
              saveButton={t("schedule.saveSlot")}
              successTo="/schedule-admin"
            >
              {!slotEditing && (
                <div className="admin-field">
                  <label htmlFor="slot-show" className="admin-label">
                    {t("schedule.show")}
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
              <fieldset className="form-group">
                <legend className="admin-label">{t("schedule.repeats")}</legend>
                <label className="schedule-check check-chip">
                  <input type="radio" name="kind" value="weekly" defaultChecked={slotEditing ? Boolean(slotEditing.rrule) : true} /> {t("schedule.weekly")}
                </label>
                <label className="schedule-check check-chip">
                  <input type="radio" name="kind" value="once" defaultChecked={slotEditing ? !slotEditing.rrule : false} /> {t("schedule.once")}
                </label>
              </fieldset>
              {/* Weekdays and the last date belong to a weekly slot: hidden while "once" is picked (schedule.css, no JavaScript needed). */}
              <fieldset className="form-group schedule-fieldset--weekly">
                <legend className="admin-label">{t("schedule.daysWeekly")}</legend>
                {WEEKDAYS.map((day) => (
                  <Checkbox key={day} name={`day-${day}`} label={weekdayName(day, locale)} defaultChecked={slotEditing?.days.includes(day) ?? false} />
                ))}
                <GroupError name="days" />
              </fieldset>
              <div className="admin-form__row">
                <Field name="startDate" label={t("schedule.firstDate")} type="date" defaultValue={slotEditing?.startDate ?? today} {...slotLimits.startDate} />
                <Field name="startTime" label={t("schedule.startTime")} type="time" defaultValue={slotEditing?.startTime} {...slotLimits.startTime} />
              </div>
              <div className="admin-form__row">
                <Field name="duration" label={t("schedule.minutes")} type="number" defaultValue={slotEditing?.durationMinutes ?? 60} {...slotLimits.duration} />
                <Field name="endDate" label={t("schedule.lastDate")} type="date" defaultValue={slotEditing?.endDate ?? ""} {...slotLimits.endDate} />
              </div>
            </EditForm>
          )}
        </AdminSection>
      </div>

      <AdminSection
        id="show-list-title"
        title={t("schedule.shows")}
        description={t("schedule.showCount", { count: shows.length })}
        actions={
          <Link to="/schedule" className="button button--ghost">
            {t("schedule.publicSchedule")}
          </Link>
        }
      >
        <AdminList items={shows} empty={t("schedule.noShowsYet")}>
          {(show) => (
            <AdminListItem
              key={show.id}
              className="schedule-admin__show"
              style={{ borderColor: show.colour }}
              title={
                <>
                  <span className="schedule-admin__kind">{t("schedule.show")}</span> <Link to={`/shows/${show.slug}`}>{show.name}</Link>
                </>
              }
              thumb={show.artwork && { image: show.artwork, alt: t("schedule.artworkFor", { show: show.name }) }}
              actions={
                <>
                  <EditLink to={`?edit=${show.id}`} aria-label={t("schedule.editShow", { show: show.name })} />
                  {allShows && (
                    <DeleteForm
                      formId={`delete-${show.id}`}
                      intent="delete-show"
                      hidden={{ id: show.id, name: show.name }}
                      confirm={t("schedule.confirmDeleteShow", { show: show.name })}
                      readAs={t("schedule.deleteShow", { show: show.name })}
                    />
                  )}
                </>
              }
              below={
                show.slots.length === 0 ? (
                  <p className="caption">{t("schedule.noSlots")}</p>
                ) : (
                  // Each slot is a row of its own, with its own Edit and Delete (the show's are on the row above).
                  <ul className="schedule-admin__slots">
                    {show.slots.map((slot) => {
                      const text = describeSlot(slot, translator);
                      return (
                        <li key={slot.id} className="schedule-admin__slot">
                          <p className="schedule-admin__slot-text">
                            <span className="schedule-admin__kind">{t("schedule.slotTag")}</span> {text}
                          </p>
                          <div className="admin-list__actions">
                            <EditLink to={`?slot=${slot.id}`} aria-label={t("schedule.editSlotNamed", { slot: text })} />
                            <DeleteForm
                              formId={`delete-slot-${slot.id}`}
                              intent="delete-slot"
                              hidden={{ slotId: slot.id }}
                              confirm={t("schedule.confirmDeleteSlot", { slot: text })}
                              readAs={t("schedule.deleteSlotNamed", { slot: text })}
                            />
                          </div>
                        </li>
                      );
                    })}
                  </ul>
                )
              }
            >
              {show.hosts.length > 0 && (
                <p className="caption">{t("schedule.withHosts", { hosts: show.hosts.map((host) => host.crewMember.name).join(", ") })}</p>
              )}
            </AdminListItem>
          )}
        </AdminList>
      </AdminSection>

      <AdminSection id="airings-title" title={t("schedule.nextDays", { count: UPCOMING_DAYS })} description={t("schedule.nextDaysIntro")}>
        <AdminList items={airings} empty={t("schedule.nothingScheduled", { count: UPCOMING_DAYS })}>
          {(airing) => {
            const label = t("schedule.airingLabel", {
              show: airing.name,
              day: dayLabel(airing.start, stationTimeZone, locale),
              time: timeIn(airing.start, stationTimeZone, locale),
            });
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
                      aria-label={t("schedule.moveNamed", { airing: label })}
                    >
                      <label className="visually-hidden" htmlFor={`move-${key}-start`}>
                        {t("schedule.newStartOf", { airing: label })}
                      </label>
                      <input
                        id={`move-${key}-start`}
                        type="datetime-local"
                        name="newStart"
                        className="admin-input"
                        defaultValue={airing.originalStart}
                        {...moveLimits.newStart}
                      />
                      <label className="visually-hidden" htmlFor={`move-${key}-duration`}>
                        {t("schedule.minutes")}
                      </label>
                      <input
                        id={`move-${key}-duration`}
                        type="number"
                        name="duration"
                        className="admin-input schedule-admin__minutes"
                        defaultValue={minutes(airing)}
                        {...moveLimits.duration}
                      />
                      <SubmitButton pendingLabel={t("schedule.moving")} variant="ghost">
                        <ActionLabel label={t("schedule.move")} readAs={t("schedule.moveNamed", { airing: label })} />
                      </SubmitButton>
                    </AdminForm>
                    <DeleteForm
                      formId={`cancel-${key}`}
                      intent="cancel-airing"
                      hidden={{ slotId: airing.slotId, originalStart: airing.originalStart }}
                      confirm={t("schedule.confirmCancelAiring", { airing: label })}
                      label={t("schedule.cancel")}
                      pendingLabel={t("schedule.cancelling")}
                      readAs={t("schedule.cancelNamed", { airing: label })}
                    />
                  </>
                }
              >
                <p className="caption">
                  {dayLabel(airing.start, stationTimeZone, locale)} · {timeIn(airing.start, stationTimeZone, locale)}–
                  {timeIn(airing.end, stationTimeZone, locale)}
                  {airing.moved && ` ${t("schedule.movedFrom", { start: wallLabel(airing.originalStart, locale) })}`}
                </p>
              </AdminListItem>
            );
          }}
        </AdminList>
      </AdminSection>

      {/* The song history export is for managers and producers (history.csv's guard). */}
      {allShows && (
        <AdminSection id="history-export-title" title={t("schedule.exportTitle")} description={t("schedule.exportIntro")}>
          <form method="get" action="/history.csv" className="admin-form admin-form--inline">
            <label htmlFor="export-from" className="admin-label">
              {t("schedule.from")}
            </label>
            <input id="export-from" type="date" name="from" className="admin-input" required />
            <label htmlFor="export-to" className="admin-label">
              {t("schedule.to")}
            </label>
            <input id="export-to" type="date" name="to" className="admin-input" defaultValue={today} required />
            <button type="submit" className="button">
              {t("schedule.downloadCsv")}
            </button>
          </form>
        </AdminSection>
      )}
    </AdminPage>
  );
}
