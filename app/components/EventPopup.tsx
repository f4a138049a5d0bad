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

const SEEN_KEY = "event-popup:seen";
const SEEN_KEPT = 50;

function seenEvents(): string[] {
  try {
    const seen: unknown = JSON.parse(window.localStorage.getItem(SEEN_KEY) ?? "[]");
    return Array.isArray(seen) ? seen.filter((id): id is string => typeof id === "string") : [];
  } catch {
    return [];
  }
}

function markSeen(id: string) {
  try {
    window.localStorage.setItem(SEEN_KEY, JSON.stringify([id, ...seenEvents().filter((each) => each !== id)].slice(0, SEEN_KEPT)));
  } catch {
    // Storage blocked: the popup shows again next time, as without JavaScript.
  }
}

/**
 * The latest event as a popup on arrival. Closable with its button, Escape or a
 * click outside, after which focus goes back to what had it. With `once`, each
 * event pops up once per browser (remembered), also when it arrives live.
 * Without JavaScript, "close" is a link to `?popup=closed`.
 */
export function EventPopup({ event, initiallyOpen, once = false }: { event: EventView; initiallyOpen: boolean; once?: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const [dismissedId, setDismissedId] = useState<string | null>(initiallyOpen ? null : event.id);
  const open = dismissedId !== event.id;
  const { t } = useT();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.matches(":modal")) {
      // Seen before (in another visit): the server-rendered popup closes before anyone reads it.
      if (once && seenEvents().includes(event.id)) {
        setDismissedId(event.id);
        return;
      }
      if (once) markSeen(event.id);
      const active = document.activeElement;
      returnFocus.current = active instanceof HTMLElement && active !== document.body ? active : null;
      if (element.open) element.close();
      element.showModal();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open, once, event.id]);

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
      onClose={() => {
        if (dialog.current?.open) return;
        setDismissedId(event.id);
        returnFocus.current?.focus();
        returnFocus.current = null;
      }}
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
