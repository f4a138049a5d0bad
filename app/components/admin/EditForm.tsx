import { Link, useActionData } from "@remix-run/react";
import type { ReactNode } from "react";
import { useT, type Translator } from "~/i18n/translate";
import { AdminForm, FormStatus, SubmitButton, type AdminResult } from "./AdminForm";

/**
 * What the form edits: the loader's (from `?edit=`), or nothing once the form has saved it,
 * so edit mode is left after a success even before the URL changes (no JavaScript).
 */
export function useEditing<T>(formId: string, fromUrl: T | null): T | null {
  const actionData = useActionData<AdminResult | undefined>();
  return actionData?.formId === formId && actionData.ok ? null : fromUrl;
}

/**
 * The label of a file field that, when editing, keeps the file it has unless another is chosen.
 * With `t` (from useT) it is in the page's language; without, in English.
 */
export function keepCurrentLabel(
  label: string,
  hasCurrent: boolean,
  { noun = "one", optional = false, t }: { noun?: "one" | "file"; optional?: boolean; t?: Translator["t"] } = {},
) {
  if (hasCurrent) return t ? t("admin.keepCurrent", { label, noun }) : `${label} (leave empty to keep the current ${noun})`;
  if (!optional) return label;
  return t ? t("admin.optionalLabel", { label }) : `${label} (optional)`;
}

/**
 * The add-or-edit form of an admin screen: its fields (mounted afresh for each thing edited),
 * the answer, the submit button and, while editing, "Cancel editing". A plain POST without JavaScript.
 */
export function EditForm({
  formId,
  intent,
  editing,
  idField = "id",
  addLabel,
  addButton,
  saveButton,
  pendingLabel,
  action,
  uploadTo,
  successTo,
  cancelTo = successTo,
  children,
}: {
  formId: string;
  intent: string;
  /** The thing edited, its id sent as `idField`; null when adding one. */
  editing: { id: string | number; name: string } | null;
  idField?: string;
  /** The form's name while adding ("Upload an event"); while editing it is "Edit <name>". */
  addLabel: string;
  /** The submit button's text while adding, and (`saveButton`) while editing. */
  addButton: string;
  saveButton?: string;
  pendingLabel?: string;
  /** Another admin screen whose action handles this form. */
  action?: string;
  /** The resource route a post with a file goes to, with upload progress (see AdminForm). */
  uploadTo?: string;
  /** Where to go after a success (out of edit mode). */
  successTo: string;
  /** Where "Cancel editing" leads. */
  cancelTo?: string;
  children: ReactNode;
}) {
  const { t } = useT();
  return (
    <AdminForm
      formId={formId}
      intent={intent}
      hidden={editing ? { [idField]: editing.id } : undefined}
      action={action}
      uploadTo={uploadTo}
      successTo={successTo}
      className="admin-form"
      aria-label={editing ? t("admin.editName", { name: editing.name }) : addLabel}
    >
      <div key={editing?.id ?? "new"} className="admin-form__fields">
        {children}
      </div>
      <FormStatus />
      <div className="admin-form__actions">
        <SubmitButton pendingLabel={pendingLabel ?? t("admin.saving")}>{editing ? (saveButton ?? t("admin.saveChanges")) : addButton}</SubmitButton>
        {editing && (
          <Link to={cancelTo} className="button button--ghost">
            {t("admin.cancelEditing")}
          </Link>
        )}
      </div>
    </AdminForm>
  );
}
