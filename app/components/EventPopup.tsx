import { Link } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useT } from "~/i18n/translate";
import { mediaSrcSet, mediaUrlFor, type MediaFile } from "~/utils/media";
import { Icon } from "./Icon";

export interface EventView {
  id: string;
  name: string;
  when: string;
  poster: MediaFile;
}

/**
 * An event's calendar date ("Sabtu, 5 Desember 2026" in "id-ID"): stored at UTC midnight, so read
 * in UTC; its time is already in the station's zone. Formatted in the loaders for the page's locale.
 */
export function formatEventDate(date: Date, locale: string): string {
  return new Intl.DateTimeFormat(locale, { weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(date);
}

/**
 * The latest event as a popup on arrival. Closable with its button, Escape or a
 * click outside; a newer event arriving live opens it again. Without JavaScript,
 * "close" is a link to `?popup=closed`.
 */
export function EventPopup({ event, initiallyOpen }: { event: EventView; initiallyOpen: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [dismissedId, setDismissedId] = useState<string | null>(initiallyOpen ? null : event.id);
  const open = dismissedId !== event.id;
  const { t } = useT();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.matches(":modal")) {
      if (element.open) element.close();
      element.showModal();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open]);

  return (
    // A click on the backdrop closes the dialog; the keyboard way is Escape, native to <dialog>.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions
    <dialog
      ref={dialog}
      className="event-popup"
      open={open}
      aria-labelledby="event-popup-title"
      data-testid="event-popup"
      // Reopening the server-rendered popup as modal closes it first; that close is not the listener's.
      onClose={() => !dialog.current?.open && setDismissedId(event.id)}
      onClick={(click) => {
        if (click.target === dialog.current) dialog.current.close();
      }}
    >
      <div className="event-popup__body">
        <div className="event-popup__poster">
          <img
            src={mediaUrlFor(event.poster, 640)}
            srcSet={mediaSrcSet(event.poster)}
            sizes="420px"
            alt={t("events.posterAlt", { name: event.name })}
            width={event.poster.width ?? 800}
            height={event.poster.height ?? 1000}
          />
        </div>
        <p className="event-popup__kicker">{t("events.popupKicker")}</p>
        <h2 id="event-popup-title" className="event-popup__title">
          {event.name}
        </h2>
        <p className="event-card__when">
          <Icon name="calendar" /> {event.when}
        </p>
      </div>
      <Link
        to="?popup=closed"
        replace
        preventScrollReset
        className="icon-button event-popup__close"
        aria-label={t("events.closePopup")}
        onClick={(click) => {
          click.preventDefault();
          dialog.current?.close();
        }}
      >
        <Icon name="close" />
      </Link>
    </dialog>
  );
}
