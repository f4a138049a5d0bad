import { Link, useFetcher } from "@remix-run/react";
import { useEffect, useId, useRef } from "react";
import type { PinRefusal } from "~/utils/forms/pin";
import { useT } from "~/i18n/translate";
import { Icon } from "./Icon";

export interface PinDialogProps {
  /** "admin": into the admin area (6 digits); "public": back to the public site (5 characters). */
  kind: "admin" | "public";
  open: boolean;
  onClose?: () => void;
  /** An error to show from a server render (no-JavaScript post). */
  error?: string;
  redirectTo?: string;
  /** Where "Cancel" goes when there is no JavaScript to close the dialog. */
  closeHref?: string;
  /** A sign-in link from a server render (no-JavaScript post) that asked to sign in first. */
  signIn?: string;
}

export function PinDialog({ kind, open, onClose, error, redirectTo, closeHref, signIn }: PinDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const fetcher = useFetcher<PinRefusal>();
  const { t } = useT();
  const titleId = useId();
  const errorId = useId();
  const busy = fetcher.state !== "idle";
  const message = fetcher.data?.error ?? (fetcher.state === "idle" && !fetcher.data ? error : undefined);
  const signInTo = fetcher.data ? fetcher.data.signIn : signIn;

  // Server-rendered, the dialog is simply open; in the browser it becomes modal,
  // which traps focus and closes on Escape.
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.matches(":modal")) {
      if (element.open) element.close();
      element.showModal();
      input.current?.focus();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open]);

  useEffect(() => {
    if (fetcher.data?.error) {
      input.current?.select();
    }
  }, [fetcher.data]);

  return (
    // A click on the backdrop closes the dialog; the keyboard way is Escape, native to <dialog>.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions
    <dialog
      ref={dialog}
      className="pin-dialog"
      open={open}
      aria-labelledby={titleId}
      // Reopening a server-rendered dialog as modal closes it first; that close is not the user's.
      onClose={() => !dialog.current?.open && onClose?.()}
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself) closes it.
        if (event.target === dialog.current) dialog.current?.close();
      }}
    >
      <fetcher.Form method="post" action="/pin" className="pin-dialog__form">
        <div className="pin-dialog__icon" aria-hidden="true">
          <Icon name="lock" />
        </div>
        <h2 id={titleId} className="pin-dialog__title">
          {t(kind === "admin" ? "common.pinAdminTitle" : "common.pinPublicTitle")}
        </h2>
        <p className="muted">{t(kind === "admin" ? "common.pinAdminHint" : "common.pinPublicHint")}</p>
        <input type="hidden" name="kind" value={kind} />
        {redirectTo && <input type="hidden" name="redirectTo" value={redirectTo} />}
        <label className="visually-hidden" htmlFor={`${titleId}-pin`}>
          {t("common.pinLabel")}
        </label>
        <input
          ref={input}
          id={`${titleId}-pin`}
          className="pin-dialog__input"
          type="password"
          name="pin"
          maxLength={kind === "admin" ? 6 : 5}
          inputMode={kind === "admin" ? "numeric" : "text"}
          autoComplete="off"
          required
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? errorId : undefined}
        />
        {message && (
          <p id={errorId} className="form-error" role="alert">
            {message}
          </p>
        )}
        {message && signInTo && (
          <Link to={signInTo} className="button button--ghost">
            {t("common.pinSignIn")}
          </Link>
        )}
        <div className="pin-dialog__actions">
          {closeHref ? (
            <Link to={closeHref} className="button button--ghost">
              {t("common.cancel")}
            </Link>
          ) : (
            <button type="button" className="button button--ghost" onClick={() => dialog.current?.close()}>
              {t("common.cancel")}
            </button>
          )}
          <button type="submit" className="button" disabled={busy}>
            {t(busy ? "common.pinChecking" : "common.pinEnter")}
          </button>
        </div>
      </fetcher.Form>
    </dialog>
  );
}
