import { AdminForm, FormStatus, SubmitButton } from "~/components/admin/AdminForm";
import { AdminSection } from "~/components/admin/AdminPage";
import { Field } from "~/components/admin/Field";
import { useT } from "~/i18n/translate";
import { PIN_MAX_LENGTH } from "~/utils/forms/pin";

/** The two PINs (admin, public), each typed twice to change it: the "change-pin" intent of /settings-admin. */
export function PinChangeForms() {
  const { t } = useT();
  return (
    <AdminSection id="pins-title" title={t("admin.pins")} description={t("admin.pinsDescription")} collapsible defaultOpen={false}>
      {(["admin", "public"] as const).map((kind) => (
        <AdminForm
          key={kind}
          formId={`pin-${kind}`}
          intent="change-pin"
          className="admin-form admin-form--inline"
          aria-label={t(kind === "admin" ? "admin.adminPinFormLabel" : "admin.publicPinFormLabel")}
        >
          <input type="hidden" name="kind" value={kind} />
          <Field
            name="pin"
            label={t(kind === "admin" ? "admin.adminPinNew" : "admin.publicPinNew")}
            type="password"
            autoComplete="new-password"
            inputMode={kind === "admin" ? "numeric" : undefined}
            maxLength={PIN_MAX_LENGTH[kind]}
            required
          />
          <Field name="confirm" label={t("admin.pinRepeat")} type="password" autoComplete="new-password" maxLength={PIN_MAX_LENGTH[kind]} required />
          <FormStatus />
          <SubmitButton pendingLabel={t("admin.saving")}>{t(kind === "admin" ? "admin.adminPinChange" : "admin.publicPinChange")}</SubmitButton>
        </AdminForm>
      ))}
    </AdminSection>
  );
}
