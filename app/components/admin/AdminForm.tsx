import { useActionData, useFetcher, useLocation, useNavigate, useRevalidator } from "@remix-run/react";
import {
  createContext,
  Fragment,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
  type FormEvent,
  type MutableRefObject,
  type ReactNode,
  type Ref,
} from "react";
import { useT, type Translator } from "~/i18n/translate";
import { safeRedirect } from "~/utils/safe-redirect";

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

type UploadAnswer = { kind: "data"; value: AdminResult } | { kind: "redirect"; to: string } | { kind: "error"; message: string };

/**
 * Posts a form with a file to a resource route that answers an AdminResult as JSON (`uploadTo`), with
 * XMLHttpRequest because fetch() reports no upload progress. A redirect (an ended admin session) is followed
 * by the browser, and then navigated to.
 */
function sendUpload(url: string, body: FormData, onProgress: (fraction: number | null) => void, t: Translator["t"]): Promise<UploadAnswer> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (event) => onProgress(event.lengthComputable ? event.loaded / event.total : null);
    xhr.onload = () => {
      const landed = new URL(xhr.responseURL || url, window.location.href);
      if (landed.pathname !== new URL(url, window.location.href).pathname) return resolve({ kind: "redirect", to: landed.pathname + landed.search });
      const type = xhr.getResponseHeader("Content-Type") ?? "";
      const answer = type.startsWith("application/json") ? (JSON.parse(xhr.responseText) as Partial<AdminResult>) : null;
      if (answer && typeof answer.formId === "string" && typeof answer.message === "string") return resolve({ kind: "data", value: answer as AdminResult });
      // A refusal from before the app (server/security.ts) is one plain-text line in the admin's language.
      const text = type.startsWith("text/plain") ? xhr.responseText.trim() : "";
      resolve({ kind: "error", message: text && text.length <= 300 ? text : t("admin.serverRefused", { status: String(xhr.status) }) });
    };
    xhr.onerror = () => resolve({ kind: "error", message: t("admin.connectionLost") });
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
  /**
   * A resource route answering this form's AdminResult as JSON: a post that carries a file goes there,
   * with upload progress (large audio). Without it every post goes through a Remix fetcher.
   */
  uploadTo?: string;
  /** For a form submitted by code (drag-to-reorder fills it in and sends it). */
  formRef?: Ref<HTMLFormElement>;
  children: ReactNode;
}

/**
 * A plain POST form that works without JavaScript. With JavaScript it is sent through a Remix
 * fetcher to the same action (which reloads the page's data), or, when it carries a file and has
 * `uploadTo`, with upload progress to that resource route.
 */
export function AdminForm({ formId, intent, hidden, confirm, successTo, className, action, uploadTo, formRef, children, ...rest }: AdminFormProps) {
  const actionData = useActionData<AdminResult | undefined>();
  const fetcher = useFetcher<AdminResult>();
  const location = useLocation();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const page = useContext(PageReportContext);
  const { t } = useT();
  const [sent, setSent] = useState<AdminResult | null>(null);
  // Bumped after a success: the fields are mounted afresh, so they show their (saved) default values
  // and not what was typed into an earlier, refused attempt.
  const [generation, setGeneration] = useState(0);
  // Upload progress 0..1 while a file goes to `uploadTo` (null: unknown); undefined when no upload runs.
  const [upload, setUpload] = useState<number | null | undefined>(undefined);
  const formElement = useRef<HTMLFormElement | null>(null);
  const settled = useRef<AdminResult | undefined>(undefined);
  const pending = fetcher.state === "submitting" || upload !== undefined;
  const progress = upload ?? null;
  const serverResult = actionData && actionData.formId === formId && actionData.scope !== "page" ? actionData : null;
  const result = page.latest === undefined ? (sent ?? serverResult) : page.latest ? (sent === page.latest ? sent : null) : serverResult;
  const here = location.pathname + location.search;

  const settle = useCallback(
    (answer: AdminResult, reload: boolean) => {
      page.report(answer);
      setSent(answer.scope === "page" ? null : answer);
      if (!answer.ok) return;
      formElement.current?.reset();
      setGeneration((n) => n + 1);
      if (successTo && successTo !== here) navigate(successTo, { replace: true, preventScrollReset: true });
      else if (reload) revalidator.revalidate();
    },
    [here, navigate, page, revalidator, successTo],
  );

  // A fetcher's answer (Remix has already reloaded the page's data after its action).
  useEffect(() => {
    const answer = fetcher.data;
    if (!answer || answer === settled.current) return;
    settled.current = answer;
    settle(answer, false);
  }, [fetcher.data, settle]);

  const setRefs = useCallback(
    (element: HTMLFormElement | null) => {
      formElement.current = element;
      if (typeof formRef === "function") formRef(element);
      else if (formRef) (formRef as MutableRefObject<HTMLFormElement | null>).current = element;
    },
    [formRef],
  );

  const onSubmit = useCallback(
    async (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      if (pending) return;
      if (confirm && !window.confirm(confirm)) return;
      const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
      const body = new FormData(event.currentTarget, submitter);
      const hasFile = [...body.values()].some((value) => value instanceof File && value.size > 0);
      if (!(uploadTo && hasFile)) {
        fetcher.submit(body, { method: "post", action: action ?? here, encType: "multipart/form-data" });
        return;
      }
      setUpload(0);
      const answer = await sendUpload(uploadTo, body, setUpload, t);
      setUpload(undefined);
      if (answer.kind === "redirect") navigate(safeRedirect(answer.to, here));
      else settle(answer.kind === "data" ? answer.value : { formId, ok: false, message: answer.message }, true);
    },
    [action, confirm, fetcher, formId, here, navigate, pending, settle, t, uploadTo],
  );

  return (
    <FormStateContext.Provider value={{ result, pending, progress }}>
      <form
        ref={setRefs}
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
