import { useActionData, useLocation, useNavigate, useRevalidator } from "@remix-run/react";
import { createContext, Fragment, useCallback, useContext, useEffect, useRef, useState, type FormEvent, type ReactNode, type Ref } from "react";
import { decode } from "turbo-stream";
import { useT, type Translator } from "~/i18n/translate";

/** What every admin action answers: which form it was for, and how it went. */
export interface AdminResult {
  formId: string;
  ok: boolean;
  message: string;
  errors?: Record<string, string>;
  /** What was typed, so a refused form shows it again (the page re-rendered without JavaScript). */
  values?: Record<string, string>;
  /** "page": shown on the page's status line (deletes and moves, whose form may be gone afterwards). */
  scope?: "page";
}

interface FormState {
  result: AdminResult | null;
  pending: boolean;
  /** Upload progress 0..1 while a file is being sent, null when unknown or not uploading. */
  progress: number | null;
}

const FormStateContext = createContext<FormState>({ result: null, pending: false, progress: null });
/** The page's last answer (AdminPage): only the form that got it shows a message, so every message belongs to the last action. */
interface PageReport {
  report: (result: AdminResult) => void;
  /** undefined outside an AdminPage. */
  latest: AdminResult | null | undefined;
}
const PageReportContext = createContext<PageReport>({ report: () => {}, latest: undefined });

/** The state of the enclosing AdminForm (result, pending, upload progress). */
export function useAdminFormState(): FormState {
  return useContext(FormStateContext);
}

/** Where answers with scope "page" go once the page's status line is mounted (see AdminPage). */
export const PageReportProvider = PageReportContext.Provider;

// The single-fetch ".data" endpoint is where Remix itself posts actions; its answer is a turbo-stream.
function actionDataUrl(pathname: string, search: string): string {
  return `${pathname === "/" ? "/_root" : pathname.replace(/\/$/, "")}.data${search}`;
}

type ActionOutcome = { kind: "data"; value: AdminResult } | { kind: "redirect"; to: string } | { kind: "error"; message: string };

async function decodeActionResponse(body: ArrayBuffer, status: number, t: Translator["t"]): Promise<ActionOutcome> {
  const { value, done } = await decode(new Response(body).body!, {
    plugins: [
      (type: string, ...rest: unknown[]) => {
        if (type === "ErrorResponse") return { value: { status: rest[1], data: rest[0] } };
        if (type === "SanitizedError") return { value: { status, data: rest[1] } };
        return false;
      },
    ],
  });
  await done;
  const result = value as { data?: AdminResult; redirect?: string; error?: { status: number; data: unknown } };
  if (result.redirect) return { kind: "redirect", to: result.redirect };
  if (result.data) return { kind: "data", value: result.data };
  const detail = result.error?.data;
  return {
    kind: "error",
    message: typeof detail === "string" && detail ? detail : t("admin.serverRefused", { status: String(result.error?.status ?? status) }),
  };
}

function send(url: string, body: FormData, onProgress: (fraction: number | null) => void, lost: string): Promise<{ status: number; body: ArrayBuffer }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.responseType = "arraybuffer";
    xhr.upload.onprogress = (event) => onProgress(event.lengthComputable ? event.loaded / event.total : null);
    xhr.onload = () => resolve({ status: xhr.status, body: xhr.response as ArrayBuffer });
    xhr.onerror = () => reject(new Error(lost));
    xhr.send(body);
  });
}

export interface AdminFormProps {
  /** Identifies this form's answer among the page's forms. */
  formId: string;
  intent: string;
  /** Hidden values sent along (the id of the thing the form changes). */
  hidden?: Record<string, string | number>;
  /** Asked before sending (deletes); without JavaScript the form posts directly. */
  confirm?: string;
  /** Where to go after success (e.g. out of edit mode); otherwise the page's data is reloaded in place. */
  successTo?: string;
  className?: string;
  "aria-label"?: string;
  /** Another admin screen whose action handles this form (the page's own action otherwise). */
  action?: string;
  /** For a form submitted by code (drag-to-reorder fills it in and sends it). */
  formRef?: Ref<HTMLFormElement>;
  children: ReactNode;
}

/**
 * A plain POST form that works without JavaScript. With JavaScript it is sent
 * with XMLHttpRequest to the same action, so it can show upload progress, then
 * the page's data is revalidated.
 */
export function AdminForm({ formId, intent, hidden, confirm, successTo, className, action, formRef, children, ...rest }: AdminFormProps) {
  const actionData = useActionData<AdminResult | undefined>();
  const location = useLocation();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const page = useContext(PageReportContext);
  const { t } = useT();
  const [sent, setSent] = useState<AdminResult | null>(null);
  // Bumped after a success: the fields are mounted afresh, so they show their (saved) default values
  // and not what was typed into an earlier, refused attempt.
  const [generation, setGeneration] = useState(0);
  const [pending, setPending] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const busy = useRef(false);
  const serverResult = actionData && actionData.formId === formId && actionData.scope !== "page" ? actionData : null;
  const result = page.latest === undefined ? (sent ?? serverResult) : page.latest ? (sent === page.latest ? sent : null) : serverResult;

  const onSubmit = useCallback(
    async (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      if (busy.current) return;
      if (confirm && !window.confirm(confirm)) return;
      const form = event.currentTarget;
      const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
      const body = new FormData(form, submitter);
      const hasFile = [...body.values()].some((value) => value instanceof File && value.size > 0);
      busy.current = true;
      setPending(true);
      setProgress(hasFile ? 0 : null);
      let outcome: ActionOutcome;
      try {
        const response = await send(
          action ? actionDataUrl(action, "") : actionDataUrl(location.pathname, location.search),
          body,
          hasFile ? setProgress : () => {},
          t("admin.connectionLost"),
        );
        outcome = await decodeActionResponse(response.body, response.status, t);
      } catch (error) {
        outcome = { kind: "error", message: (error as Error).message };
      }
      busy.current = false;
      setPending(false);
      setProgress(null);
      if (outcome.kind === "redirect") {
        navigate(outcome.to);
        return;
      }
      const answer: AdminResult = outcome.kind === "data" ? outcome.value : { formId, ok: false, message: outcome.message };
      page.report(answer);
      setSent(answer.scope === "page" ? null : answer);
      if (answer.ok) {
        form.reset();
        setGeneration((n) => n + 1);
        if (successTo && successTo !== location.pathname + location.search) navigate(successTo, { replace: true, preventScrollReset: true });
        else revalidator.revalidate();
      }
    },
    [action, confirm, formId, location.pathname, location.search, navigate, page, revalidator, successTo, t],
  );

  return (
    <FormStateContext.Provider value={{ result, pending, progress }}>
      <form
        ref={formRef}
        method="post"
        action={action}
        encType="multipart/form-data"
        className={className}
        onSubmit={onSubmit}
        aria-busy={pending || undefined}
        aria-label={rest["aria-label"]}
        noValidate
      >
        <input type="hidden" name="formId" value={formId} />
        <input type="hidden" name="intent" value={intent} />
        {hidden && Object.entries(hidden).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />)}
        <Fragment key={generation}>{children}</Fragment>
      </form>
    </FormStateContext.Provider>
  );
}

/** The form's answer: a success or error line, announced to screen readers. */
export function FormStatus() {
  const { result } = useAdminFormState();
  const line = useRef<HTMLParagraphElement>(null);
  // Each new answer is brought into view, clear of the sticky button row and the player bar (scroll-padding, admin.css).
  // Braces: Chromium's scrollIntoView now returns a promise, which React would take for a cleanup function.
  useEffect(() => {
    line.current?.scrollIntoView({ block: "nearest" });
  }, [result]);
  // A message already shown under its field is not repeated.
  if (!result || (!result.ok && Object.values(result.errors ?? {}).includes(result.message))) return null;
  return (
    <p ref={line} className={`admin-status ${result.ok ? "admin-status--ok" : "admin-status--error"}`} role={result.ok ? "status" : "alert"}>
      {result.message}
    </p>
  );
}

/** The error for one field of the enclosing form, if any. */
export function useFieldError(name: string): string | undefined {
  return useAdminFormState().result?.errors?.[name];
}

/** The value last submitted for a field when the form was refused. */
export function useSubmittedValue(name: string): string | undefined {
  const { result } = useAdminFormState();
  return result && !result.ok ? result.values?.[name] : undefined;
}

/** The form's primary button with its pending state and, while uploading, a progress bar. */
export function SubmitButton({ children, pendingLabel, variant }: { children: ReactNode; pendingLabel: string; variant?: "ghost" | "danger" }) {
  const { pending, progress } = useAdminFormState();
  const { t } = useT();
  return (
    <span className="admin-submit">
      <button type="submit" className={`button${variant ? ` button--${variant}` : ""}`} disabled={pending} aria-disabled={pending || undefined}>
        {pending ? (
          <>
            <span className="admin-spinner" aria-hidden="true" />
            {progress !== null && progress < 1 ? t("admin.uploadingPercent", { percent: String(Math.round(progress * 100)) }) : pendingLabel}
          </>
        ) : (
          children
        )}
      </button>
      {pending && progress !== null && (
        <progress className="admin-progress" max={1} value={progress} aria-label={t("admin.uploadProgress")}>
          {Math.round(progress * 100)}%
        </progress>
      )}
    </span>
  );
}
