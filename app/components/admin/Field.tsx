import { useId, type InputHTMLAttributes, type TextareaHTMLAttributes } from "react";
import { useFieldError, useSubmittedValue } from "./AdminForm";

type FieldProps = { name: string; label: string; hint?: string } & (
  ({ multiline?: false } & InputHTMLAttributes<HTMLInputElement>) | ({ multiline: true } & TextareaHTMLAttributes<HTMLTextAreaElement>)
);

/** Label above the control, the server's error for it below (in the danger colour). */
export function Field({ name, label, hint, multiline, ...control }: FieldProps) {
  const id = useId();
  const error = useFieldError(name);
  const submitted = useSubmittedValue(name);
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  const common = {
    id,
    name,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": described,
    className: control.className ?? "admin-input",
    ...(submitted !== undefined ? { defaultValue: submitted } : {}),
  };
  return (
    <div className="admin-field">
      <label htmlFor={id} className="admin-label">
        {label}
      </label>
      {multiline ? (
        <textarea {...(control as TextareaHTMLAttributes<HTMLTextAreaElement>)} {...common} />
      ) : (
        <input {...(control as InputHTMLAttributes<HTMLInputElement>)} {...common} />
      )}
      {hint && (
        <p id={`${id}-hint`} className="caption">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="form-error">
          {error}
        </p>
      )}
    </div>
  );
}
