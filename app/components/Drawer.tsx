import { useEffect, useRef, type ReactNode } from "react";
import { Icon } from "./Icon";

/**
 * A side panel built on <dialog>: modal, so focus stays inside, Escape closes it,
 * and focus returns to the toggle afterwards; a click outside the panel closes it too.
 */
export function Drawer({
  side,
  open,
  onClose,
  title,
  id,
  children,
}: {
  side: "left" | "right";
  open: boolean;
  onClose: () => void;
  title: string;
  id: string;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  return (
    <dialog
      ref={dialog}
      id={id}
      className={`drawer drawer--${side}`}
      aria-labelledby={`${id}-title`}
      onClose={onClose}
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
          <button type="button" className="icon-button" aria-label={`Close ${title.toLowerCase()}`} onClick={() => dialog.current?.close()}>
            <Icon name="close" />
          </button>
        </div>
        {children}
      </div>
    </dialog>
  );
}
