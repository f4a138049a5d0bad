import { Link } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useT } from "~/i18n/translate";
import { Icon } from "./Icon";

/**
 * A side panel built on <dialog>: modal, so focus stays inside, Escape closes it,
 * and focus returns to the toggle afterwards; a click outside the panel closes it too.
 * Without JavaScript the toggles are links to `?drawer=<id>`: the server renders the
 * panel open, and its close control is a link back to the page.
 */
export function Drawer({
  side,
  open,
  onClose,
  closeHref,
  title,
  id,
  children,
}: {
  side: "left" | "right";
  open: boolean;
  onClose: () => void;
  /** The page without the drawer (the close link without JavaScript). */
  closeHref: string;
  title: string;
  id: string;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const { t } = useT();
  // The open attribute is rendered once (server-rendered open drawer) and never changed by React:
  // removing it from a modal dialog leaves Chromium's page inert. Later changes go through the effect.
  const [renderedOpen] = useState(open);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    // A server-rendered open drawer becomes modal once JavaScript runs.
    if (open && !element.matches(":modal")) {
      if (element.open) element.close();
      element.showModal();
    }
    if (!open && element.open) element.close();
  }, [open]);

  return (
    // A click on the backdrop closes the dialog; the keyboard way is Escape, native to <dialog>.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions
    <dialog
      ref={dialog}
      id={id}
      open={renderedOpen || undefined}
      className={`drawer drawer--${side}`}
      aria-labelledby={`${id}-title`}
      // Reopening a server-rendered drawer as modal closes it first; that close is not the user's.
      onClose={() => !dialog.current?.open && onClose()}
      onClick={(event) => {
        // The dialog element itself is only hit through its backdrop.
        if (event.target === dialog.current) dialog.current.close();
      }}
    >
      <div className="drawer__panel">
        <div className="drawer__head">
          <h2 id={`${id}-title`} className="drawer__title">
            {title}
          </h2>
          <Link
            to={closeHref}
            replace
            preventScrollReset
            className="icon-button"
            aria-label={t("common.closeDrawer", { title: title.toLowerCase() })}
            onClick={(event) => {
              event.preventDefault();
              dialog.current?.close();
            }}
          >
            <Icon name="close" />
          </Link>
        </div>
        {children}
      </div>
    </dialog>
  );
}
