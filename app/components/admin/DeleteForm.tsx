import { useT } from "~/i18n/translate";
import { ActionLabel, type SpokenName } from "./ActionLabel";
import { AdminForm, SubmitButton } from "./AdminForm";

export type DeleteFormProps = {
  formId: string;
  intent: string;
  /** The id (and name, for the answer) of what goes. */
  hidden: Record<string, string | number>;
  /** Asked before sending; without JavaScript the form posts directly. */
  confirm: string;
  /** The button's visible text ("Remove", "Cancel"); "Delete" in the page's language by default. */
  label?: string;
  pendingLabel?: string;
} & SpokenName;

/** A danger button in its own plain POST form, for deleting (or removing, cancelling) one thing after asking. */
export function DeleteForm({ formId, intent, hidden, confirm, label, pendingLabel, ...spoken }: DeleteFormProps) {
  const { t } = useT();
  return (
    <AdminForm formId={formId} intent={intent} hidden={hidden} confirm={confirm}>
      <SubmitButton pendingLabel={pendingLabel ?? t("admin.deleting")} variant="danger">
        <ActionLabel label={label ?? t("admin.delete")} {...spoken} />
      </SubmitButton>
    </AdminForm>
  );
}
