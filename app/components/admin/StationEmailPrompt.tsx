import { AdminForm, FormStatus, SubmitButton } from "~/components/admin/AdminForm";
import { AdminSection } from "~/components/admin/AdminPage";
import { Field } from "~/components/admin/Field";
import { useT } from "~/i18n/translate";
import { fieldConstraints } from "~/utils/forms/form";
import { stationEmailSchema } from "~/utils/forms/station";

const limits = fieldConstraints(stationEmailSchema);

/**
 * Asked once, on the dashboard, while neither STATION_EMAIL nor a stored
 * address exists: podcast directories need the feed owner's email
 * (itunes:owner, podcast:locked owner) to verify and list the podcast.
 */
export function StationEmailPrompt() {
  const { t } = useT();
  return (
    <AdminSection id="station-email-title" title={t("admin.stationEmailTitle")} description={t("admin.stationEmailDescription")}>
      <AdminForm formId="station-email" intent="save-station-email" className="admin-form admin-form--inline" aria-label={t("admin.stationEmailFormLabel")}>
        {/* eslint-disable-next-line no-restricted-syntax -- an example address, the same in every language */}
        <Field name="email" label={t("admin.email")} type="email" autoComplete="email" {...limits.email} placeholder="radio@example.org" />
        <FormStatus />
        <SubmitButton pendingLabel={t("admin.saving")}>{t("admin.saveEmail")}</SubmitButton>
      </AdminForm>
    </AdminSection>
  );
}
