import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminForm, FormStatus, SubmitButton } from "~/components/admin/AdminForm";
import { AdminList, AdminListItem } from "~/components/admin/AdminList";
import { AdminPage, AdminSection } from "~/components/admin/AdminPage";
import { DeleteForm } from "~/components/admin/DeleteForm";
import { Field } from "~/components/admin/Field";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/translate";
import { listCrewMembers } from "~/models/crew.server";
import {
  endOwnAdminSession,
  endStaffSessions,
  grantStaffRole,
  listOwnAdminSessions,
  listStaff,
  revokeStaffRole,
  sessionHandle,
  setOwnPin,
  StaffError,
} from "~/models/staff.server";
import { requireStaff } from "~/services/admin-session.server";
import { answerAdminForm, pageScoped, permitted, type AdminHandler } from "~/services/admin-forms.server";
import { getConfig } from "~/services/config.server";
import { fieldConstraints, keyedMessage, parseForm } from "~/utils/forms/form";
import { ownPinSchema, staffGrantSchema } from "~/utils/forms/staff";
import { ROLE_LABEL_KEYS, roleMay, STAFF_ROLES } from "~/utils/staff-roles";

export const meta: MetaFunction = ({ matches }) => [{ title: metaTranslator(matches).t("admin.staffMetaTitle") }, { name: "robots", content: "noindex" }];

// Every staff member sees their own PIN and admin sessions here; managers also grant and revoke roles.
export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireStaff(request, "account");
  const manages = roleMay(actor.role, "station");
  const [staff, crew, ownSessions] = await Promise.all([
    manages ? listStaff() : Promise.resolve([]),
    manages ? listCrewMembers() : Promise.resolve([]),
    actor.userId ? listOwnAdminSessions(actor.userId) : Promise.resolve([]),
  ]);
  return {
    manages,
    // The station PIN's session (a station without a manager yet) has no account of its own.
    signedIn: actor.userId !== null,
    currentSession: sessionHandle(actor.adminSessionId),
    staff,
    crew: crew.map((member) => ({ id: member.id, name: member.name })),
    ownSessions,
    timeZone: getConfig().stationTimezone,
  };
}

const grantLimits = fieldConstraints(staffGrantSchema);

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireStaff(request, "account");
  const managerOnly = (handler: AdminHandler) => permitted(request, actor, "station", handler);
  // The model's refusals are message keys: answerAdminForm translates them.
  const refusing =
    (handler: AdminHandler): AdminHandler =>
    async (form) => {
      try {
        return await handler(form);
      } catch (error) {
        if (!(error instanceof StaffError)) throw error;
        return { ok: false, message: error.message };
      }
    };
  return answerAdminForm(request, {
    grant: managerOnly(
      refusing(async ({ fields }) => {
        const check = parseForm(staffGrantSchema, fields, "admin.nothingSaved");
        if (!check.ok) return check;
        const { name } = await grantStaffRole(check.value, actor);
        return { ok: true, message: keyedMessage("admin.staffGranted", { name, role: check.value.role }) };
      }),
    ),
    // The revoked member (or ended session) leaves the list with its form: the answer goes on the page's status line.
    revoke: managerOnly(
      pageScoped(
        refusing(async ({ fields }) => {
          const { name } = await revokeStaffRole(fields.userId ?? "", actor);
          return { ok: true, message: keyedMessage("admin.staffRevoked", { name }) };
        }),
      ),
    ),
    "end-sessions": managerOnly(
      pageScoped(
        refusing(async ({ fields }) => {
          const { name } = await endStaffSessions(fields.userId ?? "", actor);
          return { ok: true, message: keyedMessage("admin.staffSessionsEnded", { name }) };
        }),
      ),
    ),
    "own-pin": async ({ fields }) => {
      if (!actor.userId) return { ok: false, message: "admin.ownPinNeedsAccount" };
      const check = parseForm(ownPinSchema, fields, "admin.nothingSaved");
      if (!check.ok) return check;
      await setOwnPin(actor.userId, check.value.pin, actor);
      return { ok: true, message: "admin.ownPinSet" };
    },
    "end-own-session": pageScoped(async ({ fields }) => {
      const ended = actor.userId ? await endOwnAdminSession(actor.userId, fields.session ?? "") : false;
      return ended ? { ok: true, message: "admin.ownSessionEnded" } : { ok: false, message: "admin.ownSessionGone" };
    }),
  });
}

export default function StaffAdmin() {
  const { manages, signedIn, currentSession, staff, crew, ownSessions, timeZone } = useLoaderData<typeof loader>();
  const { t, locale } = useT();
  const when = (value: string | Date) => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone }).format(new Date(value));
  return (
    <AdminPage title={t("admin.staffTitle")} intro={t(manages ? "admin.staffIntroManager" : "admin.staffIntro")}>
      {manages && (
        <div className="admin-columns">
          <AdminSection id="staff-grant-title" title={t("admin.staffGrantTitle")} description={t("admin.staffGrantDescription")}>
            <AdminForm formId="staff-grant" intent="grant" aria-label={t("admin.staffGrantTitle")}>
              <Field name="email" label={t("admin.staffEmail")} type="email" autoComplete="off" {...grantLimits.email} required />
              <div className="admin-field">
                <label htmlFor="staff-role" className="admin-label">
                  {t("admin.staffRole")}
                </label>
                <select id="staff-role" name="role" className="admin-input" defaultValue="host">
                  {STAFF_ROLES.map((role) => (
                    <option key={role} value={role}>
                      {t(ROLE_LABEL_KEYS[role])}
                    </option>
                  ))}
                </select>
              </div>
              <div className="admin-field">
                <label htmlFor="staff-crew" className="admin-label">
                  {t("admin.staffCrew")}
                </label>
                <select id="staff-crew" name="crewMemberId" className="admin-input" defaultValue="" aria-describedby="staff-crew-hint">
                  <option value="">{t("admin.staffCrewNone")}</option>
                  {crew.map((member) => (
                    <option key={member.id} value={member.id}>
                      {member.name}
                    </option>
                  ))}
                </select>
                <p id="staff-crew-hint" className="caption">
                  {t("admin.staffCrewHint")}
                </p>
              </div>
              <FormStatus />
              <SubmitButton pendingLabel={t("admin.saving")}>{t("admin.staffGrant")}</SubmitButton>
            </AdminForm>
          </AdminSection>

          <AdminSection id="staff-list-title" title={t("admin.staffListTitle")} description={t("admin.staffCount", { count: staff.length })}>
            <AdminList items={staff} empty={t("admin.staffEmpty")}>
              {(member) => (
                <AdminListItem
                  key={member.id}
                  title={member.name}
                  actions={
                    <>
                      {member.liveSessions > 0 && (
                        <DeleteForm
                          formId={`end-${member.id}`}
                          intent="end-sessions"
                          hidden={{ userId: member.id }}
                          confirm={t("admin.staffEndSessionsConfirm", { name: member.name })}
                          label={t("admin.staffEndSessions")}
                          pendingLabel={t("admin.staffEnding")}
                          readAs={t("admin.staffEndSessionsOf", { name: member.name })}
                        />
                      )}
                      <DeleteForm
                        formId={`revoke-${member.id}`}
                        intent="revoke"
                        hidden={{ userId: member.id }}
                        confirm={t("admin.staffRevokeConfirm", { name: member.name })}
                        label={t("admin.staffRevoke")}
                        pendingLabel={t("admin.staffRevoking")}
                        readAs={t("admin.staffRevokeOf", { name: member.name })}
                      />
                    </>
                  }
                >
                  <p className="caption">
                    {t(ROLE_LABEL_KEYS[member.role])} · {member.email}
                  </p>
                  {member.crew && (
                    <p className="caption">
                      {member.crew.shows.length > 0
                        ? t("admin.staffCrewShows", { crew: member.crew.name, shows: member.crew.shows.map((show) => show.name).join(", ") })
                        : t("admin.staffCrewNoShows", { crew: member.crew.name })}
                    </p>
                  )}
                  <p className="caption">{t("admin.staffLiveSessions", { count: member.liveSessions })}</p>
                </AdminListItem>
              )}
            </AdminList>
          </AdminSection>
        </div>
      )}

      {signedIn && (
        <div className="admin-columns">
          <AdminSection id="own-pin-title" title={t("admin.ownPinTitle")} description={t("admin.ownPinDescription")}>
            <AdminForm formId="own-pin" intent="own-pin" aria-label={t("admin.ownPinTitle")}>
              <Field name="pin" label={t("admin.ownPinNew")} type="password" autoComplete="new-password" inputMode="numeric" maxLength={6} required />
              <Field name="confirm" label={t("admin.pinRepeat")} type="password" autoComplete="new-password" inputMode="numeric" maxLength={6} required />
              <FormStatus />
              <SubmitButton pendingLabel={t("admin.saving")}>{t("admin.ownPinSave")}</SubmitButton>
            </AdminForm>
          </AdminSection>

          <AdminSection id="own-sessions-title" title={t("admin.ownSessionsTitle")} description={t("admin.ownSessionsDescription")}>
            <AdminList items={ownSessions} empty={t("admin.ownSessionsEmpty")}>
              {(session) => {
                const label = t("admin.ownSessionLabel", { when: when(session.createdAt), ip: session.clientIp ?? "?" });
                return (
                  <AdminListItem
                    key={session.handle}
                    title={session.handle === currentSession ? t("admin.ownSessionThis", { session: label }) : label}
                    actions={
                      <DeleteForm
                        formId={`end-own-${session.handle}`}
                        intent="end-own-session"
                        hidden={{ session: session.handle }}
                        confirm={t("admin.ownSessionEndConfirm")}
                        label={t("admin.ownSessionEnd")}
                        pendingLabel={t("admin.staffEnding")}
                        readAs={t("admin.ownSessionEndNamed", { session: label })}
                      />
                    }
                  >
                    {session.userAgent && <p className="caption">{session.userAgent}</p>}
                  </AdminListItem>
                );
              }}
            </AdminList>
          </AdminSection>
        </div>
      )}
    </AdminPage>
  );
}
