import { Link, useActionData } from "@remix-run/react";
import type { ReactNode } from "react";
import { AdminForm, FormStatus, SubmitButton, type AdminResult } from "./AdminForm";

/**
 * What the form edits: the loader's (from `?edit=`), or nothing once the form has saved it,
 * so edit mode is left after a success even before the URL changes (no JavaScript).
 */
export function useEditing<T>(formId: string, fromUrl: T | null): T | null {
  const actionData = useActionData<AdminResult | undefined>();
  return actionData?.formId === formId && actionData.ok ? null : fromUrl;
}

/** The label of a file field that, when editing, keeps the file it has unless another is chosen. */
export function keepCurrentLabel(label: string, hasCurrent: boolean, { noun = "one", optional = false }: { noun?: "one" | "file"; optional?: boolean } = {}) {
  if (hasCurrent) return `${label} (leave empty to keep the current ${noun})`;
  return optional ? `${label} (optional)` : label;
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
  saveButton = "Save changes",
  pendingLabel = "Saving…",
  action,
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
  /** Where to go after a success (out of edit mode). */
  successTo: string;
  /** Where "Cancel editing" leads. */
  cancelTo?: string;
  children: ReactNode;
}) {
  return (
    <AdminForm
      formId={formId}
      intent={intent}
      hidden={editing ? { [idField]: editing.id } : undefined}
      action={action}
      successTo={successTo}
      className="admin-form"
      aria-label={editing ? `Edit ${editing.name}` : addLabel}
    >
      <div key={editing?.id ?? "new"} className="admin-form__fields">
        {children}
      </div>
      <FormStatus />
      <div className="admin-form__actions">
        <SubmitButton pendingLabel={pendingLabel}>{editing ? saveButton : addButton}</SubmitButton>
        {editing && (
          <Link to={cancelTo} className="button button--ghost">
            Cancel editing
          </Link>
        )}
      </div>
    </AdminForm>
  );
}
