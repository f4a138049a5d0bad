import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useId } from "react";
import { AdminForm, FormStatus, SubmitButton, useFieldError, useSubmittedValue } from "~/components/admin/AdminForm";
import { AdminPage, AdminSection } from "~/components/admin/AdminPage";
import { Field } from "~/components/admin/Field";
import { PinChangeForms } from "~/components/admin/PinChangeForms";
import { metaTranslator } from "~/i18n/meta";
import { LANGUAGE_NAMES, LANGUAGES } from "~/i18n/languages";
import { useT } from "~/i18n/translate";
import { changePin } from "~/models/pins.server";
import { stationEmail } from "~/models/feed-identity.server";
import { describeStationSettings, saveStationSettings } from "~/models/station-settings.server";
import { requireStaff } from "~/services/admin-session.server";
import { answerAdminForm, type AdminOutcome } from "~/services/admin-forms.server";
import { getBaseConfig, getConfig, type SettingName } from "~/services/config.server";
import { checkStream } from "~/services/stream-metadata.server";
import { fieldConstraints, keyedMessage, parseForm } from "~/utils/forms/form";
import { pinChangeSchema } from "~/utils/forms/pin";
import { settingsFormSchema, SOCIAL_LINK_ROWS, socialLinkRows } from "~/utils/forms/settings";

export const meta: MetaFunction = ({ matches }) => [{ title: metaTranslator(matches).t("admin.settingsMetaTitle") }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request, "station");
  const { values, fixedBy } = describeStationSettings();
  // The podcast owner's address may have been given on the dashboard before this screen existed.
  return { values: { ...values, email: values.email ?? (await stationEmail()) }, fixedBy };
}

/** Checks a new stream URL by connecting to it; null when it answers with audio, else why not (a keyed message). */
async function streamProblem(url: string): Promise<{ problem: string | null; title: string | null }> {
  const check = await checkStream(url);
  if (check.ok) return { problem: null, title: check.title };
  if (check.problem === "unreachable") return { problem: keyedMessage("admin.settingsStreamUnreachable", { detail: check.detail }), title: null };
  if (check.problem === "status") return { problem: keyedMessage("admin.settingsStreamStatus", { status: String(check.status) }), title: null };
  return { problem: keyedMessage("admin.settingsStreamNotAudio", { type: check.contentType }), title: null };
}

async function saveSettings(fields: Record<string, string | undefined>, actor: Awaited<ReturnType<typeof requireStaff>>): Promise<AdminOutcome> {
  const fixed = new Set<string>(getBaseConfig().fixedSettings);
  const posted = Object.fromEntries(Object.entries(fields).filter(([name]) => !fixed.has(name) && name in settingsFormSchema.shape));
  const check = parseForm(settingsFormSchema, posted, "admin.nothingSaved");
  const social = fixed.has("socialLinks") ? { rows: undefined, errors: {} } : socialLinkRows(fields);
  const errors = { ...(check.ok ? {} : check.errors), ...social.errors };
  if (!check.ok || Object.keys(errors).length > 0) return { ok: false, message: "admin.nothingSaved", errors };
  const values = { ...check.value, ...(social.rows ? { socialLinks: social.rows } : {}) };
  // A new stream is tried before the station switches to it, unless the admin saves anyway (a stream not on the air yet).
  let title: string | null = null;
  const streamUrl = values.streamUrl;
  if (streamUrl && streamUrl !== getConfig().streamUrl && fields.saveAnyway !== "on") {
    const tried = await streamProblem(streamUrl);
    if (tried.problem) return { ok: false, message: tried.problem, errors: { streamUrl: tried.problem } };
    title = tried.title;
  }
  await saveStationSettings(values, actor);
  if (title) return { ok: true, message: keyedMessage("admin.settingsSavedStreamTitle", { title }) };
  return { ok: true, message: "admin.settingsSaved" };
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireStaff(request, "station");
  return answerAdminForm(request, {
    "save-settings": async ({ fields }) => saveSettings(fields, actor),
    "change-pin": async ({ fields }) => {
      const check = parseForm(pinChangeSchema, fields, "admin.nothingSaved");
      if (!check.ok) return check;
      await changePin(check.value.kind, check.value.pin, actor);
      return { ok: true, message: check.value.kind === "admin" ? "admin.adminPinChanged" : "admin.publicPinChanged" };
    },
  });
}

const limits = fieldConstraints(settingsFormSchema);

type Fixed = Record<SettingName, string | null>;

/** A setting's field: read-only, saying which variable fixes it, when the environment sets it. */
function SettingField({
  name,
  label,
  value,
  fixedBy,
  hint,
  ...control
}: { name: SettingName; label: string; value: string | number | null; fixedBy: Fixed; hint?: string } & Omit<
  React.InputHTMLAttributes<HTMLInputElement>,
  "name" | "value"
>) {
  const { t } = useT();
  const variable = fixedBy[name];
  return (
    <Field
      name={name}
      label={label}
      defaultValue={value === null ? "" : String(value)}
      {...(name in limits ? limits[name as keyof typeof limits] : {})}
      {...control}
      hint={variable ? t("admin.settingsFixed", { variable }) : hint}
      {...(variable ? { readOnly: true, disabled: true, required: false } : {})}
    />
  );
}

function LanguageField({ value, fixedBy }: { value: string; fixedBy: Fixed }) {
  const { t } = useT();
  const id = useId();
  const submitted = useSubmittedValue("language");
  const error = useFieldError("language");
  const variable = fixedBy.language;
  return (
    <div className="admin-field">
      <label htmlFor={id} className="admin-label">
        {t("admin.settingsLanguage")}
      </label>
      <select
        id={id}
        name="language"
        className="admin-input"
        defaultValue={submitted ?? value}
        disabled={Boolean(variable)}
        aria-invalid={error ? true : undefined}
      >
        {LANGUAGES.map((language) => (
          <option key={language} value={language}>
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
      {variable && <p className="caption">{t("admin.settingsFixed", { variable })}</p>}
      {error && <p className="form-error">{error}</p>}
    </div>
  );
}

export default function SettingsAdmin() {
  const { values, fixedBy } = useLoaderData<typeof loader>();
  const { t } = useT();
  const socialFixed = fixedBy.socialLinks;
  return (
    <AdminPage title={t("admin.settingsTitle")} intro={t("admin.settingsIntro")}>
      <AdminSection id="station-settings-title" title={t("admin.settingsStation")}>
        <AdminForm formId="settings" intent="save-settings" className="admin-form" aria-label={t("admin.settingsFormLabel")}>
          {/* Mounted afresh when the saved values change: the page's data is reloaded after the answer arrives. */}
          <div key={JSON.stringify(values)} className="admin-form__fields">
            <SettingField name="name" label={t("admin.settingsName")} value={values.name} fixedBy={fixedBy} />
            <SettingField name="tagline" label={t("admin.settingsTagline")} value={values.tagline} fixedBy={fixedBy} />
            <SettingField
              name="logoUrl"
              label={t("admin.settingsLogoUrl")}
              value={values.logoUrl}
              fixedBy={fixedBy}
              type="url"
              hint={t("admin.settingsLogoUrlHint")}
            />
            <SettingField name="accentColor" label={t("admin.settingsAccentColor")} value={values.accentColor} fixedBy={fixedBy} type="color" />
            <SettingField name="email" label={t("admin.settingsEmail")} value={values.email} fixedBy={fixedBy} type="email" autoComplete="email" />
            <fieldset className="settings-links">
              <legend className="admin-label">{t("admin.settingsSocialLinks")}</legend>
              {socialFixed && <p className="caption">{t("admin.settingsFixed", { variable: socialFixed })}</p>}
              {Array.from({ length: SOCIAL_LINK_ROWS }, (_, row) => (
                <div key={row} className="settings-links__row">
                  <Field
                    name={`socialLabel${row}`}
                    label={t("admin.settingsSocialLabel", { row: row + 1 })}
                    defaultValue={values.socialLinks[row]?.label ?? ""}
                    maxLength={40}
                    disabled={Boolean(socialFixed)}
                  />
                  <Field
                    name={`socialUrl${row}`}
                    label={t("admin.settingsSocialUrl", { row: row + 1 })}
                    type="url"
                    defaultValue={values.socialLinks[row]?.url ?? ""}
                    maxLength={500}
                    disabled={Boolean(socialFixed)}
                  />
                </div>
              ))}
            </fieldset>
            <SettingField
              name="timeZone"
              label={t("admin.settingsTimeZone")}
              value={values.timeZone}
              fixedBy={fixedBy}
              hint={t("admin.settingsTimeZoneHint")}
            />
            <LanguageField value={values.language} fixedBy={fixedBy} />
            <SettingField
              name="streamUrl"
              label={t("admin.settingsStreamUrl")}
              value={values.streamUrl}
              fixedBy={fixedBy}
              type="url"
              hint={t("admin.settingsStreamUrlHint")}
            />
            {!fixedBy.streamUrl && (
              <label className="check-chip">
                <input type="checkbox" name="saveAnyway" /> {t("admin.settingsSaveAnyway")}
              </label>
            )}
            <SettingField
              name="rewindHours"
              label={t("admin.settingsRewindHours")}
              value={values.rewindHours}
              fixedBy={fixedBy}
              type="number"
              inputMode="numeric"
            />
            <SettingField
              name="historyDays"
              label={t("admin.settingsHistoryDays")}
              value={values.historyDays}
              fixedBy={fixedBy}
              type="number"
              inputMode="numeric"
            />
          </div>
          <FormStatus />
          <SubmitButton pendingLabel={t("admin.saving")}>{t("admin.settingsSave")}</SubmitButton>
        </AdminForm>
      </AdminSection>
      <PinChangeForms />
    </AdminPage>
  );
}
