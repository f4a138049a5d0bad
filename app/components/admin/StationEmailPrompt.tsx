import { AdminForm, FormStatus, SubmitButton } from "~/components/admin/AdminForm";
import { AdminSection } from "~/components/admin/AdminPage";
import { Field } from "~/components/admin/Field";

/**
 * Asked once, on the dashboard, while neither STATION_EMAIL nor a stored
 * address exists: podcast directories need the feed owner's email
 * (itunes:owner, podcast:locked owner) to verify and list the podcast.
 */
export function StationEmailPrompt() {
  return (
    <AdminSection
      id="station-email-title"
      title="Podcast owner email"
      description="Podcast directories (Apple Podcasts, Podcast Index) send ownership checks to this address. It appears in the podcast feed."
    >
      <AdminForm formId="station-email" intent="save-station-email" className="admin-form admin-form--inline" aria-label="Set the podcast owner email">
        <Field name="email" label="Email" type="email" autoComplete="email" required placeholder="radio@example.org" />
        <FormStatus />
        <SubmitButton pendingLabel="Saving…">Save email</SubmitButton>
      </AdminForm>
    </AdminSection>
  );
}
