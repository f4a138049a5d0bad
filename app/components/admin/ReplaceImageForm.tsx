import { useT } from "~/i18n/translate";
import type { MediaFile } from "~/utils/media";
import { AdminForm, FormStatus, SubmitButton } from "./AdminForm";
import { ImagePicker } from "./ImagePicker";

export interface ReplaceImageFormProps {
  formId: string;
  intent: string;
  hidden?: Record<string, string | number>;
  label: string;
  current?: MediaFile | null;
  currentAlt: string;
  aspect?: string;
  compact?: boolean;
  submitLabel?: string;
}

/** One image with a file picker and a button that uploads the replacement. */
export function ReplaceImageForm({ formId, intent, hidden, label, current, currentAlt, aspect, compact, submitLabel }: ReplaceImageFormProps) {
  const { t } = useT();
  return (
    <AdminForm formId={formId} intent={intent} hidden={hidden} className="admin-form admin-form--image" aria-label={label}>
      <ImagePicker name="image" label={label} current={current} currentAlt={currentAlt} aspect={aspect} compact={compact} />
      <FormStatus />
      <SubmitButton pendingLabel={t("admin.saving")} variant={compact ? "ghost" : undefined}>
        {submitLabel ?? t("admin.upload")}
      </SubmitButton>
    </AdminForm>
  );
}
